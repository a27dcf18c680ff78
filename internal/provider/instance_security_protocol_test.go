package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// SSL and TDE on an existing instance: prevent_restart refuses the SSL restart with no write; SSL
// on is one ModifyDBInstanceSSL and one restart, read back with its expiry; TDE on is one
// ModifyDBInstanceTDE (with the key) and one restart; TDE off is refused at plan; nothing drifts;
// SSL off is one more restart. The steps and checks of a terraform test, played at the plugin
// protocol (TestAccInstance_tdeEditionRefused keeps the family's terraform test).
func TestInstance_sslAndTDE(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	tde := map[string]any{"tde_enabled": true, "tde_encryption_key": "key-1",
		"tde_role_arn": "acs:ram::1:role/AliyunRDSInstanceEncryptionDefaultRole"}
	with := func(attrs map[string]any, more ...map[string]any) []oracleResource {
		all := map[string]any{}
		for _, m := range append([]map[string]any{attrs}, more...) {
			for k, v := range m {
				all[k] = v
			}
		}
		return instanceResources("mysql.n2.medium.2c", 20, all)
	}
	refused := func(name string, order []oracleResource, want string) {
		t.Helper()
		expectErrorText(t, name, w.planErrorOf(t, order), regexp.MustCompile(want))
	}
	w.checkedStep(t, "create", with(nil), &id, w.stateIs(testRes, "ssl_enabled", nil), w.stateIs(testRes, "ssl_expire_time", nil))
	writes := env.mutations()
	refused("ssl under prevent_restart", with(map[string]any{"ssl_enabled": true, "prevent_restart": true}),
		`(?s)prevent_restart refuses this plan.*ssl_enabled changes from false to true \(with a\s+switchover to the standby\)`)
	if n := env.mutations(); n != writes {
		t.Fatalf("%d writes for a refused plan", n-writes)
	}
	expiry := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	plan := w.checkedStep(t, "ssl on", with(map[string]any{"ssl_enabled": true}), &id, env.checkSecurityCalls(&id, 1, 1, 0),
		w.stateIs(testRes, "ssl_enabled", true), func(*terraform.State) error {
			if s := w.stateAttr(t, testRes, "ssl_expire_time"); !expiry.MatchString(s) {
				return fmt.Errorf("ssl_expire_time %q, want one matching %s", s, expiry)
			}
			return nil
		})
	expectAction(t, "ssl on", plan, testRes, actUpdate)
	if v := attrOf(plan.res[testRes].planned, "ssl_expire_time"); v.IsKnown() {
		t.Errorf("ssl on: planned ssl_expire_time %s, want unknown", shortValue(v))
	}
	sslTDE := with(map[string]any{"ssl_enabled": true}, tde)
	w.checkedStep(t, "tde on", sslTDE, &id, env.checkSecurityCalls(&id, 2, 1, 1), w.stateIs(testRes, "tde_enabled", true))
	// Read back: no drift.
	again, err := w.planWalk(sslTDE)
	if err != nil || again.errAt != "" {
		t.Fatalf("read back: plan: %v %s", err, again.errMsg)
	}
	expectAction(t, "read back", again, testRes, actNoop)
	refused("tde off", with(map[string]any{"ssl_enabled": true, "tde_enabled": false}),
		`(?s)Invalid tde_enabled \(rule tde-one-way\).*cannot be disabled`)
	refused("tde key changed", with(map[string]any{"ssl_enabled": true, "tde_enabled": true, "tde_encryption_key": "key-2"}),
		`rule tde-key-fixed`)
	plan = w.checkedStep(t, "ssl off", with(map[string]any{"ssl_enabled": false}, tde), &id, env.checkSecurityCalls(&id, 3, 2, 1),
		w.stateIs(testRes, "ssl_enabled", false))
	expectPlanned(t, "ssl off", plan, testRes, "ssl_expire_time", nil)
	w.destroyStep(t, env)
}
