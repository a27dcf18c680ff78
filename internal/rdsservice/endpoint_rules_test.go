package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// endpointsNow are rm-1's endpoints: the internal one at its id, the public one when public is set.
func endpointsNow(public bool) *EndpointFacts {
	f := &EndpointFacts{Internal: &NetEndpoint{ConnectionString: "rm-1.mysql.rds.aliyuncs.com", Port: 3306}}
	if public {
		f.Public = &NetEndpoint{ConnectionString: "orders-pub.mysql.rds.aliyuncs.com", Port: 3306}
	}
	return f
}

func planEndpoints(e EndpointPlan) Decision {
	prior := programPrior()
	desired := programDesired()
	desired.Endpoints = e
	return Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now()}})
}

// The API's limits at plan: 5-40 characters to allocate, 8-64 to change, ports 1000-5999, and the last endpoint
// kept; each refusal names its attribute, and all of them come at once.
func TestEndpointLimitsAtPlan(t *testing.T) {
	cases := []struct {
		name  string
		plan  EndpointPlan
		rules []RuleID
	}{
		{"allocate with 5 characters", EndpointPlan{Public: &Endpoint{"ord-1", 3306}, Current: endpointsNow(false)}, nil},
		{"allocate with 4 characters", EndpointPlan{Public: &Endpoint{"ord1", 3306}, Current: endpointsNow(false)}, []RuleID{RuleEndpointPrefix}},
		{"allocate with 41", EndpointPlan{Public: &Endpoint{strings.Repeat("a", 41), 3306}, Current: endpointsNow(false)}, []RuleID{RuleEndpointPrefix}},
		{"change the public one to 7", EndpointPlan{Public: &Endpoint{"ord-pub", 3306}, Current: endpointsNow(true), PublicManaged: true}, []RuleID{RuleEndpointPrefix}},
		{"internal with 7", EndpointPlan{Internal: Endpoint{Prefix: "orders1"}, Current: endpointsNow(false)}, []RuleID{RuleEndpointPrefix}},
		{"internal with 64", EndpointPlan{Internal: Endpoint{Prefix: strings.Repeat("a", 64)}, Current: endpointsNow(false)}, nil},
		{"internal with a slash", EndpointPlan{Internal: Endpoint{Prefix: "orders/db"}, Current: endpointsNow(false)}, []RuleID{RuleEndpointPrefix}},
		{"ports", EndpointPlan{Internal: Endpoint{Port: 999}, Public: &Endpoint{"orders-pub", 6000}, Current: endpointsNow(false)}, []RuleID{RuleEndpointPort, RuleEndpointPort}},
		{"ports at the limits", EndpointPlan{Internal: Endpoint{Port: 1000}, Public: &Endpoint{"orders-pub", 5999}, Current: endpointsNow(false)}, nil},
		{"taken", EndpointPlan{Internal: Endpoint{Prefix: "Orders-DB-01"}, Current: endpointsNow(false), Taken: map[string]string{"orders-db-01": "rm-2"}}, []RuleID{RuleEndpointTaken}},
		{"taken public", EndpointPlan{Public: &Endpoint{"orders-db-01", 3306}, Current: endpointsNow(false), Taken: map[string]string{"orders-db-01": "rm-2"}}, []RuleID{RuleEndpointTaken}},
		{"the only endpoint", EndpointPlan{PublicManaged: true, Current: &EndpointFacts{Public: endpointsNow(true).Public}}, []RuleID{RuleEndpointLastOne}},
	}
	for _, tc := range cases {
		d := planEndpoints(tc.plan)
		if got := ruleIDs(d.Errors()); strings.Join(ids(got), ",") != strings.Join(ids(tc.rules), ",") {
			t.Errorf("%s: errors %v, want %v", tc.name, got, tc.rules)
		}
	}
}

// endpointOps counts the program's endpoint operations.
func endpointOps(p Program) int {
	n := 0
	for _, op := range p.Operations {
		if op.Endpoint != nil {
			n++
		}
	}
	return n
}

func ids(rules []RuleID) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = string(r)
	}
	return out
}

// Every address that stops answering is a warning naming the old address, the new one and the instance;
// prevent_endpoint_change makes each an error. An unchanged endpoint names nothing and sends nothing.
func TestEndpointChangesAreNamed(t *testing.T) {
	change := EndpointPlan{Internal: Endpoint{Port: 3307}, Public: &Endpoint{"orders-public", 3306}, PublicManaged: true, Current: endpointsNow(true)}
	d := planEndpoints(change)
	warnings := d.Warnings()
	if len(warnings) != 2 || warnings[0].Rule != RuleEndpointStops ||
		!strings.Contains(warnings[0].Summary, "rm-1.mysql.rds.aliyuncs.com:3306 of rm-1 stops answering") ||
		!strings.Contains(warnings[0].Detail, "rm-1.mysql.rds.aliyuncs.com:3307") ||
		!strings.Contains(warnings[1].Detail, "orders-public.mysql.rds.aliyuncs.com:3306") {
		t.Fatalf("warnings %+v", warnings)
	}
	if n := endpointOps(d.Program); n != 2 || findOp(d.Program, OpModifyConnectionString) == nil {
		t.Fatalf("program %v, want the two changes", stepsOf(d.Program))
	}
	change.PreventChange = true
	if got := ruleIDs(planEndpoints(change).Errors()); len(got) != 2 || got[0] != RuleEndpointChangeRefused {
		t.Fatalf("prevent_endpoint_change: errors %v", got)
	}
	release := EndpointPlan{PublicManaged: true, Current: endpointsNow(true)}
	d = planEndpoints(release)
	if w := d.Warnings(); len(w) != 1 || !strings.Contains(w[0].Detail, "no public endpoint") || findOp(d.Program, OpReleasePublic) == nil {
		t.Fatalf("release: warnings %+v, program %v", w, stepsOf(d.Program))
	}
	same := EndpointPlan{Internal: Endpoint{Prefix: "RM-1", Port: 3306}, Public: &Endpoint{"orders-pub", 3306}, PublicManaged: true, Current: endpointsNow(true)}
	if d := planEndpoints(same); len(d.Problems) != 0 || endpointOps(d.Program) != 0 {
		t.Fatalf("unchanged: problems %v, program %v", ruleIDs(d.Problems), stepsOf(d.Program))
	}
	allocate := EndpointPlan{Public: &Endpoint{"orders-pub", 3306}, Current: endpointsNow(false)}
	if d := planEndpoints(allocate); len(d.Problems) != 0 || findOp(d.Program, OpAllocatePublic) == nil {
		t.Fatalf("allocate: problems %v, program %v", ruleIDs(d.Problems), stepsOf(d.Program))
	}
	if _, public, ok := PlannedEndpoints(allocate); !ok || public.Address() != "orders-pub.mysql.rds.aliyuncs.com:3306" {
		t.Fatalf("planned public endpoint %v, %v", public, ok)
	}
}

// An internal endpoint with SSL on changes between SSL off and SSL on again for the new string: two restarts,
// each named and each on its operation; prevent_restart refuses them. With SSL turning on in the same apply, the
// endpoint changes first and SSL restarts once.
func TestEndpointChangeWithSSL(t *testing.T) {
	prior := programPrior()
	desired := programDesired()
	desired.Endpoints = EndpointPlan{Internal: Endpoint{Port: 3307}, Current: endpointsNow(false)}
	in := PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: time.Now(), Security: SecurityFacts{SSL: true}}}
	d := Plan(in)
	var actions []string
	for _, op := range d.Program.Operations {
		if op.Action == OpModifySSL || op.Endpoint != nil {
			actions = append(actions, op.Action)
			if op.Action == OpModifySSL && op.Restart == nil {
				t.Errorf("%s without its restart", op.Action)
			}
		}
	}
	if strings.Join(actions, ",") != "ModifyDBInstanceSSL,ModifyDBInstanceConnectionString,ModifyDBInstanceSSL" || len(d.Restarts) != 2 ||
		len(d.Program.Restarts()) != 2 || !strings.Contains(d.Program.Restarts()[1].Reasons[0], "turned on again for rm-1.mysql.rds.aliyuncs.com:3307") {
		t.Fatalf("program %v, restarts %+v", actions, d.Program.Restarts())
	}
	if indexOf(d.Program, OpModifyConnectionString) > indexOf(d.Program, OpModifySettings) {
		// Sweep seed 4: parameters deferred to the window and sent before the dance were applied by its restarts.
		t.Fatalf("the SSL dance must come before what the update sends: %v", stepsOf(d.Program))
	}
	if !planValues(in, ProposedValues{}, d).SSLReissued {
		t.Fatal("SSL turned off and on again: ssl_expire_time must be planned unknown (a new certificate)")
	}
	// A value waiting for a restart (set outside Terraform) is applied by the dance's restarts, also when a spec
	// change waits for the window: parameters_pending after the apply no longer holds it.
	window := in
	window.Desired.ApplyRestarts, window.Desired.AtomicWrite = ApplyRestartsInWindow, Known(true)
	window.Desired.Parameters = paramDesired(map[string]string{})
	window.Facts.Parameters = planFacts(map[string]string{"innodb_open_files": "2000"}, map[string]string{"innodb_open_files": "4000"})
	if d := Plan(window); !d.Deferred || !d.Parameters.PendingKnown || d.Parameters.Pending["innodb_open_files"] != "" {
		t.Fatalf("deferred %t: parameters_pending after the apply %v (known %t)", d.Deferred, d.Parameters.Pending, d.Parameters.PendingKnown)
	}
	in.Desired.PreventRestart = true
	if !hasRule(Plan(in).Errors(), RuleRestartRefused) {
		t.Fatalf("prevent_restart: %v", ruleIDs(Plan(in).Problems))
	}
	in.Desired.PreventRestart, in.Facts.Security.SSL, in.Desired.Security.SSL = false, false, Known(true)
	d = Plan(in)
	if steps := stepsOf(d.Program); len(d.Program.Restarts()) != 1 || findOp(d.Program, OpModifyConnectionString) == nil ||
		indexOf(d.Program, OpModifyConnectionString) > indexOf(d.Program, OpModifySSL) {
		t.Fatalf("SSL turned on with the change: %v", steps)
	}
	if planValues(in, ProposedValues{}, d).SSLReissued {
		t.Fatal("SSL turned on once: no certificate is reissued around the change")
	}
}

func indexOf(p Program, action string) int {
	for i, op := range p.Operations {
		if op.Action == action {
			return i
		}
	}
	return -1
}
