package rdsservice

import (
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func TestArchitecture(t *testing.T) {
	cases := map[string]string{
		"mysql.n2m.medium.2c":    "arm",
		"mysql.x4m.large.2c":     "arm",
		"mysql.n2e.medium.xc":    "arm",
		"mysql.x2e.large.xc":     "arm",
		"mysqlro.n2m.small.1c":   "arm",
		"MYSQL.N8M.LARGE.2C":     "arm",
		"mysql.n2.medium.2c":     "x86",
		"mysql.x4.medium.2c":     "x86",
		"mysql.n2.medium.1":      "x86",
		"mysql.n2.medium.xc":     "x86",
		"mysql.n2.serverless.1c": "x86",
		"mysqlro.n2.medium.1c":   "x86",
		"pg.n2.medium.2c":        "x86",
		"":                       "x86",
		"garbage":                "x86",
		"mysql.m.x":              "x86",
	}
	for class, want := range cases {
		if got := Architecture(class); got != want {
			t.Errorf("Architecture(%q) = %q, want %q", class, got, want)
		}
	}
}

const (
	msgEngine  = `16K atomic write needs engine MySQL; got "PostgreSQL". Use a MySQL instance or set atomic_write_16k = false.`
	msgVer84   = `16K atomic write needs engine_version 5.7 or 8.0; got "8.4". Choose MySQL 5.7 or 8.0 or set atomic_write_16k = false.`
	msgVer56   = `16K atomic write needs engine_version 5.7 or 8.0; got "5.6". Choose MySQL 5.7 or 8.0 or set atomic_write_16k = false.`
	msgLocal   = `16K atomic write needs storage_type cloud_essd, cloud_essd2, cloud_essd3 or general_essd; got "local_ssd". Choose an ESSD storage type or set atomic_write_16k = false.`
	msgCloudSS = `16K atomic write needs storage_type cloud_essd, cloud_essd2, cloud_essd3 or general_essd; got "cloud_ssd". Choose an ESSD storage type or set atomic_write_16k = false.`
)

func details(problems []Problem) []string {
	var out []string
	for _, p := range problems {
		out = append(out, p.Attribute+"="+p.Value+": "+p.Detail)
	}
	return out
}

func checkProblems(t *testing.T, name string, got []Problem, want []string) {
	t.Helper()
	g := details(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %q\nwant: %q", name, g, want)
	}
	for _, p := range got {
		if p.Summary == "" || !strings.Contains(p.Error(), p.Detail) {
			t.Errorf("%s: problem %+v lacks a summary", name, p)
		}
	}
}

func TestEligibleForNewAndDefault(t *testing.T) {
	cases := []struct {
		spec NewInstanceSpec
		want []string
	}{
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd"}, nil},
		{NewInstanceSpec{Engine: "mysql", EngineVersion: "5.7", StorageType: "cloud_essd2"}, nil},
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd3", Category: "Basic"}, nil},
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "8.0", StorageType: "general_essd", InstanceClass: "mysql.n2m.medium.2c"}, nil},
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "8.0", StorageType: "local_ssd"}, []string{"storage_type=local_ssd: " + msgLocal}},
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_ssd"}, []string{"storage_type=cloud_ssd: " + msgCloudSS}},
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "8.4", StorageType: "cloud_essd"}, []string{"engine_version=8.4: " + msgVer84}},
		{NewInstanceSpec{Engine: "MySQL", EngineVersion: "5.6", StorageType: "local_ssd"}, []string{"engine_version=5.6: " + msgVer56, "storage_type=local_ssd: " + msgLocal}},
		{NewInstanceSpec{Engine: "PostgreSQL", EngineVersion: "16.0", StorageType: "local_ssd"}, []string{"engine=PostgreSQL: " + msgEngine}},
	}
	for _, c := range cases {
		name := c.spec.Engine + "/" + c.spec.EngineVersion + "/" + c.spec.StorageType
		checkProblems(t, name, EligibleForNew(c.spec), c.want)
		if got := DefaultAtomicWrite(c.spec); got != (len(c.want) == 0) {
			t.Errorf("%s: DefaultAtomicWrite = %v", name, got)
		}
	}
}

var (
	before = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	afterC = time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)
)

func existing(mod func(*ExistingInstance)) ExistingInstance {
	inst := ExistingInstance{ID: "rm-x", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd",
		Category: "HighAvailability", InstanceClass: "mysql.n2.medium.2c", Supported: true, CreationTime: afterC}
	if mod != nil {
		mod(&inst)
	}
	return inst
}

const (
	msgUnsupported = `16K atomic write needs an eligible instance; atomic_write_16k_supported is false for instance rm-x (existing standard x86 instances bought before 2025-05-14, and instances whose product type was changed, are not eligible). Set atomic_write_16k = false, or create a new instance, which is eligible.`
	msgBasic       = `Turning on 16K atomic write for an existing instance needs category HighAvailability or cluster; got "Basic". Basic-edition instances get it only at creation: set atomic_write_16k = false, or create a new instance with atomic_write_16k = true.`
	msgArmToX86    = `16K atomic write needs the product type of an instance bought before 2025-05-14 to stay unchanged; changing instance_type from "mysql.n2m.medium.2c" (arm) to "mysql.n2.large.2c" (x86) changes it, and instance rm-x (bought 2024-06-01) then loses 16K atomic write for good. Choose an instance type of the same architecture (arm) or set atomic_write_16k = false.`
	msgToCloudSSD  = `16K atomic write needs storage_type cloud_essd, cloud_essd2, cloud_essd3 or general_essd; got "cloud_ssd" (changing from "cloud_essd"). Choose an ESSD storage type or set atomic_write_16k = false.`
	msgTo84        = `16K atomic write needs engine_version 5.7 or 8.0; got "8.4" (changing from "8.0"). Choose MySQL 5.7 or 8.0 or set atomic_write_16k = false.`
)

func TestCheckToggle(t *testing.T) {
	no := false
	cases := []struct {
		name   string
		inst   ExistingInstance
		want   bool
		change SpecChange
		expect []string
	}{
		{"eligible HA turns on", existing(nil), true, SpecChange{}, nil},
		{"eligible cluster turns on", existing(func(i *ExistingInstance) { i.Category = "cluster" }), true, SpecChange{}, nil},
		{"turning off is always fine", existing(func(i *ExistingInstance) { i.Enabled = true; i.Supported = false }), false, SpecChange{}, nil},
		{"supported=false", existing(func(i *ExistingInstance) { i.Supported = false; i.CreationTime = before }), true, SpecChange{},
			[]string{"atomic_write_16k=true: " + msgUnsupported}},
		{"Basic turning on", existing(func(i *ExistingInstance) { i.Category = "Basic" }), true, SpecChange{},
			[]string{"category=Basic: " + msgBasic}},
		{"Basic already on keeps it", existing(func(i *ExistingInstance) { i.Category = "Basic"; i.Enabled = true }), true, SpecChange{}, nil},
		{"Basic already on, class change", existing(func(i *ExistingInstance) { i.Category = "Basic"; i.Enabled = true }), true,
			SpecChange{InstanceClass: "mysql.n2.large.1"}, nil},
		{"read-only with Basic category may turn on", existing(func(i *ExistingInstance) { i.Category = "Basic"; i.MasterID = "rm-p"; i.MasterEnabled = &no }), true, SpecChange{}, nil},
		{"pre-cutoff YiTian to x86 with flag", existing(func(i *ExistingInstance) {
			i.InstanceClass = "mysql.n2m.medium.2c"
			i.CreationTime = before
			i.Enabled = true
		}), true, SpecChange{InstanceClass: "mysql.n2.large.2c"}, []string{"instance_type=mysql.n2.large.2c: " + msgArmToX86}},
		{"pre-cutoff YiTian to x86 turning off", existing(func(i *ExistingInstance) {
			i.InstanceClass = "mysql.n2m.medium.2c"
			i.CreationTime = before
			i.Enabled = true
		}), false, SpecChange{InstanceClass: "mysql.n2.large.2c"}, nil},
		{"pre-cutoff YiTian within arm", existing(func(i *ExistingInstance) {
			i.InstanceClass = "mysql.n2m.medium.2c"
			i.CreationTime = before
		}), true, SpecChange{InstanceClass: "mysql.x2m.large.2c"}, nil},
		{"InstructionSetArch wins over the class name", existing(func(i *ExistingInstance) {
			i.InstanceClass = "mysql.custom.large"
			i.Architecture = "arm"
			i.CreationTime = before
		}), true, SpecChange{InstanceClass: "mysql.n2m.large.2c"}, nil},
		{"post-cutoff crosses freely", existing(func(i *ExistingInstance) { i.InstanceClass = "mysql.n2m.medium.2c" }), true,
			SpecChange{InstanceClass: "mysql.n2.large.2c"}, nil},
		{"storage change to cloud_ssd", existing(func(i *ExistingInstance) { i.Enabled = true }), true, SpecChange{StorageType: "cloud_ssd"},
			[]string{"storage_type=cloud_ssd: " + msgToCloudSSD}},
		{"version change to 8.4", existing(nil), true, SpecChange{EngineVersion: "8.4"}, []string{"engine_version=8.4: " + msgTo84}},
		{"storage change to cloud_ssd turning off", existing(func(i *ExistingInstance) { i.Enabled = true }), false, SpecChange{StorageType: "cloud_ssd"}, nil},
		{"ineligible now, storage fixed by the change", existing(func(i *ExistingInstance) { i.StorageType = "cloud_ssd"; i.Supported = false }), true,
			SpecChange{StorageType: "cloud_essd"}, nil},
		{"non-MySQL", existing(func(i *ExistingInstance) { i.Engine = "PostgreSQL" }), true, SpecChange{}, []string{"engine=PostgreSQL: " + msgEngine}},
		{"unsupported and Basic", existing(func(i *ExistingInstance) { i.Supported = false; i.Category = "Basic"; i.CreationTime = before }), true, SpecChange{},
			[]string{"atomic_write_16k=true: " + msgUnsupported, "category=Basic: " + msgBasic}},
	}
	for _, c := range cases {
		checkProblems(t, c.name, CheckToggle(c.inst, c.want, c.change), c.expect)
	}
}

func TestPredictSupportedAfter(t *testing.T) {
	cases := []struct {
		name   string
		inst   ExistingInstance
		change SpecChange
		want   bool
	}{
		{"no change keeps the cloud's answer (true)", existing(nil), SpecChange{}, true},
		{"no change keeps the cloud's answer (false)", existing(func(i *ExistingInstance) { i.Supported = false }), SpecChange{}, false},
		{"to local_ssd", existing(nil), SpecChange{StorageType: "local_ssd"}, false},
		{"to 8.4", existing(nil), SpecChange{EngineVersion: "8.4"}, false},
		{"from cloud_ssd, bought after cutoff", existing(func(i *ExistingInstance) { i.StorageType = "cloud_ssd"; i.Supported = false }), SpecChange{StorageType: "general_essd"}, true},
		{"from cloud_ssd, x86 bought before", existing(func(i *ExistingInstance) {
			i.StorageType = "cloud_ssd"
			i.Supported = false
			i.CreationTime = before
		}), SpecChange{StorageType: "cloud_essd"}, false},
		{"from cloud_ssd, arm bought before", existing(func(i *ExistingInstance) {
			i.StorageType = "cloud_ssd"
			i.Supported = false
			i.CreationTime = before
			i.InstanceClass = "mysql.n2m.medium.2c"
		}), SpecChange{StorageType: "cloud_essd"}, true},
		{"x86 to arm before cutoff", existing(func(i *ExistingInstance) { i.CreationTime = before; i.Supported = false }), SpecChange{InstanceClass: "mysql.n2m.large.2c"}, false},
		{"arm to x86 before cutoff", existing(func(i *ExistingInstance) { i.CreationTime = before; i.InstanceClass = "mysql.n2m.medium.2c" }), SpecChange{InstanceClass: "mysql.n2.large.2c"}, false},
		{"arm to x86 after cutoff", existing(func(i *ExistingInstance) { i.InstanceClass = "mysql.n2m.medium.2c" }), SpecChange{InstanceClass: "mysql.n2.large.2c"}, true},
		{"same class named again", existing(func(i *ExistingInstance) { i.CreationTime = before; i.InstanceClass = "mysql.n2m.medium.2c" }), SpecChange{InstanceClass: "mysql.n2m.medium.2c"}, true},
	}
	for _, c := range cases {
		if got := PredictSupportedAfter(c.inst, c.change); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCheckBufferPoolExtension(t *testing.T) {
	checkProblems(t, "general_essd", CheckBufferPoolExtension("general_essd", true), nil)
	checkProblems(t, "off", CheckBufferPoolExtension("local_ssd", false), nil)
	checkProblems(t, "cloud_essd", CheckBufferPoolExtension("cloud_essd", true), []string{
		`buffer_pool_extension=cloud_essd: buffer_pool_extension needs storage_type general_essd; got "cloud_essd". Choose general_essd or set buffer_pool_extension = false.`})
}

func TestSpecChangeRestartsAndWarning(t *testing.T) {
	inst := existing(nil)
	if got := SpecChangeRestarts(inst, boolPtr(false), SpecChange{InstanceClass: inst.InstanceClass}); len(got) != 0 {
		t.Fatalf("no-op plan restarts: %v", got)
	}
	got := SpecChangeRestarts(inst, boolPtr(true), SpecChange{InstanceClass: "mysql.n2.large.2c", StorageType: "cloud_essd2", EngineVersion: "8.0"})
	want := `atomic_write_16k changes from false to true|instance_type changes from "mysql.n2.medium.2c" to "mysql.n2.large.2c"|storage_type changes from "cloud_essd" to "cloud_essd2"`
	if strings.Join(got, "|") != want {
		t.Fatalf("got %q", got)
	}
	pg := existing(func(i *ExistingInstance) { i.Engine = "PostgreSQL" })
	if got := SpecChangeRestarts(pg, boolPtr(true), SpecChange{}); len(got) != 0 {
		t.Fatalf("non-MySQL flag restarts: %v", got)
	}

	// rr-4 is not eligible itself, so the cloud leaves it off and it does not restart.
	ros := []ExistingInstance{{ID: "rr-1", Supported: true}, {ID: "rr-2", Enabled: true, Supported: true}, {ID: "rr-3", Supported: true}, {ID: "rr-4"}}
	if ids := FollowingReadOnly(false, true, ros); strings.Join(ids, ",") != "rr-1,rr-3" {
		t.Fatalf("followers %v", ids)
	}
	if ids := FollowingReadOnly(true, true, ros); ids != nil {
		t.Fatalf("already on: %v", ids)
	}
	if ids := FollowingReadOnly(false, false, ros); ids != nil {
		t.Fatalf("turning off: %v", ids)
	}

	p := RestartProblem([]Restart{
		{InstanceID: "rm-p", Reasons: []string{"atomic_write_16k changes from false to true"}, Downtime: ExpectedDowntime("HighAvailability", false)},
		{InstanceID: "rr-1", Reasons: []string{"follows its primary rm-p turning atomic_write_16k on"}, Downtime: ExpectedDowntime("", true)},
	}, false, false, AttrAtomicWrite)
	summary, detail := p.Summary, p.Detail
	if summary != "This apply restarts RDS instances rm-p, rr-1" {
		t.Fatalf("summary %q", summary)
	}
	wantDetail := "The following instances will restart:\n" +
		"  - rm-p: atomic_write_16k changes from false to true; expected downtime about 30 to 60 seconds of unavailability per instance (HA switchover)\n" +
		"  - rr-1: follows its primary rm-p turning atomic_write_16k on; expected downtime a few minutes of unavailability per instance (single node restart, no standby)\n" +
		"Set prevent_restart = true to refuse such plans."
	if detail != wantDetail {
		t.Fatalf("detail\n%s\nwant\n%s", detail, wantDetail)
	}
	if p := RestartProblem([]Restart{{InstanceID: "rm-p"}}, false, false, AttrAtomicWrite); p.Summary != "This apply restarts RDS instance rm-p" || p.Severity != SeverityWarning {
		t.Fatalf("single summary %q", p.Summary)
	}
	if p := RestartProblem([]Restart{{InstanceID: "rm-p"}}, false, true, AttrStorage); p.Severity != SeverityError || p.Attribute != AttrStorage ||
		strings.Contains(p.Detail, "Set prevent_restart = true") {
		t.Fatalf("refusal %+v", p)
	}
	if ExpectedDowntime("basic", false) != ExpectedDowntimeSingleNode || ExpectedDowntime("cluster", false) != ExpectedDowntimeHA {
		t.Fatal("downtime by category")
	}
}

func TestExistingFromAttribute(t *testing.T) {
	attr := &rdsapi.DBInstanceAttribute{
		DBInstanceID: "rm-x", Engine: "MySQL", EngineVersion: "8.0", DBInstanceStorageType: "cloud_essd",
		Category: "HighAvailability", DBInstanceClass: "mysql.n2m.medium.2c", InstructionSetArch: "ARM",
		CreationTime: "2024-06-01T00:00:00Z", MasterInstanceID: "rm-p",
		OptimizedWrites: &rdsapi.OptimizedWritesInfo{Enabled: true, Supported: true},
	}
	inst, err := ExistingFromAttribute(attr)
	if err != nil {
		t.Fatal(err)
	}
	if !inst.CreationTime.Equal(before) || inst.Architecture != "arm" || !inst.Enabled || !inst.Supported || inst.MasterID != "rm-p" || inst.EngineVersion != "8.0" {
		t.Fatalf("got %+v", inst)
	}
	attr.CreationTime = "June 1st"
	if _, err := ExistingFromAttribute(attr); err == nil || !strings.Contains(err.Error(), "rm-x") {
		t.Fatalf("bad time: %v", err)
	}
	attr.CreationTime, attr.OptimizedWrites = "", nil
	inst, err = ExistingFromAttribute(attr)
	if err != nil || inst.Enabled || inst.Supported || !inst.CreationTime.IsZero() {
		t.Fatalf("absent fields: %+v %v", inst, err)
	}
}

func TestPredictSupportedAfterKnownAndToggleWarnings(t *testing.T) {
	armOldSSD := existing(func(i *ExistingInstance) {
		i.StorageType = "cloud_ssd"
		i.Supported = false
		i.CreationTime = before
		i.InstanceClass = "mysql.n2m.medium.2c"
	})
	toESSD := SpecChange{StorageType: "cloud_essd"}
	if s, known := PredictSupportedAfterKnown(armOldSSD, toESSD); !s || known {
		t.Fatalf("arm bought before the cutoff, storage fixed: got (%v, %v), want (true, false)", s, known)
	}
	noDate := existing(func(i *ExistingInstance) {
		i.StorageType = "cloud_ssd"
		i.Supported = false
		i.CreationTime = time.Time{}
	})
	if _, known := PredictSupportedAfterKnown(noDate, toESSD); known {
		t.Fatal("unknown purchase date must make the prediction uncertain")
	}
	certain := []ExistingInstance{
		existing(nil),
		existing(func(i *ExistingInstance) { i.StorageType = "cloud_ssd"; i.Supported = false }),
		existing(func(i *ExistingInstance) { i.StorageType = "cloud_ssd"; i.Supported = false; i.CreationTime = before }),
	}
	for _, inst := range certain {
		if _, known := PredictSupportedAfterKnown(inst, toESSD); !known {
			t.Fatalf("%+v: prediction should be certain", inst)
		}
		checkProblems(t, "certain", ToggleWarnings(inst, true, toESSD), nil)
	}
	if _, known := PredictSupportedAfterKnown(armOldSSD, SpecChange{}); !known {
		t.Fatal("no fix of rule 1: certainly unsupported")
	}
	checkProblems(t, "uncertain", ToggleWarnings(armOldSSD, true, toESSD), []string{`atomic_write_16k=true: Instance rm-x is not eligible for 16K atomic write with its current storage_type "cloud_ssd" and engine_version "8.0", and it was bought before 2025-05-14 (or its purchase date is unknown): after this change it is eligible only if its product type was never changed between x86 and YiTian, which the API does not show. If the cloud refuses, the apply fails with its error; to be safe, apply the storage or version change first with atomic_write_16k = false, then check atomic_write_16k_supported.`})
	checkProblems(t, "turning off", ToggleWarnings(armOldSSD, false, toESSD), nil)
	checkProblems(t, "already an error", ToggleWarnings(armOldSSD, true, SpecChange{StorageType: "local_ssd"}), nil)
	checkProblems(t, "no toggle problem", CheckToggle(armOldSSD, true, toESSD), nil)
}
