package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

const proxyEndpointRes = "rds_db_proxy_endpoint.analytics"

// proxyEndpointResources is the proxy of proxyResources and a further endpoint with attrs.
func proxyEndpointResources(attrs map[string]any) []oracleResource {
	ep := map[string]any{"instance_id": oracleRef{proxyRes, "instance_id"}, "description": "analytics", "read_write_mode": "ReadOnly"}
	maps.Copy(ep, attrs)
	return append(proxyResources(nil), oracleResource{addr: proxyEndpointRes, attrs: ep})
}

// endpointIs checks the further endpoint as the cloud has it.
func (e *testEnv) endpointIs(w *oracleWorld, t *testing.T, mode string, weights map[string]int64, delay int64) func(*terraform.State) error {
	return func(*terraform.State) error {
		ep, err := e.api.DescribeDBProxyEndpoint(context.Background(), w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, proxyEndpointRes, "endpoint_id"))
		if err != nil {
			return err
		}
		if ep.ReadWriteMode != mode || !maps.Equal(ep.Weights, weights) || ep.MaxDelaySeconds != delay || ep.Aliases != "analytics" {
			return fmt.Errorf("endpoint %s %v delay %d %q; want %s %v %d analytics", ep.ReadWriteMode, ep.Weights, ep.MaxDelaySeconds, ep.Aliases, mode, weights, delay)
		}
		return nil
	}
}

// rds_db_proxy_endpoint: created ReadOnly with its own weights next to the default endpoint, read
// back with no diff; import and identity; a change made outside Terraform shows; a weight change
// is one ModifyDBProxyEndpoint; destroy deletes it and leaves the default endpoint.
func TestDBProxyEndpoint_lifecycle(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	first := proxyEndpointResources(map[string]any{"read_only_weights": map[string]int{ro: 300}, "max_delay_seconds": 20})
	plan := w.applyChecked(t, "create", first, env.endpointIs(w, t, "ReadOnly", map[string]int64{ro: 300}, 20))
	expectAction(t, "create", plan, proxyEndpointRes, actCreate)
	expectEmptyPlan(t, "create again", mustPlan(t, w, first))
	w.importVerify(t, proxyEndpointRes)
	w.identityPartsAre(t, proxyEndpointRes, map[string]string{"instance_id": primary, "endpoint_id": w.stateAttr(t, proxyEndpointRes, "endpoint_id")})
	proxies, endpoints := listed(t, w, proxyKind, nil, true, 0), listed(t, w, proxyEndpointKind, map[string]string{"instance_id": primary}, true, 0)
	if len(proxies) != 1 || identityString(t, proxies[0], "instance_id") != primary || len(endpoints) != 1 ||
		identityString(t, endpoints[0], "instance_id", "endpoint_id") != w.stateAttr(t, proxyEndpointRes, "id") {
		t.Fatalf("listed proxies %v and endpoints %v; want the proxy of %s and its one further endpoint", proxies, endpoints, primary)
	}
	planGenerated(t, w, proxyKind, proxies)
	planGenerated(t, w, proxyEndpointKind, endpoints)

	delay := int64(5)
	if err := env.api.ModifyDBProxyEndpoint(context.Background(), &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: primary,
		EndpointID: w.stateAttr(t, proxyEndpointRes, "endpoint_id"), MaxDelaySeconds: &delay, EffectiveTime: "Immediate"}); err != nil {
		t.Fatal(err)
	}
	expectAction(t, "drift", mustPlan(t, w, first), proxyEndpointRes, actUpdate)
	second := proxyEndpointResources(map[string]any{"read_only_weights": map[string]int{ro: 500}, "max_delay_seconds": 20})
	before := env.requests("ModifyDBProxyEndpoint")
	w.applyChecked(t, "change", second, env.endpointIs(w, t, "ReadOnly", map[string]int64{ro: 500}, 20))
	if n := env.requests("ModifyDBProxyEndpoint") - before; n != 1 {
		t.Fatalf("a weight change sent ModifyDBProxyEndpoint %d times", n)
	}
	w.applyChecked(t, "endpoint gone", proxyResources(nil))
	if px, err := env.api.DescribeDBProxy(context.Background(), primary); err != nil || len(px.Endpoints) != 1 {
		t.Fatalf("after the endpoint's destroy the proxy has %+v, %v; want the default endpoint alone", px, err)
	}
}

// X11 and the journal: a new endpoint whose description the proxy already has is refused, naming
// it; an interrupted create of this configuration (the id answered, or killed before it was found)
// adopts it instead; refusals of bad settings come all at once with nothing sent.
func TestDBProxyEndpoint_killedCreateAdopted(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "proxy", proxyResources(nil))
	primary := w.stateAttr(t, "rds_instance.primary", "id")
	ctx := context.Background()
	if err := env.api.ModifyDBProxyEndpoint(ctx, &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: primary, Operator: rdsapi.ProxyEndpointCreate,
		Aliases: "analytics", ReadWriteMode: rdsapi.ProxyReadOnly, EffectiveTime: "Immediate"}); err != nil {
		t.Fatal(err)
	}
	made := ""
	if px, err := env.api.DescribeDBProxy(ctx, primary); err == nil && len(px.Endpoints) == 2 {
		made = px.Endpoints[1].EndpointID
	}
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	env.data.Journal = rdsservice.OpenCreateJournal(work, func(string) string { return "" })
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"description": tftypes.String}}
	config := tfsdk.Config{Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"description": tftypes.NewValue(tftypes.String, "analytics")})}
	key := configKey(proxyEndpointKind, config)
	r := &dbProxyEndpointResource{resourceBase{typeName: proxyEndpointKind, data: env.data}}
	rq := rdsservice.ProxyRequest{InstanceID: primary, Endpoint: &rdsservice.ProxyEndpointTarget{Description: "analytics"}}
	v, problems, err := r.descriptionVerdict(ctx, rq, config)
	var diags diag.Diagnostics
	if addProblems(&diags, problems); err != nil || v.id != "" || !strings.Contains(problemsOf(diags), "Proxy endpoint description already taken") || len(diags) == 0 || !strings.Contains(diags[0].Detail(), made) {
		t.Fatalf("no interrupted create: %+v %q %v; want %s refused by name", v, problemsOf(diags), err, made)
	}
	for _, entryID := range []string{made, ""} {
		leaveInterruptedCreate(t, env.data.Journal.Dir(), proxyEndpointKind, key, rdsservice.OpCreateProxyEndpoint, entryID, entryID, time.Now().Add(-time.Minute))
		v, problems, err := r.descriptionVerdict(ctx, rq, config)
		diags = nil
		if addProblems(&diags, problems); err != nil || v.id != made || diags.HasError() || !strings.Contains(problemsOf(diags), "Adopting "+made) {
			t.Fatalf("entry %q: %+v %q %v; want %s adopted", entryID, v, problemsOf(diags), err, made)
		}
		env.data.Journal.Forget(v.resolved)
	}
	before := env.mutations()
	text := w.planErrorOf(t, append(proxyResources(nil), oracleResource{addr: proxyEndpointRes, attrs: map[string]any{
		"instance_id": oracleRef{proxyRes, "instance_id"}, "description": "other", "max_delay_seconds": 3601, "read_only_weights": map[string]int{"primary": 150}}}))
	for _, want := range []string{"max_delay_seconds = 3601", `read_only_weights["primary"] = 150`} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, text)
		}
	}
	if n := env.mutations() - before; n != 0 {
		t.Fatalf("the refused plan sent %d mutating requests", n)
	}
	// The proxy shut down outside Terraform took its endpoints: deleting one then succeeds.
	if err := env.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: primary, Service: rdsapi.ProxyShutdown}); err != nil {
		t.Fatal(err)
	}
	gone := rdsservice.PlanProxyEndpoint(rdsservice.ProxyRequest{InstanceID: primary, Delete: true, Endpoint: &rdsservice.ProxyEndpointTarget{ID: made}}, nil)
	if result := rdsservice.ExecuteProxy(ctx, env.api, env.data.Waiter, gone); result.Err != nil {
		t.Fatalf("deleting an endpoint of a proxy shut down: %v", result.Err)
	}
}

// identityPartsAre checks every part of addr's identity after a read.
func (w *oracleWorld) identityPartsAre(t *testing.T, addr string, want map[string]string) {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	typeName := strings.SplitN(addr, ".", 2)[0]
	read, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: typeName,
		CurrentState: dynamic(w.h.objType(typeName), w.state[addr]), Private: w.priv[addr]})
	if err != nil || diagsHaveError(read.Diagnostics) || read.NewIdentity == nil {
		t.Fatalf("read %s: %v %s (identity %v)", addr, err, diagText(read.Diagnostics), read.NewIdentity)
	}
	types := map[string]tftypes.Type{}
	for name := range want {
		types[name] = tftypes.String
	}
	v, err := read.NewIdentity.IdentityData.Unmarshal(tftypes.Object{AttributeTypes: types})
	var parts map[string]tftypes.Value
	if err == nil {
		err = v.As(&parts)
	}
	for name, value := range want {
		var got string
		if err != nil || parts[name].As(&got) != nil || got != value {
			t.Fatalf("identity %s of %s: %q (%v), want %q", name, addr, got, err, value)
		}
	}
}
