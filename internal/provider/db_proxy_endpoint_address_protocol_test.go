package provider

import (
	"context"
	"database/sql"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

// rds_db_proxy_endpoint's own address, with proxy endpoints that speak MySQL: created with a
// prefix; a bad prefix and port refused at plan, naming them, with nothing sent; a new prefix and
// port planned as an update that names the address that stops answering (refused with
// prevent_endpoint_change) and plans the new one; applied with one ModifyDBProxyEndpointAddress,
// after which a MySQL client reaches the endpoint at the new address through the simulator's name
// service and the old one answers no more; the next plan is empty, an import keeps the values, and
// an address changed outside Terraform shows as a diff that moves it back.
func TestDBProxyEndpoint_addressChangesInPlace(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.Endpoints = mysqlendpoint.ForSimulator
	env, w := envWorld(t, opts)
	t.Cleanup(func() { _ = env.sim.Close() })
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	w.applyChecked(t, "create", proxyEndpointResources(map[string]any{"connection_string_prefix": "analytics-ro"}))
	first := w.stateAttr(t, proxyEndpointRes, "connection_string")
	if first != "analytics-ro.rwlb.rds.aliyuncs.com" || w.stateAttr(t, proxyEndpointRes, "connection_string_prefix") != "analytics-ro" {
		t.Fatalf("created at %s (prefix %s), want analytics-ro.rwlb.rds.aliyuncs.com", first, w.stateAttr(t, proxyEndpointRes, "connection_string_prefix"))
	}
	oldAddress := endpointAddress(t, env, primary, w.stateAttr(t, proxyEndpointRes, "endpoint_id"))

	before := env.mutations()
	text := w.planErrorOf(t, proxyEndpointResources(map[string]any{"connection_string_prefix": "abc", "port": 80}))
	for _, want := range []string{`connection_string_prefix`, `"abc"`, "5 to 40", "port 80", "1000 to 5999"} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal of a bad prefix and port lacks %q:\n%s", want, text)
		}
	}
	if n := env.mutations() - before; n != 0 {
		t.Fatalf("the refused plan sent %d mutating requests", n)
	}
	if text := w.planErrorOf(t, proxyEndpointResources(map[string]any{"connection_string_prefix": "reports-ro", "prevent_endpoint_change": true})); !strings.Contains(text, "prevent_endpoint_change refuses this plan: "+oldAddress) {
		t.Errorf("prevent_endpoint_change does not refuse the move of %s:\n%s", oldAddress, text)
	}

	moved := proxyEndpointResources(map[string]any{"connection_string_prefix": "reports-ro", "port": 3307})
	plan := mustPlan(t, w, moved)
	expectAction(t, "move", plan, proxyEndpointRes, actUpdate)
	expectPlanned(t, "move", plan, proxyEndpointRes, "connection_string", "reports-ro.rwlb.rds.aliyuncs.com")
	if text := diagDetails(plan.res[proxyEndpointRes].diags); !strings.Contains(text, oldAddress+" of the endpoint") || !strings.Contains(text, "reach it at reports-ro.rwlb.rds.aliyuncs.com:3307") {
		t.Errorf("the plan does not name the address that stops answering (%s) and the new one:\n%s", oldAddress, text)
	}
	writes := env.requests("ModifyDBProxyEndpointAddress")
	w.applyChecked(t, "move", moved)
	if n := env.requests("ModifyDBProxyEndpointAddress") - writes; n != 1 {
		t.Fatalf("the move sent ModifyDBProxyEndpointAddress %d times, want once", n)
	}
	if host := queryThrough(t, env, w, "reports-ro.rwlb.rds.aliyuncs.com:3307", primary, ro); host != ro {
		t.Fatalf("a read at the new address was answered by %s, want the read-only instance %s", host, ro)
	}
	if _, ok := env.sim.ResolveEndpoint(oldAddress); ok {
		t.Fatalf("the old address %s still answers", oldAddress)
	}
	expectEmptyPlan(t, "moved", mustPlan(t, w, moved))
	w.importVerify(t, proxyEndpointRes)
	if err := env.api.ModifyDBProxyEndpointAddress(context.Background(), &rdsapi.ModifyDBProxyEndpointAddressRequest{DBInstanceID: primary,
		EndpointID: w.stateAttr(t, proxyEndpointRes, "endpoint_id"), NetType: rdsapi.ProxyNetTypeVPC, Prefix: "drifted-ro"}); err != nil {
		t.Fatal(err)
	}
	drift := mustPlan(t, w, moved)
	expectAction(t, "drift", drift, proxyEndpointRes, actUpdate)
	expectPlanned(t, "drift", drift, proxyEndpointRes, "connection_string", "reports-ro.rwlb.rds.aliyuncs.com")
}

// diagDetails are the diagnostics' summaries and details.
func diagDetails(ds []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// endpointAddress is a proxy endpoint's address as DescribeDBProxyEndpoint reads it.
func endpointAddress(t *testing.T, env *testEnv, instance, endpoint string) string {
	t.Helper()
	ep, err := env.api.DescribeDBProxyEndpoint(context.Background(), instance, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort(ep.ConnectString, ep.Port)
}

// queryThrough lets loopback into the primary and its read-only instance, makes an account, and
// answers SELECT @@hostname read with go-sql-driver/mysql at address, through the simulator's name
// service.
func queryThrough(t *testing.T, env *testEnv, w *oracleWorld, address string, instances ...string) string {
	t.Helper()
	ctx := context.Background()
	for _, id := range instances {
		if err := env.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: instances[0], AccountName: "reader",
		AccountPassword: "Passw0rd-2026", AccountType: "Super"}); err != nil {
		t.Fatal(err)
	}
	w.clock.After(time.Minute) // the account is created
	network := "rdssim-" + t.Name()
	mysql.RegisterDialContext(network, env.sim.DialEndpoint)
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.Timeout = "reader", "Passw0rd-2026", network, address, 10*time.Second
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	defer func() { _ = db.Close() }()
	var host string
	if err := db.QueryRowContext(ctx, "SELECT @@hostname").Scan(&host); err != nil {
		t.Fatalf("a read at %s: %v", address, err)
	}
	return host
}
