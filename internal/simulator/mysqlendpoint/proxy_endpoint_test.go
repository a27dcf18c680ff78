package mysqlendpoint_test

import (
	"context"
	"net"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TestProxyReadOnlyEndpointRoutesByItsOwnWeights: a further endpoint (rds_db_proxy_endpoint's), created ReadOnly
// with weights that name the primary too, is its own MySQL listener: 1,000 reads over it land 250/750 on the
// read-only instances and none on the primary, while the default endpoint keeps its own weights (500/500).
func TestProxyReadOnlyEndpointRoutesByItsOwnWeights(t *testing.T) {
	f := newProxyFixture(t)
	f.weigh(t, map[string]int64{f.ro1: 100, f.ro2: 100}, 30)
	ctx := context.Background()
	delay := int64(30)
	mustDo(t, "ModifyDBProxyEndpoint Create", f.api.ModifyDBProxyEndpoint(ctx, &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: f.primary,
		Operator: rdsapi.ProxyEndpointCreate, Aliases: "analytics", ReadWriteMode: rdsapi.ProxyReadOnly, DistributionType: rdsapi.ProxyDistributionCustom,
		Features: map[string]int{rdsapi.ProxyFeatureReadWriteSplitting: 1}, Weights: map[string]int64{f.primary: 100, f.ro1: 100, f.ro2: 300},
		MaxDelaySeconds: &delay, EffectiveTime: "Immediate"}))
	px, err := f.api.DescribeDBProxy(ctx, f.primary)
	analytics := ""
	for _, a := range px.Endpoints {
		if a.Aliases == "analytics" {
			analytics = a.EndpointID
		}
	}
	if err != nil || len(px.Endpoints) != 2 || analytics == "" || analytics == f.endpointID {
		t.Fatalf("DescribeDBProxy after the create: %+v, %v; want a second endpoint described analytics", px, err)
	}
	ep, err := f.api.DescribeDBProxyEndpoint(ctx, f.primary, analytics)
	if err != nil {
		t.Fatal(err)
	}
	address := net.JoinHostPort(ep.ConnectString, ep.Port)
	if resolved, ok := f.sim.ResolveEndpoint(address); !ok || resolved != address {
		t.Fatalf("the simulator's name service resolves the endpoint's %s to %q, %t", address, resolved, ok)
	}
	readOnly := f.dialEndpoint(t, analytics)
	if got := readOnly.answered(1000); got[f.ro1] != 250 || got[f.ro2] != 750 || len(got) != 2 {
		t.Fatalf("1,000 reads over the ReadOnly endpoint landed %v; want %s 250, %s 750 and none on the primary", got, f.ro1, f.ro2)
	}
	if got := f.dialProxy(t).answered(1000); got[f.ro1] != 500 || got[f.ro2] != 500 || len(got) != 2 {
		t.Fatalf("1,000 reads over the default endpoint landed %v; want 500 each", got)
	}
	mustDo(t, "ModifyDBProxyEndpoint Delete", f.api.ModifyDBProxyEndpoint(ctx, &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: f.primary,
		EndpointID: analytics, Operator: rdsapi.ProxyEndpointDelete, EffectiveTime: "Immediate"}))
	if _, ok := f.sim.ResolveEndpoint(address); ok {
		t.Fatalf("the deleted endpoint's %s still resolves", address)
	}
}

// TestProxyRoutesOneStatementOfAMultiStatementClient: a client that allows multi-statements (as rds-sql's does)
// sends each query as COM_QUERY with that capability; one plain read is still split, several statements in one
// query run on the primary.
func TestProxyRoutesOneStatementOfAMultiStatementClient(t *testing.T) {
	f := newProxyFixture(t)
	f.weigh(t, map[string]int64{f.ro1: 100, f.ro2: 100}, 30)
	ep, err := f.api.DescribeDBProxyEndpoint(context.Background(), f.primary, f.endpointID)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.DBName, cfg.Addr = "app", "Passw0rd-2026", "tcp", "shop", net.JoinHostPort(ep.ConnectString, ep.Port)
	cfg.MultiStatements = true
	conn, err := openConn(t, cfg)
	mustDo(t, "connect to the proxy", err)
	c := &testConn{t: t, conn: conn}
	if got := c.answered(10); got[f.ro1] != 5 || got[f.ro2] != 5 || len(got) != 2 {
		t.Fatalf("10 reads of a multi-statement client landed %v; want 5 on each read-only instance", got)
	}
	if host := mustQueryString(t, conn, "SELECT @@hostname; SELECT 1"); host != f.primary {
		t.Fatalf("two statements in one query were answered by %s, not the primary", host)
	}
}
