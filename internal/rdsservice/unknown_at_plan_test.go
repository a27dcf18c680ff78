package rdsservice

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Issue 39 §3: a restart that depends on a value known only at apply is named as possible, and
// prevent_restart refuses it at plan as it refuses a certain one, pointed at the attribute.

func cloneInput(src *ExistingInstance, class Val[string], flag, bpe Val[bool], guard bool) PlanInput {
	return PlanInput{Role: RoleClone, Label: "the new instance", Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"),
		InstanceClass: class, StorageType: Known("cloud_essd"), Category: Known("HighAvailability"), Storage: Known(int64(20)),
		AtomicWrite: flag, BufferPoolExtension: bpe, PreventRestart: guard},
		Facts: Facts{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Source: src}}
}

func TestPlanCloneRestartsKnownOnlyAtApply(t *testing.T) {
	on := ExistingInstance{ID: "rm-src", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Enabled: true, CreationTime: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}
	off := on
	off.Enabled = false
	class := Known("mysql.n2.medium.2c")
	for _, c := range []struct {
		name     string
		in       PlanInput
		possible string // what the possible restart names; "" for none
	}{
		{"source created in the run", cloneInput(nil, class, Known(false), Null[bool](), false), "the restore source's atomic_write_16k"},
		{"source created in the run, flag inherited", cloneInput(nil, class, Null[bool](), Null[bool](), false), ""},
		{"class known at apply, source on", cloneInput(&on, Unknown[string](), Known(false), Null[bool](), false), "instance_type and storage_type (whether the clone keeps rm-src's"},
		{"class known at apply, source off, false asked", cloneInput(&off, Unknown[string](), Known(false), Null[bool](), false), ""},
		{"flag known at apply", cloneInput(&on, class, Unknown[bool](), Null[bool](), false), "atomic_write_16k (toggled right after creation when it differs from the value inherited from rm-src)"},
	} {
		d := Plan(c.in)
		got := strings.Join(d.MayRestart, "; ")
		if d.HasErrors() || (c.possible == "") != (got == "") || !strings.Contains(got, c.possible) {
			t.Errorf("%s: possible restart %q, want one naming %q (problems %+v)", c.name, got, c.possible, d.Problems)
		}
		if c.possible == "" {
			continue
		}
		if w := d.Warnings(); len(w) != 1 || w[0].Rule != RuleMayRestart || w[0].Attribute != AttrAtomicWrite {
			t.Errorf("%s: warnings %+v, want the possible restart at atomic_write_16k", c.name, w)
		}
		c.in.Desired.PreventRestart = true
		if d := Plan(c.in); len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleMayRestartRefusedUnknown || d.Guard != GuardPreventRestart ||
			!strings.Contains(d.Errors()[0].Detail, c.possible) {
			t.Errorf("%s with prevent_restart: %+v, want the possible restart refused", c.name, d.Problems)
		}
	}
	// Buffer Pool Extension is turned on after creation whatever the source: a certain restart.
	bpe := cloneInput(nil, class, Null[bool](), Known(true), false)
	bpe.Desired.StorageType = Known("general_essd")
	d := Plan(bpe)
	if r := d.Program.Restarts(); d.HasErrors() || len(r) != 1 || !strings.Contains(r[0].Reasons[0], "buffer_pool_extension") || len(d.MayRestart) != 0 {
		t.Errorf("buffer_pool_extension on a clone of a source created in the run: restarts %+v, possible %q, problems %+v", r, d.MayRestart, d.Problems)
	}
	bpe.Desired.PreventRestart = true
	if d := Plan(bpe); len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleRestartRefused {
		t.Errorf("buffer_pool_extension with prevent_restart: %+v, want the restart refused", d.Problems)
	}
}

// Item 11: an update whose instance_type is known only at apply, refused under prevent_restart at
// the attribute that may restart the instance.
func TestPlanUpdateUnknownClassWithPreventRestart(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Enabled: true, Status: StatusRunning}
	plan := func(guard bool) Decision {
		return Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"),
			StorageType: Known("cloud_essd"), Category: Known("HighAvailability"), InstanceClass: Unknown[string](), Storage: Known(int64(20)),
			PreventRestart: guard}})
	}
	if d := plan(false); d.HasErrors() || len(d.Warnings()) != 1 || d.Warnings()[0].Rule != RuleMayRestart {
		t.Errorf("without prevent_restart: %+v, want the possible restart as a warning", d.Problems)
	}
	d := plan(true)
	if e := d.Errors(); len(e) != 1 || e[0].Rule != RuleMayRestartRefusedUnknown || e[0].Attribute != AttrInstanceType || d.Guard != GuardPreventRestart ||
		!strings.Contains(e[0].Summary, "it may restart RDS instance rm-1") || !strings.Contains(e[0].Detail, "instance_type") {
		t.Errorf("with prevent_restart: %+v, want the possible restart refused at instance_type", d.Problems)
	}
}

// Item 12: an action on an instance known only at apply reads nothing (the API is nil here) and
// names what it may do, or prevent_restart's refusal; its program stays empty for the invoke.
func TestPlanActionOnInstanceKnownOnlyAtApply(t *testing.T) {
	for _, kind := range []string{OpRestartInstance, OpSwitchDBInstanceHA, OpApplyPendingNow} {
		for _, guard := range []bool{false, true} {
			p, err := PlanAction(context.Background(), nil, ActionRequest{Kind: kind, Name: "rds_x", InstanceUnknown: true, PreventRestart: guard})
			want := map[bool]RuleID{false: RuleActionInstanceUnknown, true: RuleActionInstanceUnknownRefused}[guard]
			if err != nil || p.Problem.Rule != want || p.refused() != guard || len(p.Program.Operations) != 0 {
				t.Errorf("%s, prevent_restart %t: %+v %v, want %s", kind, guard, p, err, want)
			}
		}
	}
	if _, err := PlanAction(context.Background(), nil, ActionRequest{Kind: "nothing", InstanceUnknown: true}); err == nil {
		t.Error("an unknown kind of action is planned")
	}
}

// A prevent_restart known only at apply: a plan that restarts, may restart or replaces the
// instance says the apply may refuse it; a plan that takes nothing out of service says nothing.
func TestPlanPreventRestartKnownOnlyAtApply(t *testing.T) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Enabled: true, Status: StatusRunning}
	plan := func(class Val[string], replace ...string) Decision {
		return Plan(PlanInput{Label: "rm-1", Prior: &prior, Replace: replace, Desired: Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"),
			StorageType: Known("cloud_essd"), Category: Known("HighAvailability"), InstanceClass: class, Storage: Known(int64(20)),
			PreventRestartUnknown: true}})
	}
	for name, c := range map[string]struct {
		d    Decision
		what string
	}{
		"restart":          {plan(Known("mysql.n2.large.2c")), "(a restart)"},
		"possible restart": {plan(Unknown[string]()), "(a possible restart)"},
		"replacement":      {plan(Known("mysql.n2.medium.2c"), AttrEngineVersion), "(a replacement)"},
		"nothing":          {plan(Known("mysql.n2.medium.2c")), ""},
	} {
		var got []Problem
		for _, w := range c.d.Warnings() {
			if w.Rule == RuleRestartGuardUnknown {
				got = append(got, w)
			}
		}
		if c.d.HasErrors() || (c.what == "") != (len(got) == 0) || len(got) > 1 || len(got) == 1 && !strings.Contains(got[0].Detail, c.what) {
			t.Errorf("%s: %+v, want the warning naming %q", name, c.d.Problems, c.what)
		}
	}
}
