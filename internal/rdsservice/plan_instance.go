package rdsservice

import (
	"context"
	"slices"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// PlanInstance is the one call that plans an rds_instance: it reads the facts the change needs
// (bounded by ctx), decides, plans the computed values and records in the run's ledger what the
// plans that follow (its read-only instances, clones of it) need.

// Env is what a plan reads the cloud through: the API, the region, the cloud's clock, the
// process's caches, the run's ledger and the create journal.
type Env struct {
	API    rdsapi.API
	Region string
	// Now is the cloud's clock now.
	Now       func() time.Time
	Classes   *Catalogue
	Templates *TemplateCache
	Ledger    *Ledger
	// Journal is the create journal of the working directory (nil: none); create_interrupted_plan.go.
	Journal *CreateJournal
}

// InstanceRequest is one plan of an rds_instance in typed values.
type InstanceRequest struct {
	// Input is the planner's input as the configuration, the proposed values and the prior state
	// (private state included) give it; PlanInstance reads the facts named below into it.
	Input PlanInput
	// ID is the instance's id ("" for a create); Input.Prior.ID is its label in messages.
	ID string
	// Replaced lists the attributes whose change makes Terraform replace the instance.
	Replaced []string
	// Proposed are the computed values as Terraform proposes them (PlannedValues start from them).
	Proposed ProposedValues
	// CloneSource is restore_from.source_instance_id of a new clone ("": none, or not known yet).
	CloneSource string
	// CrossRestore is a new clone's cross-region backup (nil: none, or not known yet); cross_restore.go.
	CrossRestore *CrossRestore
	// Zone and PriorZone are the planned and the prior zone_id (the class catalogue is per zone).
	Zone, PriorZone Val[string]
	// PriorPlacement and VPC are the prior state's zones, vSwitch and VPC (a zone move reads where
	// the instance runs now).
	PriorPlacement Placement
	VPC            string
	// Parameters names the parameter facts to read (parameters.go), Group the parameter group.
	Parameters ParameterQuery
	Group      GroupQuery
	// KeepPolicy is the prior state's released_keep_policy, which a replacement's release sends.
	KeepPolicy string
	// ReadOnly is what a read-only instance's plan reads of its primary (Input.Role RoleReadOnly).
	ReadOnly ReadOnlyQuery
	// PriorSecurity is an existing primary's SSL and TDE in its state (security_facts.go).
	PriorSecurity *SecurityState
}

// InstancePlan is the plan of an instance: the decision, the planned computed values (zero for a
// replacement) and the facts that could not be read.
type InstancePlan struct {
	Decision
	Values       PlannedValues
	ReadFailures []ReadFailure
	// Primary is a read-only instance's primary as the plan read it (nil: none yet).
	Primary *rdsapi.DBInstanceAttribute
	// Stopped: a fact the plan needs is refused (Decision.Problems); nothing else is decided.
	Stopped bool
}

// PlanInstance plans one rds_instance or rds_readonly_instance (see InstanceRequest).
func PlanInstance(ctx context.Context, env Env, req InstanceRequest) InstancePlan {
	if req.Input.Role == RoleReadOnly {
		return planReadOnly(ctx, env, req) // plan_readonly_facts.go
	}
	in, failures := InstanceInput(ctx, env, req)
	dec := Plan(in)
	out := InstancePlan{Decision: dec, ReadFailures: failures}
	if dec.Action == ActionReplace {
		// Terraform plans the new instance in a second call, without prior state.
		env.Ledger.RecordReplaced(req.ID, in.Desired.Storage)
		return out
	}
	out.Values = planValues(in, req.Proposed, dec)
	if in.Prior != nil {
		recordPrimary(env.Ledger, req.ID, in, dec)
		out.Problems = append(out.Problems, PrimaryPreparedStmt(ctx, env, req.ID, in)...)                // proxy_prepared_stmt.go
		out.Problems = append(out.Problems, ProxySpecChange(ctx, env, req.ID, in.Label, req.ID, dec)...) // proxy_spec_change.go
	}
	return out
}

// InstanceInput is the planner's input of req with the facts its change needs read from the
// cloud (the apply decides from it again, and its executor runs from it).
func InstanceInput(ctx context.Context, env Env, req InstanceRequest) (PlanInput, []ReadFailure) {
	in := req.Input
	in.Replace = req.Replaced
	var failures []ReadFailure
	group, failed := readGroup(ctx, env, req.Group)
	if failed != nil {
		group, failures = nil, []ReadFailure{*failed} // the plan goes on without the group
	}
	in.Desired.Parameters.Group = group
	failures = append(failures, readEndpointFacts(ctx, env, req.ID, in.Prior != nil, &in.Desired.Endpoints)...)
	if req.PriorSecurity != nil {
		failures = append(failures, readSecurityFacts(ctx, env, req.ID, *req.PriorSecurity, &in)...)
	}
	switch {
	case in.Prior == nil && req.CrossRestore != nil:
		readCrossRestore(ctx, env, *req.CrossRestore, &in)
	case in.Prior == nil:
		if req.CloneSource != "" {
			readCloneSource(ctx, env, req.CloneSource, &in)
		}
	case len(in.Replace) == 0:
		failures = append(failures, readMinorFacts(ctx, env, req.ID, &in)...)
		failures = append(failures, readSQLAuditPrior(ctx, env, req.ID, &in)...)
		readReadOnlyFacts(ctx, env, req.ID, &in)
		if movesZone(in.Desired.Placement, req.PriorPlacement) {
			readPlacementFacts(ctx, env, req.ID, req.PriorPlacement, req.VPC, &in)
		}
	default:
		failures = append(failures, readMinorFacts(ctx, env, req.ID, &in)...)
		failures = append(failures, readReleaseFacts(ctx, env, req.ID, req.KeepPolicy, &in)...)
	}
	in.Facts.Parameters = ReadParameterFacts(ctx, env, in.Desired.Parameters, req.Parameters)
	if in.Prior == nil || len(in.Replace) == 0 {
		in.Facts.Classes = askClasses(ctx, env, in, req.Zone, req.PriorZone)
	}
	in.Facts.Now = env.Now() // cloudNow: after the reads, whose answers set the clock to the cloud's
	return in, failures
}

// askClasses asks the class catalogue for a new instance, or when the class, storage type, zone or
// edition changes (nil: not asked, or a value it needs is not known yet).
func askClasses(ctx context.Context, env Env, in PlanInput, zone, priorZone Val[string]) *ClassFacts {
	d, p := in.Desired, in.Prior
	if p != nil && d.InstanceClass.Is(p.InstanceClass) && d.StorageType.Is(p.StorageType) && zone == priorZone && d.Category.Is(p.Category) {
		return nil
	}
	if !d.Engine.IsKnown() || !d.EngineVersion.IsKnown() || !d.StorageType.IsKnown() || !d.Category.IsKnown() || !d.InstanceClass.IsKnown() {
		return nil
	}
	z := zone.Or("")
	if p != nil && z == "" {
		z = priorZone.Or("")
	}
	return env.Classes.ClassFacts(ctx, env.API, rdsapi.DescribeAvailableClassesRequest{
		RegionID: env.Region, InstanceChargeType: rdsapi.PayTypePostpaid,
		ZoneID: z, Engine: d.Engine.Value(), EngineVersion: d.EngineVersion.Value(),
		DBInstanceStorageType: d.StorageType.Value(), Category: d.Category.Value(),
	})
}

// recordPrimary records what the read-only instances of an existing primary plan against in this
// run: the flag they will see, the storage, a deferred toggle, the minor version upgrade they
// restart with, a zone move in the window, a replaced pending task, the followers it names.
func recordPrimary(l *Ledger, id string, in PlanInput, dec Decision) {
	flag := dec.AtomicWrite
	if dec.Deferred && flag.IsKnown() {
		// Nothing changes during this apply: read-only instances plan with the current value. A
		// value known only at apply stays unknown: turned on, it waits for the window with the rest,
		// and the read-only instances follow it there (their plans name that possible restart).
		flag = Known(in.Prior.Enabled)
	}
	planned := PrimaryPlan{AtomicWrite: flag, Storage: in.Desired.Storage, Minor: PlannedMinorFollow(dec, id),
		ZoneMoveInWindow: dec.Deferred && dec.ZoneMove != nil, ReplacesTask: replacesPendingTask(dec), TaskMayBeCancelled: taskRestartPossible(dec)}
	planned.Scheduled = PlannedScheduledFlag(dec, in.Facts.Now)
	if flag.IsUnknown() {
		planned.UnknownFlagStartsAt = ownWindowStart(in)
	}
	l.RecordPrimary(id, planned)
	l.RecordFollowers(id, dec.Followers)
}

// taskRestartPossible: the plan names the restart of the instance's waiting task as possible.
func taskRestartPossible(dec Decision) bool {
	return slices.ContainsFunc(dec.Restarts, func(r Restart) bool { return r.Task != "" && r.Possible })
}

// replacesPendingTask: the program sends a ModifyDBInstanceSpec for the window. A primary's
// toggle waiting for its window turns its read-only instances on there, so a read-only instance's
// plan names that restart from the cloud's pending task; when this run's plan of the primary
// sends a spec order for the window, that order replaces the cloud's task, and the read-only
// instance follows only the toggle the new order carries (PrimaryPlan.Scheduled), if any. Found
// trying combinations as a user (issue 23): setting the primary back named a follow restart that
// never came, and prevent_restart on the read-only instance refused the cancel.
func replacesPendingTask(dec Decision) bool {
	return dec.Program.sendsSpecOrder(func(op Operation) bool { return op.When == WhenInWindow })
}
