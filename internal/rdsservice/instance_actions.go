package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Provider-defined actions (Terraform 1.14+, issue 28) are one-off operations on an instance. Their
// plan shows a restart as a resource's plan does (RestartProblem: the warning naming the instance,
// or the prevent_restart refusal), and they run with the waits every other write uses.

// PlanActionRestart is the plan of the action named action restarting the instance attr describes:
// the restart warning, or with preventRestart the refusal.
func PlanActionRestart(action string, attr *rdsapi.DBInstanceAttribute, preventRestart bool) Problem {
	r := Restart{
		InstanceID: attr.DBInstanceID,
		Reasons:    []string{action + " restarts it now (RestartDBInstance)"},
		Downtime:   ExpectedDowntime(attr.Category, attr.MasterInstanceID != ""),
	}
	return RestartProblem([]Restart{r}, false, preventRestart, AttrPreventRestart)
}

// RestartInstance waits until the instance is Running, restarts it and waits until it is Running
// again. A busy instance is retried until ctx's deadline, as every write is.
func RestartInstance(ctx context.Context, api rdsapi.API, w *Waiter, id string) (*rdsapi.DBInstanceAttribute, error) {
	if _, err := w.WaitRunning(ctx, id); err != nil {
		return nil, err
	}
	if err := w.RetryBusy(ctx, func() error { return api.RestartDBInstance(ctx, id) }); err != nil {
		return nil, fmt.Errorf("RestartDBInstance %s: %w", id, err)
	}
	return w.WaitRunning(ctx, id)
}
