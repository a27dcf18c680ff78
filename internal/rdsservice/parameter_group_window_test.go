package rdsservice

import (
	"context"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// P8 in the maintenance window: a group applied in place beside the instance's own online value.
// The group's call sets its online value at once and leaves its restart-needing one for the window;
// the instance's own online value follows, and the apply waits for that value only (it waited for
// the group's online value under the name of its own, which it never sends: the apply hung until
// its deadline; the oracle's parameter group factor, seed 1).
func TestScheduleParametersWithAGroupWaitsForItsOwnValuesOnly(t *testing.T) {
	o := newOracle(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	id, err := o.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", Storage: 100,
		StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	// A window closed now: the default 18:00Z-22:00Z is open for part of the day, and the cloud then runs
	// the restart-needing value at once.
	closeWindow(t, o.api, id, time.Now())
	group, err := o.api.CreateParameterGroup(ctx, &rdsapi.CreateParameterGroupRequest{Name: "fleet_default", Engine: "MySQL", EngineVersion: "8.0",
		Parameters: map[string]string{"wait_timeout": "3600", "innodb_write_io_threads": "8"}})
	if err != nil {
		t.Fatal(err)
	}
	plan := ParameterPlan{GroupID: group, GroupNames: []string{"innodb_write_io_threads", "wait_timeout"}, Restart: []string{"innodb_write_io_threads"},
		Send:   map[string]string{"wait_timeout": "3600", "innodb_write_io_threads": "8", "innodb_io_capacity": "4000"},
		Online: []string{"innodb_io_capacity", "wait_timeout"}}
	if err := ScheduleParameters(ctx, o.api, o.waiter, id, plan); err != nil {
		t.Fatalf("ScheduleParameters: %v", err)
	}
	answer, err := o.api.DescribeParameters(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	running, waiting := answer.RunningParameters.Values(), answer.ConfigParameters.Values()
	if running["wait_timeout"] != "3600" || running["innodb_io_capacity"] != "4000" || waiting["innodb_write_io_threads"] != "8" {
		t.Fatalf("running %s/%s, waiting %v", running["wait_timeout"], running["innodb_io_capacity"], waiting)
	}
}
