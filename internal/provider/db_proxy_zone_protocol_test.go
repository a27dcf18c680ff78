package provider

import (
	"strings"
	"testing"
)

// A proxy on an instance in a zone that does not offer it (cloud fact P9: Zone D of China
// (Hangzhou)) is refused at plan naming the zone and its fix, together with the proxy's other
// refusals, and the plan sends nothing that writes.
func TestDBProxy_zoneRefusedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	instances := readonlyOnResources(false, "", 0, false)
	instances[0].attrs["zone_id"] = "cn-hangzhou-d"
	w.applyChecked(t, "instance in cn-hangzhou-d", instances)
	env.sim.ResetStats()
	proxy := oracleResource{addr: proxyRes, attrs: map[string]any{"instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_num": 17}}
	text := w.planErrorOf(t, append(instances, proxy))
	for _, want := range []string{"runs in zone cn-hangzhou-d, where RDS for MySQL does not offer the database proxy", "zone_id", "instance_num = 17"} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, text)
		}
	}
	if writes := env.writes(); len(writes) != 0 {
		t.Fatalf("a refused plan sent %v", writes)
	}
}
