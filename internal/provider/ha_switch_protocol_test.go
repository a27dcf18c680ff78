package provider

import (
	"context"
	"regexp"
	"testing"
	"time"
)

func haSwitched(cfg map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
		"instance_name": "acctest"}
	if cfg != nil {
		attrs["ha_config"] = cfg
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// ha_config (H1-H4): refused at plan on the Basic edition with nothing sent; Manual sent after
// the create with the plan naming when automatic switchover comes back; once the simulated clock
// passes manual_until the cloud reads Auto and the next plan is empty; left out, it is not read.
func TestHAConfig_manualRevertsWithoutDiff(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	ctx := context.Background()
	until := w.clock.Now().UTC().Add(48 * time.Hour).Truncate(time.Second).Format("2006-01-02T15:04:05Z")
	manual := map[string]any{"mode": "Manual", "manual_until": until}
	basic := haSwitched(map[string]any{"mode": "Manual", "manual_until": until})
	basic[0].attrs["category"], basic[0].attrs["instance_type"] = "Basic", "mysql.n2.medium.1"
	expectErrorText(t, "basic", w.planErrorOf(t, basic), regexp.MustCompile(`a Basic-edition instance has no secondary node`))
	if n := env.mutations(); n != 0 {
		t.Fatalf("the refused plan sent %d mutating requests", n)
	}
	var id string
	plan := w.checkedStep(t, "create", haSwitched(manual), &id)
	expectWarning(t, "create", plan, testRes, regexp.MustCompile(`comes back at `+until))
	if got, err := env.api.DescribeHASwitchConfig(ctx, id); err != nil || got.HAConfig != "Manual" || got.ManualHATime != until {
		t.Fatalf("created: %+v, %v", got, err)
	}
	env.sim.AdvanceClock(72 * time.Hour)
	if got, err := env.api.DescribeHASwitchConfig(ctx, id); err != nil || got.HAConfig != "Auto" {
		t.Fatalf("after manual_until: %+v, %v", got, err)
	}
	env.sim.ResetStats()
	expectEmptyPlan(t, "after manual_until", mustPlan(t, w, haSwitched(manual)))
	if n := env.requests("ModifyHASwitchConfig"); n != 0 {
		t.Fatalf("after manual_until: %d ModifyHASwitchConfig", n)
	}
	w.applyChecked(t, "left out", haSwitched(nil))
	env.sim.ResetStats()
	expectEmptyPlan(t, "left out", mustPlan(t, w, haSwitched(nil)))
	if n := env.requests("DescribeHASwitchConfig"); n != 0 {
		t.Fatalf("unmanaged: %d DescribeHASwitchConfig at refresh and plan", n)
	}
	w.destroyStep(t, env)
}
