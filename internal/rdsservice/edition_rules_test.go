package rdsservice

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// editionInput is a Basic-edition MySQL instance asked to become High-availability with an HA class.
func editionInput() PlanInput {
	prior := programPrior()
	prior.Category, prior.InstanceClass, prior.Supported = CategoryBasic, "mysql.n2.medium.1", false
	desired := programDesired()
	desired.Category, desired.InstanceClass = Known(CategoryHighAvailability), Known("mysql.n2.medium.2c")
	return PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}}
}

func TestIsEditionUpgrade(t *testing.T) {
	for _, c := range []struct {
		engine, from, to string
		want             bool
	}{
		{"MySQL", "Basic", "HighAvailability", true}, {"mysql", "basic", "highavailability", true},
		{"MySQL", "HighAvailability", "Basic", false}, {"MySQL", "Basic", "cluster", false}, {"MySQL", "HighAvailability", "cluster", false},
		{"PostgreSQL", "Basic", "HighAvailability", false}, {"MySQL", "Basic", "Basic", false},
	} {
		if got := IsEditionUpgrade(c.engine, c.from, c.to); got != c.want {
			t.Errorf("IsEditionUpgrade(%s, %s, %s) = %t, want %t", c.engine, c.from, c.to, got, c.want)
		}
	}
}

// Basic -> High-availability is one ModifyDBInstanceSpec carrying the HA class and Category: one
// restart, named in the plan with the category change; deferred to the window on request;
// refused by prevent_restart.
func TestEditionUpgradeIsOneSpecOrder(t *testing.T) {
	d := Plan(editionInput())
	if d.HasErrors() || d.Action != ActionUpdateWithRestart || len(d.ReplacedBy) != 0 {
		t.Fatalf("decision %v, replaced by %v, problems %+v", d.Action, d.ReplacedBy, d.Problems)
	}
	if d.Order.Category == nil || *d.Order.Category != CategoryHighAvailability || d.Order.InstanceClass == nil || *d.Order.InstanceClass != "mysql.n2.medium.2c" {
		t.Fatalf("order %+v", d.Order)
	}
	req := d.Order.Request("rm-1")
	if req.Category != CategoryHighAvailability || req.DBInstanceClass != "mysql.n2.medium.2c" || req.EffectiveTime != "Immediate" {
		t.Fatalf("request %+v", req)
	}
	want := []step{{OpModifyMaintainTime, "rm-1", WhenNow, EffectNone}, {OpModifySpec, "rm-1", WhenNow, EffectRestart},
		{OpModifySettings, "rm-1", WhenNow, EffectNone}}
	if got := stepsOf(d.Program); !reflect.DeepEqual(got, want) {
		t.Fatalf("program\n got %+v\nwant %+v", got, want)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestart || !strings.Contains(w[0].Detail, `category changes from "Basic" to "HighAvailability"`) ||
		!strings.Contains(w[0].Detail, "edition upgrade in place") {
		t.Fatalf("warning %+v", w)
	}

	deferred := editionInput()
	deferred.Desired.ApplyRestarts = ApplyRestartsInWindow
	dd := Plan(deferred)
	if dd.HasErrors() || !dd.Deferred || dd.Order.Category == nil {
		t.Fatalf("deferred: %v %+v %+v", dd.Deferred, dd.Order, dd.Problems)
	}
	if dd.Order.Request("rm-1").Category != CategoryHighAvailability {
		t.Fatal("the deferred order carries no Category")
	}
	if !slicesContainWhen(dd.Program, OpModifySpec, WhenInWindow) {
		t.Fatalf("deferred program %+v", stepsOf(dd.Program))
	}

	guarded := editionInput()
	guarded.Desired.PreventRestart = true
	if g := Plan(guarded); !reflect.DeepEqual(rules(g.Errors()), []RuleID{RuleRestartRefused}) {
		t.Fatalf("prevent_restart: %+v", g.Problems)
	}
}

func slicesContainWhen(p Program, action string, when When) bool {
	for _, op := range p.Operations {
		if op.Action == action && op.When == when {
			return true
		}
	}
	return false
}

// The edition rules at plan: the Basic class kept, 16K turned on in the same apply, and a major
// version upgrade in the same apply are refused, each with its fix.
func TestEditionUpgradeRulesAtPlan(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*PlanInput)
		rules  []RuleID
	}{
		{"Basic class kept", func(in *PlanInput) { in.Desired.InstanceClass = Known(in.Prior.InstanceClass) }, []RuleID{RuleEditionUpgradeClass}},
		{"16K turned on with the upgrade", func(in *PlanInput) { in.Prior.Supported, in.Desired.AtomicWrite = true, Known(true) }, []RuleID{RuleEditionUpgrade16K}},
		{"major version upgrade with it", func(in *PlanInput) {
			in.Prior.EngineVersion, in.Desired.EngineVersion = "5.7", Known("8.0")
		}, []RuleID{RuleUpgradeAlone}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := editionInput()
			c.change(&in)
			errs := Plan(in).Errors()
			if got := rules(errs); !reflect.DeepEqual(got, c.rules) {
				t.Fatalf("errors %v, want %v", got, c.rules)
			}
			if c.rules[0] == RuleUpgradeAlone && !strings.Contains(errs[0].Detail, "instance_type, category") {
				t.Fatalf("the other changes are not named: %s", errs[0].Detail)
			}
		})
	}
}
