package rdsservice

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Every row names its source, an attribute, a summary and a detail, and renders without fmt
// complaints; every id constant has a row.
func TestRuleTableRowsAreComplete(t *testing.T) {
	rows := RuleTable()
	if len(rows) < 30 {
		t.Fatalf("%d rows: the table lost rules", len(rows))
	}
	for _, r := range rows {
		// Only a row about the environment, not a value, names no attribute.
		noAttribute := r.Attribute == "" && r.ID != RuleCloudUnavailable
		if r.ID == "" || r.Source == "" || noAttribute || r.Summary == "" || r.Detail == "" {
			t.Errorf("incomplete row %+v", r)
		}
		p := Raise(r.ID, "v", r.Examples()...)
		if text := p.Summary + "\n" + p.Detail; strings.Contains(text, "%!") {
			t.Errorf("row %s renders badly with its examples %v: %q %q", r.ID, r.Examples(), p.Summary, p.Detail)
		}
		if p.Rule != r.ID || p.Severity != r.Severity || p.Attribute != r.Attribute {
			t.Errorf("row %s: problem %+v", r.ID, p)
		}
	}
}

// Raise is the one way to render a row: an unknown id, or arguments of other types than the
// row's examples, are the provider's mistakes and panic, so a caller's test finds them.
func TestRaisePanicsOnUnknownIDAndMismatchedArguments(t *testing.T) {
	for name, raise := range map[string]func(){
		"unknown id":    func() { _ = Raise("no-such-rule", "") },
		"too few":       func() { _ = Raise(RuleStorageStep, "", int64(5)) },
		"string for %d": func() { _ = Raise(RuleStorageStep, "", "5", "21", "25") },
		"int for int64": func() { _ = Raise(RuleStorageShrinkLimits, "", 100, 50) },
		"string for %t": func() { _ = Raise(Rule16KPrimaryNotKnown, "", "rr-1", "rm-1", "false") },
		"one extra":     func() { _ = Raise(RuleInstanceStopped, "", "rm-1", "x") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			raise()
		}()
	}
	if p := Raise(RuleStorageStep, "21", int64(5), int64(21), int64(25)); !strings.Contains(p.Detail, "multiple of 5 GB; got 21") {
		t.Fatalf("well-typed call: %+v", p)
	}
}

// The planner's shape: a refused plan carries no restart warning (issue 19 item 11), a
// replacement is never a restart, and the guards name themselves.
func TestPlanGuardsAndReplacement(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), AtomicWrite: Known(true)}

	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired})
	if d.Action != ActionUpdateWithRestart || len(d.Restarts) != 1 || d.HasErrors() || d.Order.AtomicWrite == nil || !*d.Order.AtomicWrite {
		t.Fatalf("toggle: %+v", d)
	}
	guarded := desired
	guarded.PreventRestart = true
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: guarded})
	if d.Guard != GuardPreventRestart || len(d.Errors()) != 1 || len(d.Warnings()) != 0 {
		t.Fatalf("prevent_restart: %+v", d.Problems)
	}
	// Refused for another reason: the error only, no "This apply restarts".
	basic := prior
	basic.Category = "Basic"
	d = Plan(PlanInput{Label: "rm-1", Prior: &basic, Desired: desired})
	if !d.HasErrors() || len(d.Warnings()) != 0 {
		t.Fatalf("refused toggle shows %+v", d.Problems)
	}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Replace: []string{AttrEngineVersion}})
	if d.Action != ActionReplace || len(d.Restarts) != 0 || d.HasErrors() || d.Problems[0].Rule != RuleReplace {
		t.Fatalf("replace: %+v", d)
	}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: guarded, Replace: []string{AttrEngineVersion}})
	if d.Guard != GuardPreventRestart || d.Errors()[0].Rule != RuleReplaceRefusedRestart {
		t.Fatalf("replace with prevent_restart: %+v", d)
	}
	protected := prior
	protected.DeletionProtection = true
	d = Plan(PlanInput{Label: "rm-1", Prior: &protected, Desired: desired, Replace: []string{AttrEngineVersion}})
	if d.Guard != GuardDeletionProtection || !strings.Contains(d.Errors()[0].Detail, "engine_version forces replacement") {
		t.Fatalf("replace with deletion protection: %+v", d)
	}
}

// Storage facts: cloud-disk growth is online, a reduction restarts and warns (or is refused off
// ESSD), cloud disks never go back to local disks.
func TestPlanStorage(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Enabled: true, Status: StatusRunning}
	with := func(storage int64, storageType string) Desired {
		return Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known(storageType), Category: Known("HighAvailability"),
			InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(storage)}
	}
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: with(200, "cloud_essd")})
	if d.Action != ActionUpdate || len(d.Restarts) != 0 || d.Order.Storage == nil {
		t.Fatalf("growth: %+v", d)
	}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: with(50, "cloud_essd")})
	if len(d.Restarts) != 1 || d.HasErrors() || d.Warnings()[0].Rule != RuleStorageShrinkLimits {
		t.Fatalf("reduction: %+v", d)
	}
	ssd := prior
	ssd.StorageType, ssd.Enabled, ssd.Supported = "cloud_ssd", false, false
	d = Plan(PlanInput{Label: "rm-1", Prior: &ssd, Desired: with(50, "cloud_ssd")})
	if !d.HasErrors() || d.Errors()[0].Rule != RuleStorageShrinkNotOffered {
		t.Fatalf("reduction on cloud_ssd: %+v", d)
	}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: with(100, "local_ssd")})
	if !d.HasErrors() || d.Errors()[0].Rule != RuleStorageTypeCloudToLocal {
		t.Fatalf("cloud to local: %+v", d)
	}
}

// A change still under way (e.g. after a timed-out update) is not promised as a restart.
func TestPlanChangeInProgressPromisesNoRestart(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: "DBInstanceClassChanging"}
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"),
		StorageType: Known("cloud_essd"), Category: Known("HighAvailability"), InstanceClass: Known("mysql.n2.medium.2c"),
		Storage: Known(int64(20)), AtomicWrite: Known(true)}})
	if len(d.Restarts) != 0 || len(d.MayRestart) == 0 || d.Status.IsKnown() || d.Problems[0].Rule != RuleChangeInProgress {
		t.Fatalf("change in progress: %+v", d)
	}
}

// The read-only role: the primary's planned value decides (rule 7).
func TestPlanReadOnlyFollowsPrimaryPlan(t *testing.T) {
	primary := ExistingInstance{ID: "rm-p", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Storage: 100, Status: StatusRunning}
	ro := ExistingInstance{ID: "rr-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", InstanceClass: "mysqlro.n2.medium.1c",
		Storage: 100, Supported: true, MasterID: "rm-p", Status: StatusRunning}
	desired := func(flag Val[bool]) Desired {
		return Desired{EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), InstanceClass: Known("mysqlro.n2.medium.1c"),
			Storage: Known(int64(100)), AtomicWrite: flag}
	}
	// Unset, primary planned on: the read-only instance shows the change and its restart, and
	// the apply sends nothing for it.
	d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: desired(Null[bool]()), Facts: Facts{Primary: &primary, PrimaryPlanned: Known(true)}})
	if !d.AtomicWrite.Is(true) || !d.FollowsPrimary || len(d.Restarts) != 1 || !d.Order.Empty() || d.HasErrors() {
		t.Fatalf("follower: %+v", d)
	}
	// Configured off while the primary turns on: refused.
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: desired(Known(false)), Facts: Facts{Primary: &primary, PrimaryPlanned: Known(true)}})
	if !d.HasErrors() || d.Errors()[0].Rule != Rule16KReadOnlyOff || !strings.Contains(d.Errors()[0].Detail, "will have") {
		t.Fatalf("off while the primary turns on: %+v", d.Problems)
	}
	// Both off in one run: the primary on now, planned off.
	on, roOn := primary, ro
	on.Enabled, roOn.Enabled = true, true
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &roOn, Desired: desired(Known(false)), Facts: Facts{Primary: &on, PrimaryPlanned: Known(false)}})
	if d.HasErrors() || d.Order.AtomicWrite == nil || *d.Order.AtomicWrite {
		t.Fatalf("both off: %+v", d)
	}
	// Not seen in this run: the primary's current value decides.
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &roOn, Desired: desired(Known(false)), Facts: Facts{Primary: &on}})
	if !d.HasErrors() || !strings.Contains(d.Errors()[0].Detail, "primary rm-p has") {
		t.Fatalf("off while the primary has it on: %+v", d.Problems)
	}
	// A new read-only instance below its primary's storage.
	small := desired(Null[bool]())
	small.Storage = Known(int64(50))
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: small, Facts: Facts{Primary: &primary}})
	if !d.HasErrors() || d.Errors()[0].Rule != RuleStorageReadOnlyBelow {
		t.Fatalf("storage below the primary's: %+v", d.Problems)
	}
}

// The clone role: the source's engine and version, the clone's own class with the source's
// product-line history, the restore window.
func TestPlanClone(t *testing.T) {
	src := ExistingInstance{ID: "rm-src", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2m.medium.2c", Architecture: "arm", Storage: 20, Supported: true, Enabled: true,
		CreationTime: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clone := func(class, version, storageType string, flag Val[bool], restore string) Decision {
		return Plan(PlanInput{Role: RoleClone, Label: "the clone", Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known(version),
			InstanceClass: Known(class), StorageType: Known(storageType), Category: Known("HighAvailability"), Storage: Known(int64(20)),
			AtomicWrite: flag, RestoreTime: Known(restore)}, Facts: Facts{Now: now, Source: &src}})
	}
	if d := clone("mysql.n2m.medium.2c", "8.0", "cloud_essd", Null[bool](), ""); !d.AtomicWrite.Is(true) || !d.AtomicWriteSupported.Is(true) || d.HasErrors() {
		t.Fatalf("same class inherits: %+v", d)
	}
	if d := clone("mysql.n2.medium.2c", "8.0", "cloud_essd", Null[bool](), ""); !d.AtomicWrite.Is(false) || !d.AtomicWriteSupported.Is(false) {
		t.Fatalf("x86 clone of a 2024 YiTian source: %+v", d)
	}
	if d := clone("mysql.n2.medium.2c", "8.0", "cloud_essd", Known(true), ""); !d.HasErrors() || d.Errors()[0].Rule != Rule16KProductType {
		t.Fatalf("x86 clone asked for true: %+v", d.Problems)
	}
	if d := clone("mysql.n2m.medium.2c", "8.0", "cloud_ssd", Null[bool](), ""); !d.AtomicWrite.Is(false) {
		t.Fatalf("cloud_ssd clone: %+v", d)
	}
	if d := clone("mysql.n2m.medium.2c", "5.7", "cloud_essd", Null[bool](), ""); !d.HasErrors() || d.Errors()[0].Rule != RuleCloneDiffersFromSource {
		t.Fatalf("version differs: %+v", d.Problems)
	}
	if d := clone("mysql.n2m.medium.2c", "8.0", "cloud_essd", Null[bool](), "2024-01-01T00:00:00Z"); !d.HasErrors() || d.Errors()[0].Rule != RuleCloneRestoreTimeOutside {
		t.Fatalf("restore time before the source existed: %+v", d.Problems)
	}
	if d := clone("mysql.n2m.medium.2c", "8.0", "cloud_essd", Known(false), "2025-01-01T00:00:00Z"); d.HasErrors() || d.ToggleAfterCreate == nil || len(d.Restarts) != 1 {
		t.Fatalf("different flag toggles once after creation: %+v", d)
	}
}

// Ctrl-C cancels the operation's context: the wait says so instead of claiming a timeout.
func TestWaitErrorTellsCancellationFromTimeout(t *testing.T) {
	cancelled := (&WaitTimeoutError{InstanceID: "rm-1", What: "Running", Cause: context.Canceled}).Error()
	timedOut := (&WaitTimeoutError{InstanceID: "rm-1", What: "Running", Cause: context.DeadlineExceeded}).Error()
	if !strings.HasPrefix(cancelled, "cancelled waiting") || !strings.HasPrefix(timedOut, "timed out waiting") {
		t.Fatalf("cancelled: %q; timed out: %q", cancelled, timedOut)
	}
}

// A primary planned with a value known only at apply: the read-only plan warns and names the fix,
// and names the restart that follows if the primary turns on, which prevent_restart refuses
// (issue 39 §3).
func TestPlanReadOnlyPrimaryPlanUnknownWarns(t *testing.T) {
	primary := ExistingInstance{ID: "rm-p", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Storage: 100, Status: StatusRunning}
	ro := ExistingInstance{ID: "rr-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", InstanceClass: "mysqlro.n2.medium.1c",
		Storage: 100, Supported: true, MasterID: "rm-p", Status: StatusRunning}
	plan := func(guard bool) Decision {
		return Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: Desired{EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"),
			InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100)), PreventRestart: guard}, Facts: Facts{Primary: &primary, PrimaryPlanned: Unknown[bool]()}})
	}
	d := plan(false)
	if w := d.Warnings(); len(w) != 2 || w[0].Rule != Rule16KPrimaryNotKnown || !strings.Contains(w[0].Detail, "known value") ||
		w[1].Rule != RuleMayRestart || !strings.Contains(w[1].Detail, "its primary rm-p's atomic_write_16k") {
		t.Fatalf("warnings %+v", w)
	}
	if e := plan(true).Errors(); len(e) != 1 || e[0].Rule != RuleMayRestartRefusedUnknown || e[0].Attribute != AttrAtomicWrite {
		t.Fatalf("with prevent_restart: %+v", e)
	}
}

// Issue 19 item 9: turning 16K atomic write off on an existing Basic-edition instance warns that
// it cannot be turned on again; turning it on there is refused although it is supported.
func TestPlanBasicEdition(t *testing.T) {
	basic := ExistingInstance{ID: "rm-b", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "Basic",
		InstanceClass: "mysql.n2.medium.1", Storage: 20, Supported: true, Enabled: true, Status: StatusRunning}
	desired := func(flag bool) Desired {
		return Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("Basic"),
			InstanceClass: Known("mysql.n2.medium.1"), Storage: Known(int64(20)), AtomicWrite: Known(flag)}
	}
	d := Plan(PlanInput{Label: "rm-b", Prior: &basic, Desired: desired(false)})
	if d.HasErrors() || len(d.Warnings()) != 2 || d.Warnings()[0].Rule != Rule16KBasicOffForGood {
		t.Fatalf("turning off on Basic: %+v", d.Problems)
	}
	off := basic
	off.Enabled = false
	d = Plan(PlanInput{Label: "rm-b", Prior: &off, Desired: desired(true)})
	if !d.HasErrors() || d.Errors()[0].Rule != Rule16KBasicEdition || !d.AtomicWriteSupported.Is(true) {
		t.Fatalf("turning on on Basic: %+v", d)
	}
}

// Issue 23 item 7: Terraform folds warnings with equal summaries ("and 2 more similar
// warnings"), so every restart warning names its instances, and how often each restarts.
func TestRestartSummariesAreDistinctPerInstance(t *testing.T) {
	twice := func(id string) []Restart {
		return []Restart{{InstanceID: id, Reasons: []string{"instance_type changes"}, Downtime: "10 s"},
			{InstanceID: id, Reasons: []string{"follows its primary turning atomic_write_16k on"}, Downtime: "10 s"}}
	}
	seen := map[string]bool{}
	for _, restarts := range [][]Restart{twice("rr-1"), twice("rr-2"),
		{{InstanceID: "rm-1"}, {InstanceID: "rr-1 (read-only instance)"}}, {{InstanceID: "rm-2"}, {InstanceID: "rr-3 (read-only instance)"}}} {
		for _, p := range []Problem{RestartProblem(restarts, false, false, AttrInstanceType), RestartProblem(restarts, false, true, AttrInstanceType)} {
			if seen[p.Summary] {
				t.Errorf("summary %q repeats for another instance", p.Summary)
			}
			seen[p.Summary] = true
		}
	}
	if p := RestartProblem(twice("rr-1"), false, false, AttrInstanceType); p.Summary != "This apply restarts RDS instance rr-1 (2 restarts)" {
		t.Fatalf("summary %q", p.Summary)
	}
	if len(seen) != 8 {
		t.Fatalf("%d summaries, want 8", len(seen))
	}
}

// Issue 23 item 4: a replacement names the new instance's restart right after its creation, as
// a plain create does (a read-only instance toggled on, parameters that need a restart).
func TestPlanReplacementNamesRestartAfterCreation(t *testing.T) {
	primary := ExistingInstance{ID: "rm-p", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Storage: 100, Status: StatusRunning}
	ro := ExistingInstance{ID: "rr-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", InstanceClass: "mysqlro.n2.medium.1c",
		Storage: 100, Supported: true, MasterID: "rm-p", Status: StatusRunning}
	desired := Desired{EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), InstanceClass: Known("mysqlro.n2.medium.1c"),
		Storage: Known(int64(100)), AtomicWrite: Known(true)}
	d := Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: desired, Replace: []string{"zone_id"}, Facts: Facts{Primary: &primary}})
	if d.Action != ActionReplace || len(d.Restarts) != 1 || d.HasErrors() {
		t.Fatalf("read-only replacement: %+v", d)
	}
	w := d.Warnings()
	if len(w) != 2 || w[0].Rule != RuleReplaceReadOnly || w[1].Rule != RuleRestart ||
		!strings.Contains(w[1].Summary, "the new instance replacing rr-1") || !strings.Contains(w[1].Detail, "then turned on") {
		t.Fatalf("warnings %+v", w)
	}
	if strings.Contains(w[0].Detail+w[0].Summary, "restore_from") {
		t.Fatalf("a read-only instance is told to use restore_from, which it cannot: %+v", w[0])
	}
	tmpl := ParameterTemplate{Engine: "MySQL", EngineVersion: "8.0", Parameters: map[string]ParameterSpec{
		"innodb_read_io_threads": {Name: "innodb_read_io_threads", Default: "4", Allowed: "[1-64]", Modifiable: true, Restart: true}}}
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	withParams := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)),
		Parameters: DesiredParameters{Set: true, Values: map[string]string{"innodb_read_io_threads": "8"}}}
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: withParams, Replace: []string{AttrEngineVersion}, Facts: Facts{Parameters: &ParameterFacts{Template: tmpl}}})
	if len(d.Restarts) != 1 || len(d.Warnings()) != 2 || !strings.Contains(d.Warnings()[1].Detail, "right after creation") {
		t.Fatalf("replacement with a restart parameter: %+v", d)
	}
	guarded := withParams
	guarded.PreventRestart = true
	d = Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: guarded, Replace: []string{AttrEngineVersion}, Facts: Facts{Parameters: &ParameterFacts{Template: tmpl}}})
	if len(d.Errors()) != 1 || len(d.Warnings()) != 0 {
		t.Fatalf("prevent_restart shows only its refusal: %+v", d.Problems)
	}
}

// Issue 23 item 11: parameters known only at apply that may restart the instance are refused at
// plan under prevent_restart (the apply could only fail after other resources changed); an
// unknown value of an online parameter restarts nothing and is planned.
func TestPlanUnknownParametersWithPreventRestart(t *testing.T) {
	tmpl := ParameterTemplate{Engine: "MySQL", EngineVersion: "8.0", Parameters: map[string]ParameterSpec{
		"innodb_read_io_threads": {Name: "innodb_read_io_threads", Default: "4", Allowed: "[1-64]", Modifiable: true, Restart: true},
		"innodb_io_capacity":     {Name: "innodb_io_capacity", Default: "200", Allowed: "[100-20000]", Modifiable: true}}}
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	plan := func(guard bool, p DesiredParameters, facts *ParameterFacts) Decision {
		return Plan(PlanInput{Label: "rm-1", Prior: &prior, Facts: Facts{Parameters: facts}, Desired: Desired{Engine: Known("MySQL"),
			EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
			InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), PreventRestart: guard, Parameters: p}})
	}
	facts := &ParameterFacts{Template: tmpl}
	restarting := DesiredParameters{Set: true, Values: map[string]string{}, UnknownValues: map[string]bool{"innodb_read_io_threads": true}}
	online := DesiredParameters{Set: true, Values: map[string]string{}, UnknownValues: map[string]bool{"innodb_io_capacity": true}}
	for name, d := range map[string]Decision{
		"restart parameter":  plan(true, restarting, facts),
		"whole map":          plan(true, DesiredParameters{Set: true, Unknown: true}, facts),
		"template not known": plan(true, DesiredParameters{Set: true, Values: map[string]string{"innodb_io_capacity": "300"}}, nil),
	} {
		if e := d.Errors(); len(e) != 1 || e[0].Rule != RuleMayRestartRefused || d.Guard != GuardPreventRestart {
			t.Errorf("%s: %+v", name, d.Problems)
		}
	}
	if d := plan(true, restarting, facts); !strings.Contains(d.Errors()[0].Detail, "innodb_read_io_threads") {
		t.Errorf("the refusal does not name the parameter: %s", d.Errors()[0].Detail)
	}
	if d := plan(true, online, facts); d.HasErrors() || len(d.MayRestart) != 0 {
		t.Errorf("an online parameter known only at apply: %+v", d)
	}
	if d := plan(false, restarting, facts); d.HasErrors() || len(d.MayRestart) != 1 || d.Warnings()[0].Rule != RuleMayRestart {
		t.Errorf("without prevent_restart the possible restart is a warning: %+v", d)
	}
}

// Issue 23 item 12: no advice that is itself refused, and a permanent loss says so.
func TestPlanAdviceIsNeverItselfRefused(t *testing.T) {
	bought2024 := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	yitian := ExistingInstance{ID: "rm-y", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2m.medium.2c", Storage: 20, Supported: true, Enabled: true, Status: StatusRunning, CreationTime: bought2024}
	toX86 := func(flag Val[bool]) Desired {
		return Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
			InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), AtomicWrite: flag}
	}
	d := Plan(PlanInput{Label: "rm-y", Prior: &yitian, Desired: toX86(Null[bool]())})
	if w := d.Warnings(); len(w) == 0 || w[0].Rule != Rule16KTurnedOffChange || !strings.Contains(w[0].Detail, "The loss is permanent") {
		t.Errorf("a pre-2025 YiTian instance moved to x86: %+v", w)
	}
	moved := yitian
	moved.Supported, moved.Enabled = false, false
	d = Plan(PlanInput{Label: "rm-y", Prior: &moved, Desired: toX86(Known(true))})
	if e := d.Errors(); len(e) == 0 || e[0].Rule != Rule16KProductType || strings.Contains(e[0].Detail, "same architecture") {
		t.Errorf("an instance whose product type already changed is told to keep its architecture: %+v", e)
	}

	primary := ExistingInstance{ID: "rm-p", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Storage: 100, Enabled: true, Status: StatusRunning}
	ro := ExistingInstance{ID: "rr-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", InstanceClass: "mysqlro.n2.medium.1c",
		Storage: 100, Supported: true, Enabled: true, MasterID: "rm-p", Status: StatusRunning}
	roDesired := func(storageType string, flag Val[bool]) Desired {
		return Desired{EngineVersion: Known("8.0"), StorageType: Known(storageType), InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100)), AtomicWrite: flag}
	}
	// A storage type without 16K atomic write under a primary that has it on: neither "set it to
	// true" nor "set atomic_write_16k = false" would be accepted.
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: roDesired("cloud_ssd", Null[bool]()), Facts: Facts{Primary: &primary}})
	if e := d.Errors(); len(e) != 1 || e[0].Rule != Rule16KReadOnlyOff || strings.Contains(e[0].Detail, "set it to true") {
		t.Errorf("read-only instance made ineligible under a primary with 16K on: %+v", d.Problems)
	}
	for _, p := range d.Problems {
		if strings.Contains(p.Detail, "set atomic_write_16k = false") {
			t.Errorf("advice refused by rule 7: %+v", p)
		}
	}
	// The primary turns off in its window, not in this apply: both cannot change in one apply.
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: roDesired("cloud_essd", Known(false)),
		Facts: Facts{Primary: &primary, PrimaryScheduled: &ScheduledFlag{On: false, StartsAt: "2026-12-02T02:00:00Z"}}})
	if e := d.Errors(); len(e) != 1 || strings.Contains(e[0].Detail, "both can change in one apply") || !strings.Contains(e[0].Detail, "maintenance window") {
		t.Errorf("primary deferring its toggle off: %+v", d.Problems)
	}
	d = Plan(PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: &ro, Desired: roDesired("cloud_essd", Known(false)), Facts: Facts{Primary: &primary}})
	if e := d.Errors(); len(e) != 1 || !strings.Contains(e[0].Detail, "both can change in one apply") {
		t.Errorf("primary changing now: %+v", d.Problems)
	}
}

// A read-only instance created beside a primary whose atomic_write_16k is known only at apply: it
// inherits the value the primary has when it is created, so the inherited value is known only at
// apply (sweep seed 63: the plan promised the primary's current false, and the final plan changed it
// to true), and a configured true is a possible restart, not a certain one.
func TestPlanNewReadOnlyBesideUnknownPrimary(t *testing.T) {
	primary := ExistingInstance{ID: "rm-p", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	plan := func(flag Val[bool]) Decision {
		return Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Desired: Desired{InstanceClass: Known("mysqlro.n2.medium.1c"),
			Storage: Known(int64(100)), AtomicWrite: flag}, Facts: Facts{Primary: &primary, PrimaryPlanned: Unknown[bool]()}})
	}
	if d := plan(Null[bool]()); !d.AtomicWrite.IsUnknown() || d.HasErrors() {
		t.Errorf("inherited: atomic_write_16k %v, errors %v; want known only at apply", d.AtomicWrite, d.Errors())
	}
	d := plan(Known(true))
	if !d.AtomicWrite.Is(true) || len(d.Program.Restarts()) != 0 || len(d.MayRestart) != 1 || d.ToggleAfterCreate != nil {
		t.Errorf("set to true: atomic_write_16k %v, restarts %+v, possible %v, toggle %v; want one possible restart",
			d.AtomicWrite, d.Program.Restarts(), d.MayRestart, d.ToggleAfterCreate)
	}
}
