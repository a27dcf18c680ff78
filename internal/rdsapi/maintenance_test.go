package rdsapi_test

import (
	"context"
	"encoding/json"
	"fmt"
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
	// A window six hours from now, so that the change waits whatever the time of day.
	start := (time.Now().UTC().Hour() + 6) % 24
	window := fmt.Sprintf("%02d:00Z-%02d:00Z", start, (start+1)%24)
	if err := c.ModifyDBInstanceMaintainTime(ctx, id, window); err != nil {
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
	if err != nil || attr.MaintainTime != window || attr.DBInstanceClass != "mysql.n2.medium.2c" {
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

// ModifyParameter with SwitchTimeMode=MaintainTime through the client: the value waits, the task
// centre lists a ModifyParameter task, and the window's one restart applies it.
func TestClientParametersInMaintenanceWindowAgainstSimulator(t *testing.T) {
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 2)
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, newMySQL("parameters-window"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	// A window six hours from now, so that the change waits whatever the time of day.
	start := (time.Now().UTC().Hour() + 6) % 24
	if err := c.ModifyDBInstanceMaintainTime(ctx, id, fmt.Sprintf("%02d:00Z-%02d:00Z", start, (start+1)%24)); err != nil {
		t.Fatal(err)
	}
	if err := c.ModifyParameter(ctx, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: map[string]string{"back_log": "4000"},
		Forcerestart: true, SwitchTimeMode: rdsapi.SwitchTimeMaintainTime}); err != nil {
		t.Fatal(err)
	}
	params, err := c.DescribeParameters(ctx, id)
	if err != nil || params.RunningParameters.Values()["back_log"] != "3000" || params.ConfigParameters.Values()["back_log"] != "4000" || sim.Stats().Restarts[id] != 0 {
		t.Fatalf("before the window: %v, restarts %d", err, sim.Stats().Restarts[id])
	}
	tasks, err := c.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{InstanceID: id, Status: rdsapi.TaskStatusScheduled,
		TaskType: rdsapi.TaskTypeModifySpec + "," + rdsapi.TaskTypeModifyParameter})
	if err != nil || len(tasks.Items) != 1 || tasks.Items[0].TaskType != rdsapi.TaskTypeModifyParameter {
		t.Fatalf("scheduled tasks: %+v %v", tasks, err)
	}
	sim.AdvanceClock(25 * time.Hour)
	params, err = c.DescribeParameters(ctx, id)
	if err != nil || params.RunningParameters.Values()["back_log"] != "4000" || len(params.ConfigParameters.Values()) != 0 || sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after the window: %v, restarts %d", err, sim.Stats().Restarts[id])
	}
}
