package rdsapi_test

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Storage autoscaling round-trips against the simulator: written through RDS, read back through
// DAS (its own API version), the threshold as free space.
func TestStorageAutoScaleAgainstSimulator(t *testing.T) {
	ctx := context.Background()
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 0)
	created, err := c.CreateDBInstance(ctx, newMySQL("autoscale"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	want := rdsapi.StorageAutoScale{Enabled: true, Threshold: 20, UpperBound: 300}
	if err := c.ModifyDasInstanceConfig(ctx, id, want); err != nil {
		t.Fatal(err)
	}
	got, err := c.DescribeAutoScalingConfig(ctx, id)
	if err != nil || *got != want {
		t.Fatalf("read back %+v, %v; want %+v", got, err, want)
	}
	if err := c.ModifyDasInstanceConfig(ctx, id, rdsapi.StorageAutoScale{}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.DescribeAutoScalingConfig(ctx, id); err != nil || got.Enabled {
		t.Fatalf("after Disable: %+v, %v", got, err)
	}
	if n := sim.Stats().Requests["DescribeAutoScalingConfig"]; n != 2 {
		t.Fatalf("DescribeAutoScalingConfig requests: %d, want 2", n)
	}
}
