package rdsapi_test

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// UpgradeDBInstanceEngineVersion: the answer's TaskId is decoded, a resend with the same token is
// the same upgrade, a refusal is a typed error with the cloud's code, and a request without a
// version never leaves the client.
func TestClientUpgradeEngineVersionAgainstSimulator(t *testing.T) {
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 2)
	ctx := context.Background()
	req := newMySQL("upgrade")
	req.EngineVersion, req.OptimizedWrites = "5.7", ""
	created, err := c.CreateDBInstance(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	if _, err := c.UpgradeDBInstanceEngineVersion(ctx, &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: id}); err == nil {
		t.Fatal("an upgrade without EngineVersion was sent")
	}
	if _, err := c.UpgradeDBInstanceEngineVersion(ctx, &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: id, EngineVersion: "5.6"}); rdsapi.ErrorCode(err) != "InvalidEngineVersion.Downgrade" {
		t.Fatalf("downgrade: %v", err)
	}
	up := &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: id, EngineVersion: "8.0", ClientToken: "tok-upgrade"}
	first, err := c.UpgradeDBInstanceEngineVersion(ctx, up)
	if err != nil || first.TaskID == "" {
		t.Fatalf("upgrade: %+v %v", first, err)
	}
	again, err := c.UpgradeDBInstanceEngineVersion(ctx, up)
	if err != nil || again.TaskID != first.TaskID || sim.Stats().Requests["UpgradeDBInstanceEngineVersion"] != 3 || sim.Stats().Restarts[id] != 1 {
		t.Fatalf("resend: %+v %v, stats %+v", again, err, sim.Stats())
	}
	attr, err := c.DescribeDBInstanceAttribute(ctx, id)
	if err != nil || attr.EngineVersion != "8.0" {
		t.Fatalf("after the upgrade: %+v %v", attr, err)
	}
}
