package rdsservice

import "testing"

func priorInstance() *ExistingInstance { return &ExistingInstance{ID: "rm-1", Storage: 100} }

func TestPlannedStorageActual(t *testing.T) {
	resize := Decision{Program: Program{Operations: []Operation{{Action: OpModifySpec, Spec: &SpecOrder{Storage: ptrTo[int64](200)}}}}}
	inWindow := Decision{Program: Program{Operations: []Operation{{Action: OpModifySpec, When: WhenInWindow, Spec: &SpecOrder{Storage: ptrTo[int64](200)}}}}}
	prior := ProposedValues{StorageActual: Unknown[int64](), PriorStorageActual: Known[int64](120)}
	autoscale := PlanInput{Prior: priorInstance()}
	autoscale.Desired.AutoScale.Want.Enabled = true
	for _, c := range []struct {
		name string
		in   PlanInput
		p    ProposedValues
		dec  Decision
		want Val[int64]
	}{
		{"proposed known", PlanInput{Prior: priorInstance()}, ProposedValues{StorageActual: Known[int64](7)}, resize, Known[int64](7)},
		{"autoscaling", autoscale, prior, resize, Unknown[int64]()},
		{"create", PlanInput{Desired: Desired{Storage: Known[int64](50)}}, prior, Decision{}, Known[int64](50)},
		{"resize now", PlanInput{Prior: priorInstance()}, prior, resize, Known[int64](200)},
		{"resize in window", PlanInput{Prior: priorInstance()}, prior, inWindow, Known[int64](120)},
		{"storage known only at apply", PlanInput{Prior: priorInstance(), Desired: Desired{Storage: Unknown[int64]()}}, prior, Decision{}, Unknown[int64]()},
	} {
		if got := plannedStorageActual(c.in, c.p, c.dec); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestPlannedLockModeExpireTimeMinor(t *testing.T) {
	if got := PlannedLockMode(Known(LockUnlocked), true); !got.Is(LockUnlocked) {
		t.Errorf("unlocked instance: %+v", got)
	}
	if PlannedLockMode(Known("LockByExpiration"), true).IsKnown() || PlannedLockMode(Known(LockUnlocked), false).IsKnown() {
		t.Error("a lock (or a new instance) is known only at apply")
	}
	prepaid := PlanInput{Prior: priorInstance()}
	prepaid.Desired.Billing = BillingPlan{Set: true, Want: Billing{PayType: PayTypePrepaid}}
	keep := ProposedValues{PriorExpireTime: Known("2027-01-01T00:00:00Z")}
	if !plannedExpireTime(prepaid, keep).IsUnknown() || !plannedExpireTime(PlanInput{}, keep).IsUnknown() {
		t.Error("a change of pay type, or a create, has its expiry known at apply")
	}
	if !plannedExpireTime(PlanInput{Prior: priorInstance()}, ProposedValues{BillingUnknown: true}).IsUnknown() {
		t.Error("billing known at apply: expiry too")
	}
	if got := plannedExpireTime(PlanInput{Prior: priorInstance()}, keep); got != keep.PriorExpireTime {
		t.Errorf("kept expiry: %+v", got)
	}
	target := PlanInput{Desired: Desired{Minor: DesiredMinor{Target: Known("rds_20250101")}}}
	upgrade := Decision{Minor: MinorDecision{Upgrade: &EngineUpgrade{To: "rds_20250101"}}}
	for _, c := range []struct {
		name string
		in   PlanInput
		p    ProposedValues
		dec  Decision
		want Val[string]
	}{
		{"upgrade now", PlanInput{Prior: priorInstance()}, ProposedValues{}, upgrade, Known("rds_20250101")},
		{"upgrade in window", PlanInput{Prior: priorInstance()}, ProposedValues{PriorMinorVersion: Known("rds_2024")}, Decision{Deferred: true, Minor: upgrade.Minor}, Known("rds_2024")},
		{"major upgrade", PlanInput{Prior: priorInstance()}, ProposedValues{}, Decision{Upgrade: &EngineUpgrade{To: "8.0"}}, Unknown[string]()},
		{"create with target", target, ProposedValues{}, Decision{}, Known("rds_20250101")},
		{"clone with target", target, ProposedValues{RestoreFrom: true}, Decision{}, Unknown[string]()},
		{"create", PlanInput{}, ProposedValues{}, Decision{}, Unknown[string]()},
	} {
		if got := plannedMinorVersion(c.in, c.p, c.dec); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// A value of the spec known only at apply leaves scheduled_change unknown: the apply may defer a
// spec change to the window, or send one now that replaces a waiting task (issue 39 §3).
func TestPlanValuesSpecKnownOnlyAtApply(t *testing.T) {
	known := Desired{InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known[int64](100), StorageType: Known("cloud_essd")}
	dec := Decision{AtomicWrite: Known(false), BufferPoolExtension: Known(false)}
	for _, c := range []struct {
		name   string
		change func(c *Desired, d *Decision)
		want   ScheduledChange
	}{
		{"all known", func(*Desired, *Decision) {}, ScheduledKept},
		{"instance_type", func(c *Desired, _ *Decision) { c.InstanceClass = Unknown[string]() }, ScheduledUnknown},
		{"storage", func(c *Desired, _ *Decision) { c.Storage = Unknown[int64]() }, ScheduledUnknown},
		{"atomic_write_16k", func(_ *Desired, d *Decision) { d.AtomicWrite = Unknown[bool]() }, ScheduledUnknown},
	} {
		in, d := PlanInput{Prior: priorInstance(), Desired: known}, dec
		c.change(&in.Desired, &d)
		if got := planValues(in, ProposedValues{StorageActual: Unknown[int64](), PriorStorageActual: Known[int64](100)}, d).ScheduledChange; got != c.want {
			t.Errorf("%s known only at apply: scheduled_change %v, want %v", c.name, got, c.want)
		}
	}
}
