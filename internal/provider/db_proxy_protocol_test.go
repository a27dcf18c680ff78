package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

const proxyRes = "rds_db_proxy.rw"

// proxyResources is the primary, one read-only instance and the proxy with attrs over the
// defaults below.
func proxyResources(attrs map[string]any) []oracleResource {
	proxy := map[string]any{"instance_id": oracleRef{"rds_instance.primary", "id"}, "max_delay_seconds": 10}
	maps.Copy(proxy, attrs)
	return append(readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false), oracleResource{addr: proxyRes, attrs: proxy})
}

// proxyEndpointIs checks the default endpoint as the cloud has it.
func (e *testEnv) proxyEndpointIs(w *oracleWorld, t *testing.T, weights map[string]int64, delay int64) func(*terraform.State) error {
	return func(*terraform.State) error {
		ep, err := e.api.DescribeDBProxyEndpoint(context.Background(), w.stateAttr(t, "rds_instance.primary", "id"), "")
		if err != nil {
			return err
		}
		if !maps.Equal(ep.Weights, weights) || ep.MaxDelaySeconds != delay || ep.DistributionType != rdsapi.ProxyDistributionCustom {
			return fmt.Errorf("endpoint weights %v, delay %d, %s; want %v, %d, Custom", ep.Weights, ep.MaxDelaySeconds, ep.DistributionType, weights, delay)
		}
		return nil
	}
}

// rds_db_proxy: started with weights (the primary's as "primary"), read back with no diff; a
// change made outside Terraform shows; a changed weight is one ModifyDBProxyEndpoint sent with
// EffectiveTime=Immediate; import and identity; destroy shuts the proxy down.
func TestDBProxy_lifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	first := proxyResources(map[string]any{"read_only_weights": map[string]int{"primary": 100, ro: 300}})
	plan := w.applyChecked(t, "create", first, env.proxyEndpointIs(w, t, map[string]int64{primary: 100, ro: 300}, 10))
	expectAction(t, "create", plan, proxyRes, actCreate)
	if n := env.requests("ModifyDBProxyEndpoint"); n != 1 {
		t.Fatalf("ModifyDBProxyEndpoint sent %d times", n)
	}
	expectEmptyPlan(t, "create again", mustPlan(t, w, first))
	w.importVerify(t, proxyRes)
	w.identityIs(t, proxyRes, "instance_id", primary)

	delay := int64(5)
	if err := env.api.ModifyDBProxyEndpoint(context.Background(), &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: primary,
		EndpointID: w.endpointID(t, env, primary), MaxDelaySeconds: &delay, EffectiveTime: "Immediate"}); err != nil {
		t.Fatal(err)
	}
	expectAction(t, "drift", mustPlan(t, w, first), proxyRes, actUpdate)

	second := proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 200}, "ssl_enabled": true})
	w.applyChecked(t, "change", second, env.proxyEndpointIs(w, t, map[string]int64{ro: 200}, 10), func(*terraform.State) error {
		if ssl, err := env.api.GetDbProxyInstanceSsl(context.Background(), primary); err != nil || len(ssl.Endpoints) != 1 {
			return fmt.Errorf("proxy SSL after ssl_enabled = true: %+v, %v", ssl, err)
		}
		return nil
	})
	expectEmptyPlan(t, "change again", mustPlan(t, w, second))

	w.destroyStep(t, env)
	if px, err := env.api.DescribeDBProxy(context.Background(), primary); err == nil && px.Started {
		t.Fatal("the proxy is still started after destroy")
	}
}

func (w *oracleWorld) endpointID(t *testing.T, env *testEnv, primary string) string {
	t.Helper()
	px, err := env.api.DescribeDBProxy(context.Background(), primary)
	if err != nil || len(px.Endpoints) == 0 {
		t.Fatalf("DescribeDBProxy: %+v, %v", px, err)
	}
	return px.Endpoints[0].EndpointID
}

// Bad input is refused at plan, every refusal at once, nothing sent; a read_write_mode change
// warns, and prevent_restart refuses it.
func TestDBProxy_refusedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	ro := w.stateAttr(t, testRO, "id")
	text := w.planErrorOf(t, proxyResources(map[string]any{"instance_num": 17, "max_delay_seconds": 3601,
		"read_only_weights": map[string]int{ro: 150, "rr-elsewhere": 100}}))
	for _, want := range []string{"instance_num = 17", "max_delay_seconds = 3601", fmt.Sprintf("read_only_weights[%q] = 150", ro),
		`read_only_weights["rr-elsewhere"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, text)
		}
	}
	if n := env.requests("ModifyDBProxy"); n != 0 {
		t.Fatalf("ModifyDBProxy sent %d times for a refused plan", n)
	}
	if err := env.api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: ro,
		Parameters: map[string]string{"max_prepared_stmt_count": "8000"}}); err != nil {
		t.Fatal(err)
	}
	text = w.planErrorOf(t, proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 100}}))
	if !strings.Contains(text, fmt.Sprintf("its read-only instance %s has 8000", ro)) {
		t.Fatalf("unequal max_prepared_stmt_count: %s", text)
	}
	if err := env.api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: ro,
		Parameters: map[string]string{"max_prepared_stmt_count": "16382"}}); err != nil {
		t.Fatal(err)
	}
	w.applyChecked(t, "create", proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 100}}))
	text = w.planErrorOf(t, proxyResources(map[string]any{"read_only_weights": map[string]int{ro: 100}, "read_write_mode": "ReadOnly", "prevent_restart": true}))
	if !strings.Contains(text, "prevent_restart refuses a change that interrupts the proxy's connections") {
		t.Fatalf("a mode change under prevent_restart: %s", text)
	}
}
