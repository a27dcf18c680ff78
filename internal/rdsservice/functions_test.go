package rdsservice

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// TestEmbeddedTemplatesAreTheSimulatorsTemplates: the templates compiled into the provider are
// DescribeParameterTemplates answers; RDS_UPDATE_TEMPLATES=1 records them again.
func TestEmbeddedTemplatesAreTheSimulatorsTemplates(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	for _, version := range []string{"5.7", "8.0"} {
		answer, err := e.api.DescribeParameterTemplates(context.Background(), &rdsapi.DescribeParameterTemplatesRequest{Engine: "MySQL", EngineVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("RDS_UPDATE_TEMPLATES") == "1" {
			answer.RequestID = ""
			raw, _ := json.MarshalIndent(answer, "", " ")
			if err := os.WriteFile("templates/mysql-"+version+".json", append(raw, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		embedded, ok := EmbeddedTemplate(version)
		if want := TemplateFromAPI("MySQL", version, answer); !ok || !reflect.DeepEqual(embedded, want) {
			t.Errorf("embedded template %s differs from the simulator's (run with RDS_UPDATE_TEMPLATES=1): %d vs %d parameters",
				version, len(embedded.Parameters), len(want.Parameters))
		}
	}
	if got := EmbeddedTemplateVersions(); !slices.Equal(got, []string{"5.7", "8.0"}) {
		t.Errorf("embedded versions %v", got)
	}
}

// atomicWriteErrors is the 16K part of a decision's errors, as the plan shows it.
func atomicWriteErrors(d Decision) string {
	var problems []Problem
	for _, p := range d.Errors() {
		if strings.HasPrefix(string(p.Rule), "16k-") {
			problems = append(problems, p)
		}
	}
	return ProblemText(problems)
}

func atomicWriteInputs() []AtomicWriteFacts {
	var out []AtomicWriteFacts
	for _, engine := range []string{"MySQL", "PostgreSQL"} {
		for _, version := range []string{"5.6", "5.7", "8.0", "8.4"} {
			for _, storage := range []string{"local_ssd", "cloud_ssd", "cloud_essd", "general_essd"} {
				for _, category := range []string{"Basic", "HighAvailability", "cluster"} {
					for _, class := range []string{"mysql.n2.medium.2c", "mysql.n2m.medium.2c"} {
						for _, bought := range []time.Time{{}, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)} {
							out = append(out, AtomicWriteFacts{Engine: engine, EngineVersion: version, StorageType: storage, Category: category, InstanceClass: class, Purchase: bought})
						}
					}
				}
			}
		}
	}
	return out
}

// TestAtomicWriteFunctionAgreesWithThePlanner runs atomic_write_16k and the planner over the same
// inputs: a new instance planned with the flag unset and set to true, and an existing one bought
// on the date, planted in the simulator, read back and planned with the flag turned on.
func TestAtomicWriteFunctionAgreesWithThePlanner(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	compared := map[bool]int{}
	for _, f := range atomicWriteInputs() {
		got := AtomicWrite16K(f)
		desired := Desired{Engine: Known(f.Engine), EngineVersion: Known(f.EngineVersion), StorageType: Known(f.StorageType),
			Category: Known(f.Category), InstanceClass: Known(f.InstanceClass), Storage: Known(int64(100)), ApplyRestarts: ApplyRestartsImmediately}
		name := fmt.Sprintf("%+v", f)
		if f.Purchase.IsZero() {
			unset := Plan(PlanInput{Role: RolePrimary, Label: "new", Desired: desired})
			desired.AtomicWrite = Known(true)
			if want := atomicWriteErrors(Plan(PlanInput{Role: RolePrimary, Label: "new", Desired: desired})); got.Reason != want ||
				!unset.AtomicWrite.Is(got.Default) || !unset.AtomicWriteSupported.Is(got.Supported) {
				t.Errorf("%s: function %+v, plan: default %v supported %v reason %q", name, got, unset.AtomicWrite, unset.AtomicWriteSupported, want)
			}
			compared[false]++
			continue
		}
		id, err := e.sim.AddInstance(simulator.SeedInstance{Engine: f.Engine, EngineVersion: f.EngineVersion, DBInstanceClass: f.InstanceClass,
			Storage: 100, StorageType: f.StorageType, Category: f.Category, PurchaseTime: f.Purchase})
		if err != nil {
			continue // a combination the cloud never shows
		}
		attr, err := e.api.DescribeDBInstanceAttribute(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		prior, err := ExistingFromAttribute(attr)
		if err != nil {
			t.Fatal(err)
		}
		desired.AtomicWrite = Known(true)
		d := Plan(PlanInput{Role: RolePrimary, Label: id, Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}})
		label := fmt.Sprintf("(%s bought %s)", f.InstanceClass, f.Purchase.Format("2006-01-02"))
		if want := strings.ReplaceAll(atomicWriteErrors(d), id, label); got.Reason != want || got.Supported != prior.Supported {
			t.Errorf("%s: function %+v, cloud supported %t, plan reason %q", name, got, prior.Supported, want)
		}
		compared[true]++
	}
	if compared[false] < 190 || compared[true] < 100 {
		t.Fatalf("compared %d new and %d existing instances, want 190 and 100 or more", compared[false], compared[true])
	}
}

// TestInstanceClassFunctionAgreesWithTheCatalogueAndThePlanner: every class ListClasses lists
// parses to its CPU, memory and architecture, and the planner plans the same architecture.
func TestInstanceClassFunctionAgreesWithTheCatalogueAndThePlanner(t *testing.T) {
	e := newMatrixEnvWith(t, simulator.Options{})
	var c Catalogue
	details, err := c.Details(context.Background(), e.api, simulator.DefaultRegion)
	if err != nil || len(details) < 15 {
		t.Fatalf("%d details, %v", len(details), err)
	}
	for name, want := range details {
		got, problems := ParseInstanceClass(name)
		d := Plan(PlanInput{Role: RolePrimary, Label: "new", Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"),
			StorageType: Known("cloud_essd"), Category: Known("HighAvailability"), InstanceClass: Known(name), Storage: Known(int64(100))}})
		if len(problems) > 0 || got.CPU != want.CPU || float64(got.MemoryGiB) != want.MemoryGiB || got.Architecture != want.Architecture ||
			!d.Architecture.Is(got.Architecture) || got.Edition == "" {
			t.Errorf("%s: function %+v %v, catalogue %+v, plan architecture %v", name, got, problems, want, d.Architecture)
		}
	}
	for _, bad := range []string{"mysql.n2", "mysql.n2.medium.1c", "mysqlro.n2.medium.2c", "oracle.n2.medium.2c", ""} {
		if _, problems := ParseInstanceClass(bad); len(problems) != 1 || problems[0].Rule != RuleClassNameShape {
			t.Errorf("%q: %v", bad, problems)
		}
	}
}

// TestMaintenanceWindowFunctionAgreesWithThePlanner: every whole-hour and half-hour local window
// in several zones converts to a window the plan accepts that maps back to the local one, and a
// window the plan refuses is refused with the plan's message.
func TestMaintenanceWindowFunctionAgreesWithThePlanner(t *testing.T) {
	zones := map[string]int{"UTC": 0, "+08:00": 480, "UTC-5": -300, "+05:30": 330, "Asia/Shanghai": 480, "Asia/Kolkata": 330}
	compared := 0
	for zone, offset := range zones {
		for start := 0; start < 24*60; start += 30 {
			for _, length := range []int{0, 60, 240} {
				end := (start + length) % (24 * 60)
				local := fmt.Sprintf("%02d:%02d-%02d:%02d", start/60, start%60, end/60, end%60)
				got, problems := MaintenanceWindowUTC(local, zone)
				utcStart, utcEnd := ((start-offset)%1440+1440)%1440, ((end-offset)%1440+1440)%1440
				want := fmt.Sprintf("%02d:%02dZ-%02d:%02dZ", utcStart/60, utcStart%60, utcEnd/60, utcEnd%60)
				if planned := CheckMaintenanceWindow(Known(want)); !reflect.DeepEqual(problems, planned) || (len(planned) == 0 && got != want) {
					t.Errorf("%s in %s: function %q %v, plan of %q: %v", local, zone, got, problems, want, planned)
				}
				compared++
			}
		}
	}
	if compared < 800 {
		t.Fatalf("compared %d windows", compared)
	}
	for _, zone := range []string{"Europe/Berlin", "America/New_York", "Mars/Olympus", "", "Local"} {
		if _, problems := MaintenanceWindowUTC("02:00-03:00", zone); len(problems) != 1 || problems[0].Rule != RuleTimeZone {
			t.Errorf("%q: %v", zone, problems)
		}
	}
	if _, problems := MaintenanceWindowUTC("2:00-03:00", "UTC"); len(problems) != 1 || problems[0].Rule != RuleMaintenanceWindowFormat {
		t.Errorf("malformed window: %v", problems)
	}
}

// TestParameterRestartsFunctionAgreesWithThePlanner: for every name of each embedded template and
// a few the template lacks, the function says what the planner's parameter plan decides.
func TestParameterRestartsFunctionAgreesWithThePlanner(t *testing.T) {
	compared, restarting := 0, 0
	for _, version := range EmbeddedTemplateVersions() {
		tmpl, _ := EmbeddedTemplate(version)
		for _, name := range append(tmpl.Names(), "innodb_buffer_pool_sise", "no_such_parameter") {
			got, problems := ParameterRestarts(name, version)
			want := map[string]string{name: otherValue(tmpl.Parameters[name])}
			planned := PlanParameters(want, map[string]string{}, nil, tmpl)
			refused := ProblemText(CheckParameters(map[string]string{name: tmpl.Parameters[name].Default}, nil, tmpl, Unknown[bool]()))
			if ProblemText(problems) != refused || (refused == "" && got != planned.NeedsRestart()) {
				t.Errorf("%s %s: function %t %v, plan restarts %t, refuses %q", version, name, got, problems, planned.NeedsRestart(), refused)
			}
			compared++
			if got {
				restarting++
			}
		}
	}
	if compared < 40 || restarting == 0 {
		t.Fatalf("compared %d names, %d restarting", compared, restarting)
	}
	if _, problems := ParameterRestarts("sync_binlog", "5.6"); len(problems) != 1 || problems[0].Rule != RuleParamTemplateVersion {
		t.Errorf("5.6: %v", problems)
	}
}

// otherValue is an allowed value other than the default, so that the plan sends a change.
func otherValue(spec ParameterSpec) string {
	if set, ok := allowedSet(spec.Allowed); ok {
		for _, v := range set {
			if !SameParameterValue(spec, v, spec.Default) {
				return v
			}
		}
	}
	if lo, _, ok := allowedRange(spec.Allowed); ok && lo != nil && lo.RatString() != spec.Default {
		return lo.RatString()
	}
	return "{DBInstanceClassMemory*1/2}"
}

func TestAtomicWriteFunctionForExistingInstances(t *testing.T) {
	old, recent := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	base := AtomicWriteFacts{Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability", InstanceClass: "mysql.n2.medium.2c"}
	for _, c := range []struct {
		class, category string
		bought          time.Time
		supported, dflt bool
		reason          string
	}{
		{"mysql.n2.medium.2c", "HighAvailability", old, false, false, "atomic_write_16k_supported is false for instance (mysql.n2.medium.2c bought 2024-06-01)"},
		{"mysql.n2m.medium.2c", "HighAvailability", old, true, false, ""},
		{"mysql.n2.medium.2c", "HighAvailability", recent, true, true, ""},
		{"mysql.n2.medium.1", "Basic", recent, true, true, "needs category HighAvailability or cluster; got \"Basic\""},
	} {
		f := base
		f.InstanceClass, f.Category, f.Purchase = c.class, c.category, c.bought
		got := AtomicWrite16K(f)
		if got.Supported != c.supported || got.Default != c.dflt || (c.reason == "") != (got.Reason == "") || !strings.Contains(got.Reason, c.reason) {
			t.Errorf("%s %s bought %s: %+v", c.class, c.category, c.bought.Format("2006-01-02"), got)
		}
	}
}
