package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// statesResources is instanceConfig at the protocol with extra attributes (and a one-minute
// update timeout withTimeout), and the account app_user when account is not nil (account holds
// its extra attributes).
func statesResources(withTimeout bool, extra, account map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 20, "instance_name": "acctest"}
	if withTimeout {
		attrs["timeouts"] = map[string]any{"update": "1m"}
	}
	for k, v := range extra {
		attrs[k] = v
	}
	order := []oracleResource{{addr: testRes, attrs: attrs}}
	if account == nil {
		return order
	}
	app := map[string]any{"instance_id": oracleRef{testRes, "id"}, "name": "app_user", "password": "First-pass1"}
	for k, v := range account {
		app[k] = v
	}
	return append(order, oracleResource{addr: "rds_account.app", attrs: app})
}

// The apply stops at once on a Stopped instance (no retry until timeouts.update: the world's clock
// does not reach it), sends nothing to a Deleting one (the plan refuses), and rds_account on a
// Stopped instance does not hang either. The plan warns of the Stopped instance before each
// failing apply. The steps and checks of a terraform test, played at the plugin protocol (the
// family keeps TestAccInstanceStates_accessDestroyOnDeletingInstance with terraform).
func TestInstanceStates_applyFailsFast(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, accessSimOptions())
	var id string
	setTo := func(st simulator.InstanceState) {
		setState(t, env, id, st)
		env.sim.ResetStats()
	}
	stoppedText := regexp.MustCompile(`(?s)is Stopped.*Start it`)
	// failsFast is an ExpectError step whose apply fails at once, its plan warning first.
	failsFast := func(name string, order []oracleResource, addr string, want *regexp.Regexp) {
		t.Helper()
		start := w.clock.Now()
		plan, _ := w.applyFailsWith(t, name, order, want)
		expectWarning(t, name, plan, addr, regexp.MustCompile(`RDS instance `+id+`( \(acctest\))? is Stopped: .*Start it`))
		if waited := w.clock.Now().Sub(start); waited >= time.Minute {
			t.Errorf("%s: the apply waited %s on a Stopped instance, want it to fail at once", name, waited)
		}
	}
	w.checkedStep(t, "create", statesResources(true, nil, nil), &id)
	setTo(simulator.InstanceState{Status: "Stopped"})
	failsFast("flag while stopped", statesResources(true, map[string]any{"atomic_write_16k": false}, nil), testRes, stoppedText)
	if n := env.requests("ModifyDBInstanceSpec"); n != 0 {
		t.Errorf("flag while stopped: %d ModifyDBInstanceSpec requests to a Stopped instance, want 0", n)
	}
	env.sim.ResetStats()
	failsFast("security_ips while stopped", statesResources(true, map[string]any{"security_ips": []string{"10.1.1.1"}}, nil), testRes, stoppedText)
	// One attempt each, no polling: the IPs one call.
	if st := env.sim.Stats().Requests; st["ModifyDBInstanceSpec"] != 0 || st["ModifySecurityIps"] != 1 {
		t.Errorf("writes to a Stopped instance: %v, want one ModifySecurityIps and no ModifyDBInstanceSpec", st)
	}
	setState(t, env, id, simulator.InstanceState{Status: "Running"})
	w.checkedStep(t, "account", statesResources(false, nil, map[string]any{}), &id)
	if s, l := w.stateAttr(t, testRes, "status"), w.stateAttr(t, testRes, "lock_mode"); s != "Running" || l != "Unlock" {
		t.Errorf("account: status %q, lock_mode %q, want Running and Unlock", s, l)
	}
	setTo(simulator.InstanceState{Status: "Stopped"})
	failsFast("account while stopped", statesResources(false, nil, map[string]any{"description": "changed while stopped",
		"timeouts": map[string]any{"update": "1m"}}), "rds_account.app", regexp.MustCompile(`is Stopped`))
	if n := env.requests("ModifyAccountDescription"); n != 1 {
		t.Errorf("%d ModifyAccountDescription calls on a Stopped instance, want 1", n)
	}
	setTo(simulator.InstanceState{Status: "Deleting", ForMS: 600000})
	expectErrorText(t, "deleting", w.planErrorOf(t, statesResources(true, map[string]any{"deletion_protection": true}, nil)),
		regexp.MustCompile(`(?s)is being deleted.*terraform state rm`))
	if n := env.mutations(); n != 0 {
		t.Errorf("%d writes after a refused plan", n)
	}
	setState(t, env, id, simulator.InstanceState{Status: "Running"})
	w.checkedStep(t, "running again", statesResources(false, nil, nil), &id)
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}
