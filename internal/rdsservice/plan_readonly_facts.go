package rdsservice

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// PlanInstance's read-only variant: an rds_readonly_instance plans against its primary, read from
// the API while planning (16K atomic write is coupled to it, spec rule 7), and against what this
// run's plan of that primary recorded in the ledger.

// ReadOnlyQuery is what a read-only instance's plan reads beyond InstanceRequest's facts.
type ReadOnlyQuery struct {
	// Primary is master_instance_id as planned ("": not known yet); PriorPrimary the state's.
	Primary, PriorPrimary string
	// StateClass is the state's instance_type (a class the state holds needs no catalogue).
	StateClass Val[string]
	// StorageTypeConfig is storage_type as configured (null: the primary's).
	StorageTypeConfig Val[string]
	// PriorMinor is the minor version the state says it runs.
	PriorMinor string
}

// planReadOnly plans one rds_readonly_instance: the primary read, then the facts and the decision.
func planReadOnly(ctx context.Context, env Env, req InstanceRequest) InstancePlan {
	primary, problems := ReadPlanPrimary(ctx, env, req.ReadOnly.Primary, req.Input.Prior != nil)
	if len(problems) > 0 {
		return InstancePlan{Decision: Decision{Problems: problems}, Stopped: true}
	}
	in := ReadOnlyInput(ctx, env, req, primary)
	in.Facts.Classes = readOnlyClasses(ctx, env, req, in, primary)
	dec := Plan(in)
	dec.add(ReadOnlyPreparedStmt(ctx, env, req.ID, req.ReadOnly.Primary, in)...) // proxy_prepared_stmt.go
	if req.Input.Prior != nil {
		dec.add(ProxySpecChange(ctx, env, req.ID, in.Label, req.ReadOnly.Primary, dec)...) // proxy_spec_change.go
	}
	return InstancePlan{Decision: dec, Primary: primary}
}

// ReadPlanPrimary reads a read-only instance's primary while planning (for a replacement too). A
// missing primary is refused for a new read-only instance; for an existing one the refresh
// removes it (nil, no problem).
func ReadPlanPrimary(ctx context.Context, env Env, master string, exists bool) (*rdsapi.DBInstanceAttribute, []Problem) {
	if master == "" {
		return nil, nil
	}
	attr, err := env.API.DescribeDBInstanceAttribute(ctx, master)
	switch {
	case err == nil:
		return attr, nil
	case rdsapi.IsNotFound(err) && !exists:
		return nil, []Problem{Raise(RuleReadOnlyPrimaryNotFound, master, master, env.Region)}
	case rdsapi.IsNotFound(err):
		// The read-only instance goes with its primary; refresh removes it, apply reports it.
		tflog.Warn(ctx, "primary of a read-only instance not found while planning", map[string]any{"primary": master})
		return nil, nil
	}
	return nil, []Problem{Raise(RulePrimaryUnreadable, master, master, OperationError(ctx, err))}
}

// OperationError describes a failed operation, telling a cancellation (Ctrl-C) from a timeout.
func OperationError(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled) {
		return fmt.Sprintf("the operation was cancelled (interrupted) before it finished: %v", err)
	}
	return err.Error()
}

// ReadOnlyInput is the planner's input of a read-only instance with its primary (nil while it does
// not exist) and the facts read from the cloud and the run's ledger (the apply decides from it again).
func ReadOnlyInput(ctx context.Context, env Env, req InstanceRequest, primary *rdsapi.DBInstanceAttribute) PlanInput {
	in := req.Input
	in.Replace = req.Replaced
	readEndpointFacts(ctx, env, req.ID, in.Prior != nil, &in.Desired.Endpoints) // a read-only instance's plan shows no warning of it
	if primary != nil {
		if p, err := ExistingFromAttribute(primary); err == nil {
			in.Facts.Primary = &p
			in.Facts.PrimaryScheduled = primaryScheduled(ctx, env, p, in.Prior)
		}
		in = readDiskFloor(ctx, env, req.ID, primary, in)
	}
	if q := req.ReadOnly; q.Primary != "" {
		planned := env.Ledger.Primary(q.Primary)
		in.Facts.PrimaryPlanned, in.Facts.PrimaryStorage = planned.AtomicWrite, planned.Storage
		in.Facts.PrimaryMinor = planned.Minor // a new read-only instance follows a waiting upgrade too
		if in.Prior != nil {
			in.Prior.MinorVersion = q.PriorMinor
		}
		in.Facts.PrimaryZoneMoveInWindow = planned.ZoneMoveInWindow
		in.Facts.PrimaryUnknownFlagStartsAt = planned.UnknownFlagStartsAt
	}
	readOnlyParameters(ctx, env, req, primary, &in)
	in.Facts.Now = env.Now() // after the reads, as in InstanceInput
	return in
}

// readOnlyParameters adds the parameter facts: the instance's own (an existing instance) or its
// primary's engine's (a new one), and what the primary's plan says of it.
func readOnlyParameters(ctx context.Context, env Env, req InstanceRequest, primary *rdsapi.DBInstanceAttribute, in *PlanInput) {
	group, failed := readGroup(ctx, env, req.Group)
	in.Desired.Parameters.Group = group
	if in.Prior != nil && req.ReadOnly.Primary == "" {
		in.Facts.PrimaryReplaced = env.Ledger.Replaced(req.ReadOnly.PriorPrimary)
	}
	if in.Prior != nil && len(in.Replace) == 0 {
		in.Facts.Parameters = ReadParameterFacts(ctx, env, in.Desired.Parameters, req.Parameters)
	} else if primary != nil {
		in.Facts.PrimaryUpgradePending = primaryUpgrade(ctx, env, primary.DBInstanceID)
		// A new read-only instance runs its primary's engine and version.
		in.Facts.Parameters = ReadParameterFacts(ctx, env, in.Desired.Parameters,
			ParameterQuery{Engine: primary.Engine, Version: in.Desired.EngineVersion.Or(string(primary.EngineVersion))})
	}
	if failed != nil {
		in.Facts.Parameters = groupFacts(*failed, group.ID)
	}
}

// primaryUpgrade is the major version the primary's upgrade waiting for its window goes to; a
// failed read leaves it out with a warning in the log (the cloud then refuses the upgrade in the
// window, as before this check).
func primaryUpgrade(ctx context.Context, env Env, primary string) string {
	to, err := ScheduledEngineUpgrade(ctx, env.API, primary)
	if err != nil {
		tflog.Warn(ctx, "reading the primary's scheduled upgrade failed", map[string]any{"primary": primary, "error": err.Error()})
	}
	return to
}

// primaryScheduled is the primary's toggle waiting for its window: the one this run's plan of the
// primary defers, else, when it can turn this read-only instance on (both off now), the one the
// cloud holds, possible when the primary's plan may cancel its task (sweep seed 52, issue 39 §4). A
// failed read leaves it out (the primary's own plan names the followers it turns on).
func primaryScheduled(ctx context.Context, env Env, primary ExistingInstance, prior *ExistingInstance) *ScheduledFlag {
	planned := env.Ledger.Primary(primary.ID)
	if planned.Scheduled != nil {
		return planned.Scheduled
	}
	if planned.ReplacesTask || primary.Enabled || (prior != nil && prior.Enabled) {
		return nil
	}
	task, err := PendingTask(ctx, env.API, primary.ID)
	if err != nil {
		tflog.Warn(ctx, "reading the primary's scheduled change failed", map[string]any{"primary": primary.ID, "error": err.Error()})
		return nil
	}
	flag := ScheduledFlagOf(task)
	if flag != nil {
		flag.MayBeCancelled = planned.TaskMayBeCancelled
	}
	return flag
}

// readDiskFloor reads the read-only instance's disk when its prior storage is below its primary's
// (the cloud may have grown it with the primary's autoscaling) and makes it the storage floor.
func readDiskFloor(ctx context.Context, env Env, id string, primary *rdsapi.DBInstanceAttribute, in PlanInput) PlanInput {
	if in.Prior == nil || len(in.Replace) > 0 || int64(primary.DBInstanceStorage) <= in.Prior.Storage {
		return in
	}
	attr, err := env.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return in // the plan checks the state's storage, as before
	}
	return ReadOnlyDiskFloor(in, int64(attr.DBInstanceStorage))
}

// readOnlyClasses asks the class catalogue about a new read-only instance or a class change.
// Read-only classes (mysqlro.*) are offered with the HighAvailability category (simulator README).
func readOnlyClasses(ctx context.Context, env Env, req InstanceRequest, in PlanInput, primary *rdsapi.DBInstanceAttribute) *ClassFacts {
	class, q := in.Desired.InstanceClass, req.ReadOnly
	if primary == nil || !class.IsKnown() || (in.Prior != nil && q.StateClass.Is(class.Value())) {
		return nil
	}
	storageType := primary.DBInstanceStorageType
	if c := q.StorageTypeConfig; c.IsKnown() {
		storageType = c.Value()
	} else if c.IsUnknown() {
		return nil
	}
	if in.Prior != nil {
		storageType = in.Desired.StorageType.Or("")
	}
	return env.Classes.ClassFacts(ctx, env.API, rdsapi.DescribeAvailableClassesRequest{RegionID: env.Region,
		InstanceChargeType: rdsapi.PayTypePostpaid, ZoneID: req.Zone.Or(primary.ZoneID), Engine: primary.Engine,
		EngineVersion: string(primary.EngineVersion), DBInstanceStorageType: storageType, Category: "HighAvailability"})
}
