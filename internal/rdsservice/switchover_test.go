package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// A class or storage-type change of an instance with a standby ends with the cloud's switchover:
// its own operation in the program, after the spec order and in the same window, named in the
// plan's restart warning. A Basic instance, a storage growth alone and a read-only instance have
// none.
func TestProgramShowsTheSwitchover(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	switchovers := func(category string, role Role, edit func(*Desired)) (ops []Operation, d Decision) {
		prior := programPrior()
		prior.Category = category
		desired := programDesired()
		edit(&desired)
		d = Plan(PlanInput{Role: role, Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
		for i, op := range d.Program.Operations {
			if op.Effect == EffectSwitchover {
				if op.Action != OpSwitchover || i == 0 || d.Program.Operations[i-1].Action != OpModifySpec || d.Program.Operations[i-1].When != op.When {
					t.Fatalf("%s: switchover %+v not right after its spec order: %+v", category, op, stepsOf(d.Program))
				}
				ops = append(ops, op)
			}
		}
		return ops, d
	}
	bigger := func(d *Desired) { d.InstanceClass = Known("mysql.n2.large.2c") }
	ops, d := switchovers("HighAvailability", RolePrimary, bigger)
	if len(ops) != 1 || ops[0].When != WhenNow {
		t.Fatalf("HA class change: switchovers %+v", ops)
	}
	if ws := d.Warnings(); len(ws) != 1 || !strings.Contains(ws[0].Detail, "switchover") {
		t.Fatalf("HA class change: warnings %v, want the switchover named", ws)
	}
	deferred := func(d *Desired) { bigger(d); d.ApplyRestarts = ApplyRestartsInWindow }
	if ops, _ := switchovers("HighAvailability", RolePrimary, deferred); len(ops) != 1 || ops[0].When != WhenInWindow {
		t.Fatalf("deferred HA class change: switchovers %+v, want one in the window", ops)
	}
	if ops, _ := switchovers("Basic", RolePrimary, bigger); len(ops) != 0 {
		t.Fatalf("Basic: switchovers %+v, want none", ops)
	}
	if ops, _ := switchovers("HighAvailability", RolePrimary, func(d *Desired) { d.Storage = Known(int64(40)) }); len(ops) != 0 {
		t.Fatalf("storage growth: switchovers %+v, want none", ops)
	}
}
