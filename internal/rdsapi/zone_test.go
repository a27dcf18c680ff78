package rdsapi_test

import (
	"context"
	"slices"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// MigrateToOtherZone: a request without a zone never leaves the client; a refusal is a typed error
// with the cloud's code; the new zones, vSwitch and minor version are read back.
func TestClientMigrateToOtherZoneAgainstSimulator(t *testing.T) {
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 2)
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, newMySQL("zone"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	running := func(a *rdsapi.DBInstanceAttribute, err error) bool {
		return err == nil && a.DBInstanceStatus == "Running"
	}
	poll(t, c, id, running)
	if _, err := c.MigrateToOtherZone(ctx, &rdsapi.MigrateToOtherZoneRequest{DBInstanceID: id}); err == nil {
		t.Fatal("a move without ZoneId was sent")
	}
	attr, err := c.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	req := &rdsapi.MigrateToOtherZoneRequest{DBInstanceID: id, ZoneID: "cn-hangzhou-j", VPCID: attr.VpcID, VSwitchID: "vsw-zone-j"}
	if _, err := c.MigrateToOtherZone(ctx, req); rdsapi.ErrorCode(err) != "MissingZoneIdSlave1" {
		t.Fatalf("no secondary zone: %v", err)
	}
	req.ZoneIDSlave1 = "cn-hangzhou-k"
	if _, err := c.MigrateToOtherZone(ctx, req); err != nil {
		t.Fatal(err)
	}
	poll(t, c, id, running)
	attr, err = c.DescribeDBInstanceAttribute(ctx, id)
	if err != nil || attr.ZoneID != "cn-hangzhou-j" || attr.VSwitchID != "vsw-zone-j" || !slices.Equal(attr.SlaveZones.Zones(), []string{"cn-hangzhou-k"}) ||
		attr.CurrentKernelVersion == "" || sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the move: %+v %v, restarts %d", attr, err, sim.Stats().Restarts[id])
	}
}
