package provider

import (
	"regexp"
	"testing"
)

// editionResources is a MySQL primary (zone cn-hangzhou-i, 100 GB) of the given edition and
// class, with extra attributes.
func editionResources(category, class string, extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "category": category, "instance_type": class,
		"storage": 100, "instance_name": "editions", "zone_id": "cn-hangzhou-i"}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// Issue 25 §4: Basic -> HighAvailability changes the instance in place, one ModifyDBInstanceSpec
// and one restart, the id kept and the standby read back. A Basic class kept and prevent_restart
// are refused at plan with nothing sent; HighAvailability -> Basic is a replacement, which
// deletion_protection refuses at plan. The steps and checks of a terraform test, played at the
// plugin protocol (TestAccInstance_createToggleNoopImport in instance_resource_test.go keeps the
// instance family's terraform test).
func TestEditionUpgradeInPlace(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	const basicClass, haClass = "mysql.n2.medium.1", "mysql.n2.medium.2c"
	refused := func(name string, order []oracleResource, want string) {
		t.Helper()
		expectErrorText(t, name, w.planErrorOf(t, order), regexp.MustCompile(want))
	}
	w.checkedStep(t, "basic", editionResources("Basic", basicClass, nil), &id, w.stateIs(testRes, "zone_id_slave_a", ""))
	created := id
	refused("basic class", editionResources("HighAvailability", basicClass, nil),
		`(?s)Upgrading rm-\S+ \(editions\) to the High-availability edition needs a\s+High-availability class`)
	refused("prevent_restart", editionResources("HighAvailability", haClass, map[string]any{"prevent_restart": true}),
		`(?s)prevent_restart refuses this plan: it restarts RDS instance rm-.*category\s+changes\s+from\s+"Basic"\s+to\s+"HighAvailability"`)
	// Nothing was sent.
	w.checkedStep(t, "basic again", editionResources("Basic", basicClass, nil), &id, env.checkOrders("ModifyDBInstanceSpec", &id, 0, 0))
	plan := w.checkedStep(t, "high availability", editionResources("HighAvailability", haClass, nil), &id,
		w.stateIs(testRes, "category", "HighAvailability"), w.stateIs(testRes, "zone_id_slave_a", "cn-hangzhou-i"),
		env.checkOrders("ModifyDBInstanceSpec", &id, 1, 1))
	expectAction(t, "high availability", plan, testRes, actUpdate)
	expectPlanned(t, "high availability", plan, testRes, "zone_id_slave_a", "cn-hangzhou-i")
	if id != created {
		t.Errorf("the instance was replaced: %s, was %s", id, created)
	}
	again, err := w.planWalk(editionResources("HighAvailability", haClass, nil))
	if err != nil || again.errAt != "" {
		t.Fatalf("high availability again: plan: %v %s", err, again.errMsg)
	}
	expectAction(t, "high availability again", again, testRes, actNoop)
	w.checkedStep(t, "protected", editionResources("HighAvailability", haClass, map[string]any{"deletion_protection": true}), &id)
	refused("back to basic", editionResources("Basic", basicClass, map[string]any{"deletion_protection": true}),
		`(?s)has deletion protection and this plan replaces it.*category forces replacement`)
	w.checkedStep(t, "unprotected", editionResources("HighAvailability", haClass, map[string]any{"deletion_protection": false}), &id,
		env.checkOrders("ModifyDBInstanceSpec", &id, 1, 1))
	w.destroyStep(t, env)
}
