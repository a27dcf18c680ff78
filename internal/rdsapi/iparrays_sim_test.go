package rdsapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The client reads every IP array from the simulator; ModifySecurityIps on "default" leaves the
// other arrays, hidden ones included, alone.
func TestIPArraysAgainstSimulator(t *testing.T) {
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 3)
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, newMySQL("arrays"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	poll(t, c, id, func(a *rdsapi.DBInstanceAttribute, err error) bool {
		return err == nil && a.DBInstanceStatus == rdsapi.StatusRunning
	})
	if err := sim.AddIPArray(id, "ali_dms_group", "100.104.0.0/16", "hidden"); err != nil {
		t.Fatal(err)
	}
	if err := c.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "192.168.0.1",
		DBInstanceIPArrayName: rdsapi.DefaultSecurityIPArray}); err != nil {
		t.Fatal(err)
	}
	resp, err := c.DescribeDBInstanceIPArrayList(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	def, dms := resp.Array(rdsapi.DefaultSecurityIPArray), resp.Array("ali_dms_group")
	if len(resp.Items) != 2 || def == nil || dms == nil {
		t.Fatalf("arrays %+v", resp.Items)
	}
	if def.SecurityIPList != "192.168.0.1" || def.DBInstanceIPArrayAttribute != "" {
		t.Errorf("default array %+v", def)
	}
	if dms.SecurityIPList != "100.104.0.0/16" || dms.DBInstanceIPArrayAttribute != rdsapi.IPArrayHidden {
		t.Errorf("hidden array %+v", dms)
	}
	if _, err := c.DescribeDBInstanceIPArrayList(ctx, "rm-nonexistent"); !rdsapi.IsNotFound(err) {
		t.Errorf("an unknown instance: %v, want not found", err)
	}
	if _, err := c.DescribeDBInstanceIPArrayList(ctx, " "); err == nil {
		t.Error("an empty instance id must be refused before sending")
	}

	// A refused write names its instance, so that a retry can look at it.
	if err := sim.SetInstanceState(id, simulator.InstanceState{Status: "Stopped"}); err != nil {
		t.Fatal(err)
	}
	err = c.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "192.168.0.2"})
	var apiErr *rdsapi.Error
	if !errors.As(err, &apiErr) || !rdsapi.IsBusy(err) || apiErr.InstanceID != id {
		t.Fatalf("a write to a Stopped instance: %#v", err)
	}
}
