package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Another run (a second pipeline, the console, a colleague) may change an instance while this
// apply works on it. Both instance resources follow the same two rules:
//   - an update sends and waits for only what it changes, and a change that someone else's change
//     made impossible fails at once, naming what changed (rdsservice.ApplySpecChangeChecked);
//   - the state after an apply holds the planned values for what the plan knew and the values read
//     from the cloud for what it left unknown (setAppliedState), so someone else's change shows
//     as drift in the next plan instead of failing this apply with "Provider produced
//     inconsistent result".

// setAppliedState records an applied create or update: applied is the resource's model as read
// back from the cloud; every attribute the plan knew keeps its planned value.
func setAppliedState(ctx context.Context, planned tfsdk.Plan, applied any, state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, applied)...)
	if diags.HasError() {
		return
	}
	state.Raw = keepPlanned(planned.Raw, state.Raw)
}

// keepPlanned is planned where it is known and read where it is not, attribute by attribute in
// objects (a block whose planned value is partly unknown keeps its known parts).
func keepPlanned(planned, read tftypes.Value) tftypes.Value {
	switch {
	case planned.IsFullyKnown():
		return planned
	case !planned.IsKnown() || planned.IsNull() || !read.IsKnown() || read.IsNull():
		return read
	}
	obj, ok := planned.Type().(tftypes.Object)
	if !ok || !read.Type().Equal(planned.Type()) {
		return read
	}
	var p, r map[string]tftypes.Value
	if planned.As(&p) != nil || read.As(&r) != nil {
		return read
	}
	out := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name := range obj.AttributeTypes {
		out[name] = keepPlanned(p[name], r[name])
	}
	return tftypes.NewValue(planned.Type(), out)
}

// specChangesSince lists what differs in the spec between before (the instance as the plan saw
// it) and cur (as it is now), in attribute terms; empty when nothing did.
func specChangesSince(before specValues, withBPE bool, cur *rdsapi.DBInstanceAttribute) []string {
	var changes []string
	if cur.DBInstanceClass != before.InstanceType {
		changes = append(changes, fmt.Sprintf("instance_type is %q (the plan saw %q)", cur.DBInstanceClass, before.InstanceType))
	}
	if int64(cur.DBInstanceStorage) != before.Storage {
		changes = append(changes, fmt.Sprintf("storage is %d (the plan saw %d)", int64(cur.DBInstanceStorage), before.Storage))
	}
	if !strings.EqualFold(cur.DBInstanceStorageType, before.StorageType) {
		changes = append(changes, fmt.Sprintf("storage_type is %q (the plan saw %q)", cur.DBInstanceStorageType, before.StorageType))
	}
	if flag := rdsservice.FlagIs(cur, true); flag != before.AtomicWrite {
		changes = append(changes, fmt.Sprintf("atomic_write_16k is %t (the plan saw %t)", flag, before.AtomicWrite))
	}
	if bpe := switchOn(string(cur.IoAccelerationEnabled)); withBPE && cur.IoAccelerationEnabled != "" && bpe != before.BufferPoolExtension {
		changes = append(changes, fmt.Sprintf("buffer_pool_extension is %t (the plan saw %t)", bpe, before.BufferPoolExtension))
	}
	return changes
}

// changedSincePlanError is an update refused right before its request: the instance was changed
// outside this apply after the plan, and the plan model refuses this apply's change for the
// instance as it is now.
type changedSincePlanError struct {
	id       string
	changes  []string
	problems []rdsservice.Problem
}

func (e *changedSincePlanError) Error() string {
	reasons := make([]string, 0, len(e.problems))
	for _, p := range e.problems {
		reasons = append(reasons, p.Summary+": "+p.Detail)
	}
	return rdsservice.Raise(rdsservice.RuleChangedSincePlan, e.id, e.id, strings.Join(e.changes, ", "), strings.Join(reasons, " ")).Detail
}

// specRecheck returns the re-check ApplySpecChangeChecked runs before each request: when the spec
// differs from what the plan saw (before), it decides again with decide, for the instance as it is
// now and this apply's own changes only, and refuses what the plan model refuses there.
func specRecheck(id string, before specValues, withBPE bool, decide func(cur *rdsapi.DBInstanceAttribute) ([]rdsservice.Problem, error)) rdsservice.SpecCheck {
	return func(cur *rdsapi.DBInstanceAttribute) error {
		changes := specChangesSince(before, withBPE, cur)
		if len(changes) == 0 {
			return nil
		}
		problems, err := decide(cur)
		if err != nil {
			return fmt.Errorf("RDS instance %s was changed outside this apply after the plan was made (%s), and checking this apply's change "+
				"again failed: %w", id, strings.Join(changes, ", "), err)
		}
		if len(problems) == 0 {
			return nil
		}
		return &changedSincePlanError{id: id, changes: changes, problems: problems}
	}
}

// specChangeSummary is the diagnostic summary of a failed spec change.
func specChangeSummary(err error, otherwise string) string {
	var during *rdsservice.ConcurrentChangeError
	var before *changedSincePlanError
	if errors.As(err, &during) || errors.As(err, &before) {
		return rdsservice.Rules[rdsservice.RuleChangedDuringApply].Summary
	}
	return otherwise
}

// applySpecNow is an update's immediate spec change: only what the order changes goes out and is
// waited for (the flag too where the change turns it off), after the re-check against the instance
// as it is then. before is the spec the plan saw.
func (r *instanceResource) applySpecNow(ctx context.Context, id string, dec rdsservice.Decision, before specValues, state, config, plan instanceModel) error {
	order := dec.Order
	var want *bool
	if flag := dec.AtomicWrite; isMySQL(state.Engine.ValueString()) && flag.IsKnown() && flag.Value() != before.AtomicWrite {
		want = flag.Ptr() // asked for, or turned off by the new class
	}
	check := specRecheck(id, before, true, func(cur *rdsapi.DBInstanceAttribute) ([]rdsservice.Problem, error) {
		return r.decideAgainst(ctx, cur, state, config, plan, order)
	})
	_, err := rdsservice.ApplySpecChangeChecked(ctx, r.data.API, r.data.Waiter, id, order.Request(id), want, check)
	return err
}

// decideAgainst decides this update again for the instance as it is now (cur), with this apply's
// own spec changes only (order); the values the order leaves alone are taken as they are now. It
// returns the plan model's errors.
func (r *instanceResource) decideAgainst(ctx context.Context, cur *rdsapi.DBInstanceAttribute, state, config, plan instanceModel, order rdsservice.SpecOrder) ([]rdsservice.Problem, error) {
	var diags diag.Diagnostics
	now := state
	r.writeState(cur, &now, &diags)
	again := plan
	if order.InstanceClass == nil {
		again.InstanceType = now.InstanceType
	}
	if order.Storage == nil {
		again.Storage = now.Storage
	}
	if order.StorageType == nil {
		again.StorageType = now.StorageType
	}
	dec, d := r.decide(ctx, &now, config, again, nil)
	diags.Append(d...)
	if diags.HasError() {
		return nil, fmt.Errorf("%v", diags.Errors())
	}
	return dec.Errors(), nil
}

// applySpecNow is rds_readonly_instance's spec change, as rds_instance's.
func (r *readonlyInstanceResource) applySpecNow(ctx context.Context, id string, order rdsservice.SpecOrder, state, cfg, plan readonlyInstanceModel, primary *rdsapi.DBInstanceAttribute) error {
	before := specValues{InstanceType: state.InstanceType.ValueString(), Storage: state.Storage.ValueInt64(),
		StorageType: state.StorageType.ValueString(), AtomicWrite: state.AtomicWrite16K.ValueBool()}
	check := specRecheck(id, before, false, func(cur *rdsapi.DBInstanceAttribute) ([]rdsservice.Problem, error) {
		var diags diag.Diagnostics
		now := readonlyFromAttribute(cur, &state, &diags)
		if diags.HasError() {
			return nil, fmt.Errorf("%v", diags.Errors())
		}
		now.Parameters, now.ParametersPending = state.Parameters, state.ParametersPending
		again := plan
		if order.InstanceClass == nil {
			again.InstanceType = now.InstanceType
		}
		if order.Storage == nil {
			again.Storage = now.Storage
		}
		if order.StorageType == nil {
			again.StorageType = now.StorageType
		}
		return r.decide(ctx, &now, cfg, again, primary, nil, nil).Errors(), nil
	})
	_, err := rdsservice.ApplySpecChangeChecked(ctx, r.data.API, r.data.Waiter, id, order.Request(id), order.AtomicWrite, check)
	return err
}
