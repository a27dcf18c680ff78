package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// ApplyParameters sends one ModifyParameter for plan.Send and waits until the instance is Running
// and runs the values: all of them with forceRestart, only the online ones without (the ones that
// need a restart then wait for the restart of a spec change later in the same apply).
//
// forceRestart is the plan's decision: true only when the plan holds a parameter that needs a
// restart and no spec change of the same apply restarts the instance anyway. The request carries a
// ClientToken, so a resend after a lost answer changes nothing twice; busy and throttled answers are
// retried until ctx's deadline.
func ApplyParameters(ctx context.Context, api rdsapi.API, waiter *Waiter, id string, plan ParameterPlan, forceRestart bool) (*rdsapi.DBInstanceAttribute, error) {
	send := plan.Send
	if len(send) == 0 && plan.GroupID == "" {
		return waiter.WaitRunning(ctx, id)
	}
	if _, err := waiter.WaitRunning(ctx, id); err != nil {
		return nil, err
	}
	if err := withdrawnStillWaits(ctx, api, id, plan); err != nil {
		return nil, err
	}
	own := plan.ownValues()
	ownRestarts := slices.ContainsFunc(plan.Restart, func(name string) bool { _, ok := own[name]; return ok })
	if plan.GroupID != "" {
		// The group first, so that the instance's own values override it (P8); it carries the
		// one restart unless the instance's own values need one (that restart applies both).
		if err := sendParameters(ctx, api, waiter, &rdsapi.ModifyParameterRequest{DBInstanceID: id, ParameterGroupID: plan.GroupID,
			Forcerestart: forceRestart && !ownRestarts}); err != nil {
			return nil, fmt.Errorf("applying parameter group %s to RDS instance %s: %w", plan.GroupID, id, err)
		}
	}
	if len(own) > 0 {
		if err := sendParameters(ctx, api, waiter, &rdsapi.ModifyParameterRequest{DBInstanceID: id, Parameters: own, Forcerestart: forceRestart && (ownRestarts || plan.GroupID == "")}); err != nil {
			return nil, fmt.Errorf("setting parameters of RDS instance %s (%s): %w", id, strings.Join(sortedKeys(own), ", "), err)
		}
	}
	waitFor := send
	if !forceRestart {
		waitFor = map[string]string{}
		for _, name := range plan.Online {
			waitFor[name] = send[name]
		}
	}
	return WaitParametersRunning(ctx, api, waiter, id, waitFor)
}

// ParameterRestartGrace bounds how long WaitParametersRunning goes on while the instance is Running
// and every value it waits for is configured but waits for a restart: a restart the apply ordered
// has begun well before then, so no restart of this apply runs those values (a saved plan applied
// after the cloud ran a waiting value, say, withdraws a value that no longer waits).
const ParameterRestartGrace = 2 * time.Minute

// WaitParametersRunning waits until the instance is Running and DescribeParameters shows every value
// of want as running (set members ignore case). A restart that has not started yet when the first
// read comes shows as values not running yet, so the wait does not end early; values that stay
// configured but waiting for a restart for ParameterRestartGrace end it with an error naming them.
func WaitParametersRunning(ctx context.Context, api rdsapi.API, waiter *Waiter, id string, want map[string]string) (*rdsapi.DBInstanceAttribute, error) {
	clock := waiter.clock()
	lo, hi := waiter.intervals()
	interval := lo
	var stalled time.Time // since when every missing value waits for a restart, zero if not
	for {
		attr, err := waiter.WaitRunning(ctx, id)
		if err != nil {
			return nil, err
		}
		if len(want) == 0 {
			return attr, nil
		}
		answer, err := api.DescribeParameters(ctx, id)
		if err != nil && !rdsapi.IsThrottled(err) && !rdsapi.IsTransient(err) {
			return nil, fmt.Errorf("reading parameters of RDS instance %s: %w", id, err)
		}
		var missing []string
		if err == nil {
			var waiting bool
			if missing, waiting = parametersNotRunning(answer, want); len(missing) == 0 {
				return attr, nil
			}
			switch {
			case !waiting:
				stalled = time.Time{}
			case stalled.IsZero():
				stalled = clock.Now()
			case clock.Now().Sub(stalled) >= ParameterRestartGrace:
				return nil, parametersWaitError(id, missing)
			}
		}
		if !sleep(ctx, clock, interval) {
			detail := "no successful DescribeParameters"
			if len(missing) > 0 {
				detail = "not running yet: " + strings.Join(missing, ", ")
			}
			return nil, fmt.Errorf("waiting for the parameters of RDS instance %s: %s: %w", id, detail, context.Cause(ctx))
		}
		interval = min(time.Duration(float64(interval)*backoffFactor), hi)
	}
}

// parametersNotRunning lists the values of want the instance does not run, and whether each of them
// is configured and waits for a restart (ConfigParameters holds it).
func parametersNotRunning(answer *rdsapi.DescribeParametersResponse, want map[string]string) (missing []string, waiting bool) {
	running, configured := answer.RunningParameters.Values(), answer.ConfigParameters.Values()
	waiting = true
	for _, name := range sortedKeys(want) {
		if sameParameterValue(running[name], want[name]) {
			continue
		}
		missing = append(missing, fmt.Sprintf("%s (runs %q, want %q)", name, running[name], want[name]))
		waiting = waiting && sameParameterValue(configured[name], want[name])
	}
	return missing, waiting
}

func sameParameterValue(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// parametersWaitError is the end of a wait whose values wait for a restart no step of the apply makes.
func parametersWaitError(id string, missing []string) error {
	return fmt.Errorf("the parameters of RDS instance %s wait for a restart this apply does not make: %s stayed configured but not "+
		"running for %v while the instance was Running (the cloud changed them after the plan was made, or they need a restart the "+
		"plan did not name); run terraform plan again, which plans the restart that applies them, or set parameters to the values "+
		"the instance runs", id, strings.Join(missing, ", "), ParameterRestartGrace)
}

// withdrawnStillWaits returns a ChangedSincePlanError, and nothing is sent, when a value the plan
// withdraws (set back to the value running at plan) no longer runs: a restart since the plan ran
// the waiting one, so the value set back would wait for a restart the plan did not name.
func withdrawnStillWaits(ctx context.Context, api rdsapi.API, id string, plan ParameterPlan) error {
	if len(plan.Withdrawn) == 0 {
		return nil
	}
	answer, err := api.DescribeParameters(ctx, id)
	if err != nil {
		return fmt.Errorf("reading parameters of RDS instance %s before setting %s back: %w", id, strings.Join(plan.Withdrawn, ", "), err)
	}
	running := answer.RunningParameters.Values()
	var changes []string
	for _, name := range plan.Withdrawn {
		if !sameParameterValue(running[name], plan.Send[name]) {
			changes = append(changes, fmt.Sprintf("%s runs %q (the plan saw %q running)", name, running[name], plan.Send[name]))
		}
	}
	if len(changes) == 0 {
		return nil
	}
	ran := Raise(RuleParamWithdrawnRan, id, id, strings.Join(changes, ", "))
	return &ChangedSincePlanError{ID: id, Changes: changes, Problems: []Problem{ran}}
}

// sendParameters sends one ModifyParameter (immediately, with a fresh ClientToken), retried while
// the instance is busy.
func sendParameters(ctx context.Context, api rdsapi.API, waiter *Waiter, req *rdsapi.ModifyParameterRequest) error {
	if req.SwitchTimeMode == "" {
		req.SwitchTimeMode = rdsapi.SwitchTimeImmediately
	}
	req.ClientToken = rdsapi.NewClientToken()
	return waiter.RetryBusy(ctx, func() error { return api.ModifyParameter(ctx, req) })
}

// ownValues are the values of Send the instance's own parameters set (the group call sets the
// others, P8).
func (p ParameterPlan) ownValues() map[string]string {
	own := map[string]string{}
	for name, v := range p.Send {
		if !slices.Contains(p.GroupNames, name) {
			own[name] = v
		}
	}
	return own
}

// parameterGroup sends one parameter group operation.
func (x *executor) parameterGroup(ctx context.Context, op Operation) error {
	if x.e.ParameterGroup == nil {
		return fmt.Errorf("the program holds %s without its parameter group", op.Action)
	}
	req := x.e.ParameterGroup.Request
	d := req.Desired
	switch op.Action {
	case OpCreateParameterGroup:
		id, err := x.api.CreateParameterGroup(ctx, &rdsapi.CreateParameterGroupRequest{RegionID: req.RegionID, Name: d.Name,
			Description: d.Description, Engine: d.Engine, EngineVersion: d.EngineVersion, Parameters: d.Parameters, ResourceGroupID: d.ResourceGroupID})
		x.out.ID = id
		return err
	case OpModifyParameterGroup:
		err := x.api.ModifyParameterGroup(ctx, &rdsapi.ModifyParameterGroupRequest{RegionID: req.RegionID, ID: req.ID, Name: d.Name,
			Description: d.Description, Parameters: d.Parameters, ModifyMode: rdsapi.ParameterGroupModeIndividual})
		if rdsapi.IsParameterGroupNotFound(err) {
			return &ChangedSincePlanError{ID: req.ID, Changes: []string{"the parameter group was deleted"}, Problems: []Problem{Raise(RuleParamGroupGone, req.ID, req.ID)}}
		}
		return err
	}
	if err := x.api.DeleteParameterGroup(ctx, req.ID); err != nil && !rdsapi.IsParameterGroupNotFound(err) {
		return err
	}
	return nil
}
