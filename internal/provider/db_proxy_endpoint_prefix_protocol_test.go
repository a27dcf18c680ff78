package provider

import (
	"context"
	"strings"
	"testing"
)

// rds_db_proxy_endpoint's prefix: one the proxy's default endpoint already answers at is refused at
// plan, naming that endpoint and its address, with nothing sent (the cloud refused it at apply:
// InvalidConnectionString.Duplicate); one with an upper-case letter is refused with its lower-case
// spelling, which the cloud stores and an import reads back, so the plan after an import is empty.
func TestDBProxyEndpoint_prefixTakenOrNotLowerCase(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary := w.stateAttr(t, "rds_instance.primary", "id")
	created := proxyEndpointResources(map[string]any{"connection_string_prefix": "analytics-ro"})
	w.applyChecked(t, "create", created)
	px, err := env.api.DescribeDBProxy(context.Background(), primary)
	if err != nil {
		t.Fatal(err)
	}
	var holder, address string
	for _, a := range px.Endpoints {
		if a.EndpointID != w.stateAttr(t, proxyEndpointRes, "endpoint_id") {
			holder, address = a.EndpointID, a.ConnectString
		}
	}
	taken, _, _ := strings.Cut(address, ".")
	before := env.mutations()
	text := w.planErrorOf(t, proxyEndpointResources(map[string]any{"connection_string_prefix": taken}))
	for _, want := range []string{"Proxy endpoint prefix " + `"` + taken + `" is taken`, "endpoint " + holder, address} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal of the default endpoint's prefix lacks %q:\n%s", want, text)
		}
	}
	text = w.planErrorOf(t, proxyEndpointResources(map[string]any{"connection_string_prefix": "Analytics-RO"}))
	if !strings.Contains(text, `write connection_string_prefix = "analytics-ro"`) {
		t.Errorf("a mixed-case prefix is not refused with its lower-case spelling:\n%s", text)
	}
	if n := env.mutations() - before; n != 0 {
		t.Fatalf("the refused plans sent %d mutating requests", n)
	}
	w.importVerify(t, proxyEndpointRes)
	expectEmptyPlan(t, "after the import", mustPlan(t, w, created))
}
