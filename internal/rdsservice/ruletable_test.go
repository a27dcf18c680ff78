package rdsservice

import (
	"strings"
	"testing"
)

// Every row names its source, an attribute, a summary and a detail, and renders without fmt
// complaints; every id constant has a row.
func TestRuleTableRowsAreComplete(t *testing.T) {
	rows := RuleTable()
	if len(rows) < 30 {
		t.Fatalf("%d rows: the table lost rules", len(rows))
	}
	for _, r := range rows {
		if r.ID == "" || r.Source == "" || r.Attribute == "" || r.Summary == "" || r.Detail == "" || r.Args == "" {
			t.Errorf("incomplete row %+v", r)
		}
		args := make([]any, 8)
		for i := range args {
			args[i] = "x"
		}
		p := r.Problem("v", args...)
		if text := p.Summary + p.Detail; strings.Contains(text, "MISSING") || strings.Contains(text, "BADINDEX") || strings.Contains(text, "EXTRA") {
			t.Errorf("row %s renders badly: %q %q", r.ID, p.Summary, p.Detail)
		}
		if p.Rule != r.ID || p.Severity != r.Severity || p.Attribute != r.Attribute {
			t.Errorf("row %s: problem %+v", r.ID, p)
		}
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
