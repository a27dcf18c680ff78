package rdsapi_test

import (
	"context"
	"maps"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The proxy round-trips against the simulator: started, its default endpoint given weights,
// features and a delay threshold with EffectiveTime Immediate, every value read back; shut down.
func TestProxyAgainstSimulator(t *testing.T) {
	ctx := context.Background()
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 0)
	created, err := c.CreateDBInstance(ctx, newMySQL("proxy"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	if px, err := c.DescribeDBProxy(ctx, id); err != nil || px.Started {
		t.Fatalf("before Startup: %+v, %v", px, err)
	}
	if err := c.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: id, Service: rdsapi.ProxyStartup, InstanceType: rdsapi.ProxyTypeExclusive,
		InstanceNum: 3, PersistentConnections: "Enabled"}); err != nil {
		t.Fatal(err)
	}
	px, err := c.DescribeDBProxy(ctx, id)
	if err != nil || !px.Started || px.InstanceType != rdsapi.ProxyTypeExclusive || px.InstanceNum != 3 || !px.PersistentConnections || len(px.Endpoints) != 1 {
		t.Fatalf("after Startup: %+v, %v", px, err)
	}
	delay := int64(12)
	features := map[string]int{rdsapi.ProxyFeatureReadWriteSplitting: 1, rdsapi.ProxyFeatureTransactionSplit: 1, rdsapi.ProxyFeatureCausalConsistRead: 1}
	if err := c.ModifyDBProxyEndpoint(ctx, &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: id, EndpointID: px.Endpoints[0].EndpointID,
		ReadWriteMode: rdsapi.ProxyReadWrite, Features: features, DistributionType: rdsapi.ProxyDistributionCustom,
		Weights: map[string]int64{id: 500}, MaxDelaySeconds: &delay, EffectiveTime: "Immediate"}); err != nil {
		t.Fatal(err)
	}
	ep, err := c.DescribeDBProxyEndpoint(ctx, id, px.Endpoints[0].EndpointID)
	if err != nil {
		t.Fatal(err)
	}
	features[rdsapi.ProxyFeatureConnectionPersist] = 0
	if ep.MaxDelaySeconds != 12 || ep.DistributionType != rdsapi.ProxyDistributionCustom || ep.Weights[id] != 500 || !maps.Equal(ep.Features, features) {
		t.Fatalf("endpoint read back: %+v", ep)
	}
	if err := c.ModifyDBProxyInstance(ctx, &rdsapi.ModifyDBProxyInstanceRequest{DBInstanceID: id, InstanceNum: 4, EffectiveTime: "Immediate"}); err != nil {
		t.Fatal(err)
	}
	if px, _ := c.DescribeDBProxy(ctx, id); px.InstanceNum != 4 {
		t.Fatalf("after an Immediate resize: %+v", px)
	}
	if err := c.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: id, Service: rdsapi.ProxyShutdown}); err != nil {
		t.Fatal(err)
	}
	if px, err := c.DescribeDBProxy(ctx, id); err != nil || px.Started {
		t.Fatalf("after Shutdown: %+v, %v", px, err)
	}
	if n := sim.Stats().Requests["ModifyDBProxy"]; n != 2 {
		t.Fatalf("ModifyDBProxy requests: %d, want 2", n)
	}
}

// ParseProxyFeatures reads what FormatProxyFeatures writes, and refuses a malformed item.
func TestProxyFeaturesFormat(t *testing.T) {
	in := map[string]int{"ReadWriteSpliting": 1, "ConnectionPersist": 0, "CausalConsistRead": 2}
	s := rdsapi.FormatProxyFeatures(in)
	if s != "CausalConsistRead:2;ConnectionPersist:0;ReadWriteSpliting:1" {
		t.Fatalf("formatted %q", s)
	}
	if out, err := rdsapi.ParseProxyFeatures(s); err != nil || !maps.Equal(out, in) {
		t.Fatalf("parsed %v, %v", out, err)
	}
	if _, err := rdsapi.ParseProxyFeatures("ReadWriteSpliting=1"); err == nil {
		t.Fatal("a malformed feature parsed")
	}
}
