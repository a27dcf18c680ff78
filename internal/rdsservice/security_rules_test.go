package rdsservice

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func securityPrior(version, category string) (ExistingInstance, Desired) {
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: version, StorageType: "cloud_essd", Category: category,
		InstanceClass: "mysql.n2.medium.2c", Storage: 20, Supported: true, Status: StatusRunning}
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known(version), StorageType: Known("cloud_essd"), Category: Known(category),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(20)), ApplyRestarts: ApplyRestartsImmediately, MaintenanceWindow: Known("02:00Z-03:00Z")}
	return prior, desired
}

func securityOps(p Program) []Operation {
	var out []Operation
	for _, op := range p.Operations {
		if op.Action == OpModifySSL || op.Action == OpModifyTDE {
			out = append(out, op)
		}
	}
	return out
}

func ruleIDs(ps []Problem) []RuleID {
	var out []RuleID
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return out
}

// Enabling SSL on an HA instance is one named restart with a switchover, from the program; prevent_restart refuses it.
func TestPlanSSLNamesItsRestart(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	desired.Security.SSL = Known(true)
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}}
	d := Plan(in)
	ops := securityOps(d.Program)
	if d.HasErrors() || d.Action != ActionUpdateWithRestart || len(ops) != 1 || ops[0].Effect != EffectSwitchover || ops[0].Restart == nil || ops[0].When != WhenNow || !*ops[0].Flag {
		t.Fatalf("plan: %+v ops %+v", d.Problems, ops)
	}
	w := d.Warnings()
	if len(w) != 1 || w[0].Rule != RuleRestart || w[0].Attribute != AttrSSLEnabled ||
		!strings.Contains(w[0].Detail, "ssl_enabled changes from false to true (with a switchover to the standby)") {
		t.Fatalf("warning: %+v", w)
	}
	in.Desired.PreventRestart = true
	if d := Plan(in); d.Guard != GuardPreventRestart || len(d.Errors()) != 1 || d.Errors()[0].Rule != RuleRestartRefused {
		t.Fatalf("prevent_restart: %+v", d.Problems)
	}
	in.Desired.PreventRestart = false
	in.Facts.Security.SSL = true
	if d := Plan(in); len(securityOps(d.Program)) != 0 || len(d.Problems) != 0 || d.Action != ActionNoop {
		t.Fatalf("unchanged: %+v %+v", d.Problems, d.Program)
	}
	in.Desired.Security.SSL = Known(false)
	if d := Plan(in); len(securityOps(d.Program)) != 1 || *securityOps(d.Program)[0].Flag || len(d.Warnings()) != 1 {
		t.Fatalf("disable: %+v", d.Problems)
	}
	basic := in
	basic.Prior = &ExistingInstance{ID: "rm-2", Engine: "MySQL", EngineVersion: "8.0", Category: "Basic", Status: StatusRunning}
	basic.Desired.Security.SSL = Known(true)
	basic.Facts.Security.SSL = false
	if ops := securityOps(Plan(basic).Program); len(ops) != 1 || ops[0].Effect != EffectRestart {
		t.Fatalf("Basic edition: a restart without switchover: %+v", ops)
	}
}

// With a class change deferred to the window, SSL still goes now (ModifyDBInstanceSSL has no
// EffectiveTime), and the plan says so.
func TestPlanSSLIsNotDeferred(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	desired.InstanceClass = Known("mysql.n2.large.2c")
	desired.ApplyRestarts = ApplyRestartsInWindow
	desired.Security.SSL = Known(true)
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}})
	if !d.Deferred || d.HasErrors() {
		t.Fatalf("plan: %+v", d.Problems)
	}
	if ops := securityOps(d.Program); len(ops) != 1 || ops[0].When != WhenNow {
		t.Fatalf("ssl op: %+v", ops)
	}
	rules := ruleIDs(d.Warnings())
	if len(rules) != 2 || rules[0] != RuleSSLNotDeferred || rules[1] != RuleRestart {
		t.Fatalf("warnings %v", rules)
	}
	restarts := d.Program.Restarts()
	if len(restarts) != 2 || restarts[0].When != "" || restarts[1].When == "" {
		t.Fatalf("restarts: %+v", restarts)
	}
}

func TestPlanSecurityRules(t *testing.T) {
	for _, c := range []struct {
		name, version, category string
		ssl, tde                Val[bool]
		tdeNow                  bool
		want                    []RuleID
	}{
		{"TDE off is refused", "8.0", "HighAvailability", Null[bool](), Known(false), true, []RuleID{RuleTDEOneWay}},
		{"TDE on Basic", "8.0", "Basic", Null[bool](), Known(true), false, []RuleID{RuleTDEEdition}},
		{"TDE on MySQL 5.5", "5.5", "HighAvailability", Null[bool](), Known(true), false, []RuleID{RuleTDEVersion}},
		{"TDE on a Cluster 5.7", "5.7", "cluster", Null[bool](), Known(true), false, nil},
		{"SSL on 5.6 Basic", "5.6", "Basic", Known(true), Null[bool](), false, []RuleID{RuleSSLEdition}},
		{"SSL on 5.7 Basic", "5.7", "Basic", Known(true), Null[bool](), false, nil},
		{"TDE not managed", "8.0", "HighAvailability", Null[bool](), Null[bool](), true, nil},
	} {
		prior, desired := securityPrior(c.version, c.category)
		desired.Security = DesiredSecurity{SSL: c.ssl, TDE: c.tde}
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Security: SecurityFacts{TDE: c.tdeNow}}})
		got := ruleIDs(d.Errors())
		if len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) {
			t.Errorf("%s: errors %v, want %v", c.name, got, c.want)
		}
	}
}

// A new instance gets SSL and TDE right after creation: two named restarts, TDE with the key.
func TestPlanSecurityAfterCreate(t *testing.T) {
	_, desired := securityPrior("8.0", "HighAvailability")
	desired.Security = DesiredSecurity{SSL: Known(true), TDE: Known(true), TDEKey: "key-1", TDERole: "acs:ram::1:role/r"}
	d := Plan(PlanInput{Label: "the new instance", Desired: desired})
	ops := securityOps(d.Program)
	if d.HasErrors() || len(ops) != 2 || ops[0].Action != OpModifySSL || ops[1].Action != OpModifyTDE || ops[1].When != WhenAfterCreate {
		t.Fatalf("ops %+v problems %+v", ops, d.Problems)
	}
	if d.Program.Operations[0].Action != OpCreate || len(d.Program.Restarts()) != 2 {
		t.Fatalf("program %+v", d.Program)
	}
	desired.Security.SSL = Known(false)
	if ops := securityOps(Plan(PlanInput{Label: "new", Desired: desired}).Program); len(ops) != 1 || ops[0].Action != OpModifyTDE {
		t.Fatalf("ssl_enabled = false on a new instance sends nothing: %+v", ops)
	}
}

// The key TDE was turned on with is not changed afterwards: a different one is a plan error.
func TestPlanTDEKeyIsFixed(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	desired.Security = DesiredSecurity{TDE: Known(true), TDEKey: "key-2"}
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Security: SecurityFacts{TDE: true, TDEKey: "key-1"}}}
	if got := ruleIDs(Plan(in).Errors()); len(got) != 1 || got[0] != RuleTDEKeyFixed {
		t.Fatalf("errors %v", got)
	}
	in.Facts.Security.TDEKey = "" // imported: the key is not known, so the configured one is recorded
	if d := Plan(in); len(d.Problems) != 0 || len(securityOps(d.Program)) != 0 {
		t.Fatalf("unknown key: %+v", d.Problems)
	}
}

// A locked instance takes no SSL change: the plan warns of the lock (the cloud refuses the write).
func TestPlanSSLOnALockedInstanceWarns(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	prior.LockMode = "LockByDiskQuota"
	desired.Storage = Known(int64(40))
	desired.Security.SSL = Known(true)
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired})
	if !slices.Contains(ruleIDs(d.Problems), RuleInstanceLocked) {
		t.Fatalf("no lock warning for a storage growth with SSL on a disk-quota lock: %v", ruleIDs(d.Problems))
	}
}

// A value waiting for a restart is applied by the SSL restart: the restart says so, and
// parameters_pending after the apply no longer holds it, also when other parameters wait for the window.
func TestPlanSSLRestartAppliesPendingParameters(t *testing.T) {
	prior, desired := securityPrior("8.0", "HighAvailability")
	desired.Security.SSL = Known(true)
	desired.Parameters = DesiredParameters{Set: true, Values: map[string]string{}, Recorded: true}
	facts := &ParameterFacts{Running: map[string]string{"innodb_open_files": "2000"}, Pending: map[string]string{"innodb_open_files": "4000"}}
	for _, window := range []string{ApplyRestartsImmediately, ApplyRestartsInWindow} {
		desired.ApplyRestarts = window
		d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Parameters: facts}})
		restarts := d.Program.Restarts()
		if len(restarts) != 1 || !strings.Contains(strings.Join(restarts[0].Reasons, "; "), "innodb_open_files") {
			t.Fatalf("%s: restarts %+v", window, restarts)
		}
		if _, left := d.Parameters.Pending["innodb_open_files"]; left || !d.Parameters.PendingKnown {
			t.Fatalf("%s: parameters_pending after the apply %v (known %t)", window, d.Parameters.Pending, d.Parameters.PendingKnown)
		}
	}
}

func TestCheckSecurityConfig(t *testing.T) {
	if p := CheckSecurityConfig(Null[bool](), Known("key-1"), Null[string]()); len(p) != 1 || p[0].Rule != RuleTDEKeyAlone || p[0].Attribute != AttrTDEKey {
		t.Fatalf("key without TDE: %+v", p)
	}
	if p := CheckSecurityConfig(Known(false), Null[string](), Known("acs:ram::1:role/r")); len(p) != 1 || p[0].Attribute != "tde_role_arn" {
		t.Fatalf("role without TDE: %+v", p)
	}
	if p := CheckSecurityConfig(Known(true), Known("key-1"), Known("acs:ram::1:role/r")); len(p) != 0 {
		t.Fatalf("key with TDE: %+v", p)
	}
}
