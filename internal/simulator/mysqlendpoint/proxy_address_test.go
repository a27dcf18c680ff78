package mysqlendpoint_test

import (
	"context"
	"net"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TestProxyEndpointAnswersAtItsNewAddress: ModifyDBProxyEndpointAddress gives the default proxy endpoint a new
// prefix and port; DescribeDBProxyEndpoint reports the new address, a MySQL client connects there through the
// name service and its reads are still split, and the old address no longer answers (neither by name nor at the
// old listener). A malformed prefix or port is refused and changes nothing.
func TestProxyEndpointAnswersAtItsNewAddress(t *testing.T) {
	f := newProxyFixture(t)
	f.weigh(t, map[string]int64{f.ro1: 100, f.ro2: 100}, 30)
	ctx := context.Background()
	old, err := f.api.DescribeDBProxyEndpoint(ctx, f.primary, f.endpointID)
	mustDo(t, "DescribeDBProxyEndpoint", err)
	oldAddress := net.JoinHostPort(old.ConnectString, old.Port)
	for _, bad := range []rdsapi.ModifyDBProxyEndpointAddressRequest{{Prefix: "abc"}, {Prefix: "orders?proxy"}, {Port: 80}} {
		bad.DBInstanceID, bad.EndpointID, bad.NetType = f.primary, f.endpointID, rdsapi.ProxyNetTypeVPC
		if err := f.api.ModifyDBProxyEndpointAddress(ctx, &bad); rdsapi.ErrorCode(err) == "" {
			t.Fatalf("ModifyDBProxyEndpointAddress %+v: %v, want a refusal", bad, err)
		}
	}
	mustDo(t, "ModifyDBProxyEndpointAddress", f.api.ModifyDBProxyEndpointAddress(ctx, &rdsapi.ModifyDBProxyEndpointAddressRequest{
		DBInstanceID: f.primary, EndpointID: f.endpointID, NetType: rdsapi.ProxyNetTypeVPC, Prefix: "Orders-Proxy", Port: 3307}))
	ep, err := f.api.DescribeDBProxyEndpoint(ctx, f.primary, f.endpointID)
	mustDo(t, "DescribeDBProxyEndpoint", err)
	if ep.ConnectString != "orders-proxy.rwlb.rds.aliyuncs.com" || ep.Port != "3307" {
		t.Fatalf("after the change the endpoint reads %s:%s, want orders-proxy.rwlb.rds.aliyuncs.com:3307", ep.ConnectString, ep.Port)
	}
	network := "rdssim-" + t.Name()
	mysql.RegisterDialContext(network, f.sim.DialEndpoint)
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.DBName, cfg.Addr = "app", "Passw0rd-2026", network, "shop", "orders-proxy.rwlb.rds.aliyuncs.com:3307"
	conn, err := openConn(t, cfg)
	mustDo(t, "connect at the new address", err)
	if got := (&testConn{t: t, conn: conn}).answered(10); got[f.ro1] != 5 || got[f.ro2] != 5 {
		t.Fatalf("10 reads at the new address landed %v; want 5 on each read-only instance", got)
	}
	if _, ok := f.sim.ResolveEndpoint(oldAddress); ok {
		t.Fatalf("the old address %s still resolves", oldAddress)
	}
	var d net.Dialer
	if c, err := d.DialContext(ctx, "tcp", oldAddress); err == nil {
		_ = c.Close()
		t.Fatalf("the old listener %s still accepts connections", oldAddress)
	}
}
