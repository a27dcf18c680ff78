package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The executor: one runner of the planner's program (program.go) for every instance resource
// (primary, clone, read-only). It talks to the API and the Waiter only. Before every write to an
// existing instance (a spec order, a ModifyParameter, a settings call) it reads the instance again
// and, when the instance changed since the plan, decides again with the same planner: a write the
// planner now refuses is not sent (changed-since-plan; executor_recheck.go).

// CreateRequest is the create a program starts with: exactly one request is set.
type CreateRequest struct {
	Instance *rdsapi.CreateDBInstanceRequest
	Clone    *rdsapi.CloneDBInstanceRequest
	// Ddr restores a cross-region backup (CreateDdrInstance; cross_restore.go).
	Ddr      *rdsapi.CreateDdrInstanceRequest
	ReadOnly *rdsapi.CreateReadOnlyDBInstanceRequest
	// Primary is the read-only instance's primary as read before the create.
	Primary *rdsapi.DBInstanceAttribute
	// AdoptID is the instance an interrupted apply created for this resource (issue 29, see
	// create_journal.go): the create takes it over instead of sending a request.
	AdoptID string
}

// Execution is what the executor runs.
type Execution struct {
	// Plan is what Decision was decided from; the executor decides again from it, with the
	// instance as it is, when the instance changed since the plan.
	Plan     PlanInput
	Decision Decision
	// ID is the existing instance's id; empty for a create.
	ID     string
	Create CreateRequest
	// Settings are the planned in-place settings; Current the instance's as the state has them
	// (nil: read from the instance).
	Settings Settings
	Current  *Settings
	// TargetClass and TargetStorage are the planned class and storage: an order for the window
	// carries the whole target (a later order replaces a pending one).
	TargetClass   string
	TargetStorage int64
	// Accepted is called as soon as the cloud accepted a create, also when no answer came back
	// (the id was found by its token): the caller records the instance at once.
	Accepted func(id string)
	// Action is the provider-defined action whose program this is (action_program.go); nil for a
	// resource's apply.
	Action *ActionPlan
	// BackupPolicy is the rds_backup_policy apply whose program this is (backup_policy_program.go).
	BackupPolicy *BackupPolicyPlan
	// Access is the access resource's apply whose program this is (executor_access.go).
	Access *AccessApply
	// ParameterGroup is the rds_parameter_group apply whose program this is (parameter_group_program.go).
	ParameterGroup *ParameterGroupPlan
	// Proxy is the rds_db_proxy apply whose program this is (proxy_program.go).
	Proxy *ProxyPlan
	// Destroy is the destroy whose program this is (destroy_program.go, executor_destroy.go).
	Destroy *DestroyPlan
}

// Outcome is what an execution did.
type Outcome struct {
	ID string
	// Instance is the instance as last read (nil when it never was).
	Instance *rdsapi.DBInstanceAttribute
	// Usable: the instance exists and was Running (a create that failed later is incomplete,
	// not broken).
	Usable bool
	// Step names the failed operation; Err is its error.
	Step string
	Err  error
	// Scheduled is the task waiting for the maintenance window after this apply deferred
	// something (Deferred); nil when the cloud holds none.
	Deferred  bool
	Scheduled *rdsapi.HistoryTask
	// ChangedNow: a spec order went out for now, or the instance restarted during this apply:
	// a change that waited for the window is superseded.
	ChangedNow bool
	// Backup is the set an OpCreateBackup made (backup_program.go).
	Backup *rdsapi.Backup
}

// Execute runs the decision's program.
func Execute(ctx context.Context, api rdsapi.API, w *Waiter, e Execution) Outcome {
	x := &executor{api: api, w: w, e: e, out: Outcome{ID: e.ID, Usable: e.ID != ""}, current: e.Current}
	for _, op := range e.Decision.Program.Operations {
		if err := x.run(ctx, op); err != nil {
			x.out.Err, x.out.Step = err, x.stepOf(op)
			return x.out
		}
	}
	if err := x.finish(ctx); err != nil {
		x.out.Err, x.out.Step = err, "reading the instance after the apply"
	}
	return x.out
}

type executor struct {
	api rdsapi.API
	w   *Waiter
	e   Execution
	out Outcome
	// current is the instance's in-place settings as last known; stale when a write may have
	// changed the instance since it was last read.
	current *Settings
	stale   bool
	// seen is the instance as this apply last read it after one of its own writes (nil: as
	// the plan saw it); executor_recheck.go.
	seen *ExistingInstance
	// gone: a destroy found the instance released (executor_destroy.go).
	gone bool
}

func (x *executor) stepOf(op Operation) string {
	if step := x.destroyOrBackupStep(op); step != "" {
		return step
	}
	switch op.Action {
	case OpCreate, OpClone, OpCreateDdr, OpCreateReadOnly:
		return "waiting for the instance to be ready"
	case OpModifyParameter:
		return "setting the parameters"
	case OpModifySpec:
		switch {
		case op.When == WhenAfterCreate && x.e.Plan.Role == RoleClone:
			return "configuring the clone as planned"
		case op.When == WhenAfterCreate:
			return "turning on 16K atomic write"
		}
		return "changing the spec"
	case OpModifyMaintainTime:
		return "setting the maintenance window"
	case OpWaitWindowTasks:
		return "waiting for the tasks of the maintenance window, which is open now"
	case OpWaitFollowsPrimary, OpWaitFollowerToggled:
		return "waiting for a read-only instance to follow its primary"
	case OpWaitUnlocked:
		return "waiting for the storage growth to lift the disk-quota lock"
	case OpModifySSL:
		return "setting ssl_enabled"
	case OpModifyTDE:
		return "turning on TDE"
	case OpUpgradeEngineVersion:
		return "upgrading the major version"
	case OpUpgradeKernelVersion, OpWaitMinorFollower, OpModifyAutoUpgradeMinor:
		return "upgrading the minor version"
	case OpMigrateToOtherZone:
		return "moving the instance to another zone"
	case OpTags, OpModifyResourceGroup:
		return "setting the tags and resource group"
	case OpStorageAutoScale:
		return "setting storage_auto_scale"
	case OpSecurityIPGroups:
		return "setting security_ip_groups"
	case OpSecurityGroups:
		return "setting security_group_ids"
	case OpWhitelistTemplates:
		return "setting whitelist_template_ids"
	case OpSQLAudit:
		return "setting sql_audit"
	case OpMonitor:
		return "setting monitoring_period"
	case OpHASwitch:
		return "setting ha_config"
	case OpSyncMode:
		return "setting sync_mode"
	case OpModifyConnectionString, OpAllocatePublic, OpReleasePublic:
		return "changing the endpoints"
	case OpTransformPayType, OpModifyAutoRenewal:
		return "changing the billing"
	case OpRestartInstance, OpSwitchDBInstanceHA, OpApplyPendingNow, OpRenewInstance:
		return "running " + x.e.Action.Request.Name
	case OpModifyBackupPolicy:
		return "changing the backup policy (" + op.BackupPolicy.Mode() + ")"
	case OpCreateParameterGroup, OpModifyParameterGroup, OpDeleteParameterGroup:
		return op.Action + " " + x.e.ParameterGroup.Request.Desired.Name
	case OpStartProxy, OpResizeProxy, OpProxyConnections, OpProxyEndpoint, OpProxySSL, OpShutdownProxy, OpCreateProxyEndpoint, OpDeleteProxyEndpoint, OpAwaitProxy, OpProxyEndpointAddress:
		return op.Action + " on " + op.Instance
	case OpCreateAccount, OpModifyAccountDescription, OpResetAccountPassword, OpDeleteAccount, OpCreateDatabase, OpModifyDBDescription,
		OpDeleteDatabase, OpGrantAccountPrivilege, OpRevokeAccountPrivilege:
		return op.Action + " " + op.Access.Name + " on " + op.Access.InstanceID
	}
	return "setting the name, allow-list and deletion protection"
}

func (x *executor) run(ctx context.Context, op Operation) error {
	if x.e.Destroy != nil {
		return x.destroy(ctx, op)
	}
	switch op.Action {
	case OpCreate, OpClone, OpCreateDdr, OpCreateReadOnly:
		return x.create(ctx)
	case OpModifyParameter:
		if err := x.recheckBeforeWrite(ctx); err != nil {
			return err
		}
		return x.parameters(ctx, op)
	case OpModifySpec:
		return x.spec(ctx, op)
	case OpModifyMaintainTime:
		return x.settings(ctx, Settings{MaintenanceWindow: x.e.Settings.MaintenanceWindow})
	case OpModifySettings:
		want := x.e.Settings
		want.MaintenanceWindow = nil
		return x.settings(ctx, want)
	case OpWaitFollowsPrimary:
		return x.waitFlag(ctx, x.out.ID, op)
	case OpWaitFollowerToggled:
		return x.waitFlag(ctx, op.Instance, op)
	case OpWaitUnlocked:
		return x.waitUnlocked(ctx)
	case OpPendingTask:
		return nil // the cloud runs it in the window
	case OpWaitWindowTasks:
		return x.waitWindowTasks(ctx)
	case OpSwitchover:
		return nil // the end of the spec change the executor waited for
	case OpModifySSL, OpModifyTDE:
		return x.security(ctx, op)
	case OpUpgradeEngineVersion:
		return x.upgrade(ctx, op)
	case OpUpgradeKernelVersion, OpWaitMinorFollower, OpModifyAutoUpgradeMinor:
		return x.minorVersion(ctx, op)
	case OpMigrateToOtherZone:
		return x.zoneMove(ctx, op)
	case OpTags, OpModifyResourceGroup:
		return x.tags(ctx, op)
	case OpStorageAutoScale:
		return x.storageAutoScale(ctx, op)
	case OpSecurityIPGroups:
		return x.securityIPGroups(ctx, op)
	case OpSecurityGroups:
		return x.securityGroups(ctx, op)
	case OpWhitelistTemplates:
		return x.templateLinks(ctx, op)
	case OpSQLAudit:
		return x.sqlAudit(ctx, op)
	case OpMonitor:
		return x.monitor(ctx, op)
	case OpHASwitch:
		return x.haSwitch(ctx, op)
	case OpSyncMode:
		return x.syncMode(ctx, op)
	case OpModifyConnectionString, OpAllocatePublic, OpReleasePublic:
		return x.endpoint(ctx, op)
	case OpTransformPayType, OpModifyAutoRenewal:
		return x.billing(ctx, op)
	case OpRestartInstance, OpSwitchDBInstanceHA, OpApplyPendingNow, OpRenewInstance:
		return x.action(ctx, op)
	case OpModifyBackupPolicy:
		return x.backupPolicy(ctx, op)
	case OpCreateParameterGroup, OpModifyParameterGroup, OpDeleteParameterGroup:
		return x.parameterGroup(ctx, op)
	case OpStartProxy, OpResizeProxy, OpProxyConnections, OpProxyEndpoint, OpProxySSL, OpShutdownProxy, OpCreateProxyEndpoint, OpDeleteProxyEndpoint, OpAwaitProxy, OpProxyEndpointAddress:
		return x.proxy(ctx, op)
	case OpCreateAccount, OpModifyAccountDescription, OpResetAccountPassword, OpDeleteAccount, OpCreateDatabase, OpModifyDBDescription,
		OpDeleteDatabase, OpGrantAccountPrivilege, OpRevokeAccountPrivilege:
		return x.access(ctx, op)
	case OpCreateBackup, OpDeleteBackup:
		return x.backup(ctx, op)
	}
	return fmt.Errorf("the program holds an operation the executor does not know: %s", op.Action)
}

// create sends the create and waits until the instance is Running (with the planned flag for a
// primary created with it).
func (x *executor) create(ctx context.Context) error {
	c := x.e.Create
	var id string
	var err error
	switch {
	case c.AdoptID != "":
		id = c.AdoptID
	case c.Clone != nil:
		id, err = CloneDBInstance(ctx, x.api, x.w, c.Clone)
	case c.Ddr != nil:
		id, err = CreateDdrInstance(ctx, x.api, x.w, c.Ddr)
	case c.ReadOnly != nil:
		id, err = CreateReadOnlyDBInstance(ctx, x.api, x.w, c.Primary, c.ReadOnly)
	default:
		id, err = CreateDBInstance(ctx, x.api, x.w, c.Instance)
	}
	if id != "" {
		x.out.ID = id
		if x.e.Accepted != nil {
			x.e.Accepted(id)
		}
	}
	if err != nil {
		return &CreateError{Err: err}
	}
	if id == "" {
		return &CreateError{Err: errors.New("the cloud accepted the request but returned no DBInstanceId")}
	}
	var attr *rdsapi.DBInstanceAttribute
	if want := c.Instance; want != nil && want.OptimizedWrites != "" {
		attr, err = x.w.WaitRunningWithFlag(ctx, id, want.OptimizedWrites == rdsapi.OptimizedWritesOn)
	} else {
		attr, err = x.w.WaitRunning(ctx, id)
	}
	if err != nil {
		// Running by now (without the planned flag, or just after the deadline) is usable.
		x.out.Instance, x.out.Usable = runningNow(ctx, x.api, id)
		return err
	}
	x.read(attr)
	x.out.Usable = true
	return nil
}

// CreateError is a create the cloud refused, or whose outcome is unknown: nothing usable exists.
type CreateError struct{ Err error }

func (e *CreateError) Error() string { return e.Err.Error() }
func (e *CreateError) Unwrap() error { return e.Err }

// afterStopBudget bounds the read that tells whether an instance is usable after its create's
// wait failed: it runs after the deadline or an interruption, so it has its own short budget.
const afterStopBudget = time.Minute

// AfterStop is a context for reading an instance once more after ctx ended (deadline or Ctrl-C).
func AfterStop(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), afterStopBudget)
}

func runningNow(ctx context.Context, api rdsapi.API, id string) (*rdsapi.DBInstanceAttribute, bool) {
	rctx, cancel := AfterStop(ctx)
	defer cancel()
	attr, err := api.DescribeDBInstanceAttribute(rctx, id)
	if err != nil || attr == nil || attr.DBInstanceStatus != StatusRunning {
		return nil, false
	}
	return attr, true
}

func (x *executor) read(attr *rdsapi.DBInstanceAttribute) {
	x.out.Instance, x.stale = attr, false
	x.seeAfterWrite()
	if x.e.Current == nil || x.current == nil {
		s := SettingsOf(attr)
		x.current = &s
	}
}

// parameters sends the parameters: for the window, or now with a restart of their own unless a
// spec change of this apply shares its restart.
func (x *executor) parameters(ctx context.Context, op Operation) error {
	p := op.Parameters
	if op.When == WhenInWindow {
		x.out.Deferred = true
		return ScheduleParameters(ctx, x.api, x.w, x.out.ID, p.ParameterPlan)
	}
	force := p.NeedsRestart() && !p.SharesRestart
	attr, err := ApplyParameters(ctx, x.api, x.w, x.out.ID, p.ParameterPlan, force)
	if err != nil {
		return err
	}
	x.read(attr)
	x.out.ChangedNow = x.out.ChangedNow || force
	return nil
}

func (x *executor) settings(ctx context.Context, want Settings) error {
	if x.current == nil || (x.e.Current == nil && x.stale) {
		attr, err := x.w.WaitRunning(ctx, x.out.ID)
		if err != nil {
			return err
		}
		x.read(attr)
	}
	if !want.Changes(*x.current) {
		return nil
	}
	if err := x.recheckBeforeWrite(ctx); err != nil {
		return err
	}
	sent, err := want.Apply(ctx, x.api, x.w, x.out.ID, *x.current)
	if sent {
		x.stale = true
		merged := *x.current
		if want.Name != nil && *want.Name != "" {
			merged.Name = want.Name
		}
		if want.SecurityIPs != nil {
			merged.SecurityIPs = want.SecurityIPs
		}
		if want.DeletionProtection != nil {
			merged.DeletionProtection = want.DeletionProtection
		}
		if want.MaintenanceWindow != nil {
			merged.MaintenanceWindow = want.MaintenanceWindow
		}
		x.current = &merged
	}
	return err
}

func (x *executor) waitFlag(ctx context.Context, id string, op Operation) error {
	if op.When == WhenInWindow {
		return nil // the cloud restarts it in the window; nothing waits for that
	}
	attr, err := x.w.WaitRunningWithFlag(ctx, id, *op.Flag)
	if err != nil {
		return fmt.Errorf("%s: %w", id, err)
	}
	if id == x.out.ID {
		x.read(attr)
		x.out.ChangedNow = true
	}
	return nil
}

// finish reads the instance once more when a write may have changed it since the last read.
func (x *executor) finish(ctx context.Context) error {
	if x.out.Deferred {
		task, err := PendingTask(ctx, x.api, x.out.ID)
		if err != nil {
			return fmt.Errorf("the change was scheduled for the maintenance window, but DescribeHistoryTasks failed: %w", err)
		}
		x.out.Scheduled = task
	}
	if (x.out.Instance != nil && !x.stale) || x.e.BackupPolicy != nil || x.e.Access != nil || x.e.ParameterGroup != nil || x.e.Proxy != nil || x.e.endsWithoutRead() { // a policy or access change leaves the instance as it is
		return nil
	}
	attr, err := x.w.WaitRunning(ctx, x.out.ID)
	if err != nil {
		return err
	}
	x.read(attr)
	return nil
}
