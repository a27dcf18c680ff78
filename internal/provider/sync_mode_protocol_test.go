package provider

import (
	"context"
	"regexp"
	"testing"
)

func synced(mode any, category string) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
		"instance_name": "acctest"}
	if category == "Basic" {
		attrs["category"], attrs["instance_type"] = "Basic", "mysql.n2.medium.1"
	}
	if mode != nil {
		attrs["sync_mode"] = mode
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// sync_mode (S1-S3): refused at plan on the Basic edition and for Sync with nothing sent; sent
// after the create; a change names its effect; left out, it is neither sent nor read.
func TestSyncMode(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	ctx := context.Background()
	expectErrorText(t, "basic", w.planErrorOf(t, synced("Async", "Basic")), regexp.MustCompile(`a Basic-edition instance has no secondary node to replicate to`))
	expectErrorText(t, "Sync", w.planErrorOf(t, synced("Sync", "")), regexp.MustCompile(`sync_mode = "Sync": a High-availability or cluster instance`))
	if n := env.mutations(); n != 0 {
		t.Fatalf("the refused plans sent %d mutating requests", n)
	}
	var id string
	w.checkedStep(t, "create", synced("Async", ""), &id)
	mode := func() string {
		cfg, err := env.api.DescribeDBInstanceHAConfig(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.SyncMode
	}
	if got := mode(); got != "Async" || env.requests("ModifyDBInstanceHAConfig") != 1 {
		t.Fatalf("created: %s, %d ModifyDBInstanceHAConfig", got, env.requests("ModifyDBInstanceHAConfig"))
	}
	plan := w.applyChecked(t, "semi-sync", synced("Semi-sync", ""))
	expectWarning(t, "semi-sync", plan, testRes, regexp.MustCompile(`The replication mode of .* changes: .* replicates Async now and Semi-sync after this apply`))
	if got := mode(); got != "Semi-sync" {
		t.Fatalf("changed: %s", got)
	}
	w.applyChecked(t, "left out", synced(nil, ""))
	env.sim.ResetStats()
	expectEmptyPlan(t, "left out", mustPlan(t, w, synced(nil, "")))
	if n := env.requests("DescribeDBInstanceHAConfig"); n != 0 {
		t.Fatalf("unmanaged: %d DescribeDBInstanceHAConfig at refresh and plan", n)
	}
	w.destroyStep(t, env)
}
