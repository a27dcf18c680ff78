package rdsapi_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

func TestClientMaintenanceWindowAgainstSimulator(t *testing.T) {
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 2)
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, newMySQL("maintenance"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	if err := c.ModifyDBInstanceMaintainTime(ctx, id, "02:00Z-03:00Z"); err != nil {
		t.Fatal(err)
	}
	if err := c.ModifyDBInstanceMaintainTime(ctx, id, "2am-3am"); err == nil {
		t.Fatal("a malformed window was accepted")
	}
	if _, err := c.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{
		DBInstanceID: id, DBInstanceClass: "mysql.n2.large.2c", EffectiveTime: rdsapi.EffectiveTimeMaintainTime,
	}); err != nil {
		t.Fatal(err)
	}
	attr, err := c.DescribeDBInstanceAttribute(ctx, id)
	if err != nil || attr.MaintainTime != "02:00Z-03:00Z" || attr.DBInstanceClass != "mysql.n2.medium.2c" {
		t.Fatalf("before the window: %+v %v", attr, err)
	}
	tasks, err := c.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{InstanceID: id, Status: rdsapi.TaskStatusScheduled})
	if err != nil || len(tasks.Items) != 1 || tasks.Items[0].TaskType != rdsapi.TaskTypeModifySpec || string(tasks.Items[0].Status) != rdsapi.TaskStatusScheduled {
		t.Fatalf("scheduled tasks: %+v %v", tasks, err)
	}
	var detail map[string]any
	if err := json.Unmarshal([]byte(tasks.Items[0].TaskDetail), &detail); err != nil || detail["DBInstanceClass"] != "mysql.n2.large.2c" {
		t.Fatalf("task detail %q: %v", tasks.Items[0].TaskDetail, err)
	}
	sim.AdvanceClock(25 * time.Hour)
	attr, err = c.DescribeDBInstanceAttribute(ctx, id)
	if err != nil || attr.DBInstanceClass != "mysql.n2.large.2c" || sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the window: %+v %v, restarts %d", attr, err, sim.Stats().Restarts[id])
	}
}
