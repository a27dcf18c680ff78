package rdsservice

import (
	"slices"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The program: what an apply will do, derived by the planner from the facts and the decision
// alone. Each operation names the instance, the API action and its parameters, when it happens
// and what it does to the instance. The plan's restart messages are rendered from it
// (Program.Restarts) and the executor (executor.go) runs it, so the plan shows what the apply sends.

// When is when an operation takes effect.
type When string

const (
	WhenNow         When = "now"
	WhenAfterCreate When = "right after creation"
	WhenInWindow    When = "in the maintenance window"
)

// Effect is what an operation does to the instance's service.
type Effect string

const (
	EffectNone        Effect = "none"
	EffectRestart     Effect = "restart"
	EffectReplacement Effect = "replacement"
	EffectSwitchover  Effect = "switchover"
)

// Operation kinds: API actions, and the waits for the cloud's own follow-up of another one.
const (
	OpCreate               = "CreateDBInstance"
	OpClone                = "CloneDBInstance"
	OpCreateDdr            = "CreateDdrInstance"
	OpCreateReadOnly       = "CreateReadOnlyDBInstance"
	OpDelete               = "DeleteDBInstance"
	OpModifyParameter      = "ModifyParameter"
	OpModifySpec           = "ModifyDBInstanceSpec"
	OpModifyMaintainTime   = "ModifyDBInstanceMaintainTime"
	OpModifySettings       = "ModifyDBInstanceDescription/ModifySecurityIps/ModifyDBInstanceDeletionProtection"
	OpWaitFollowsPrimary   = "wait: follows its primary's 16K atomic write"
	OpWaitFollowerToggled  = "wait: read-only instance follows this primary"
	OpUpgradeEngineVersion = "UpgradeDBInstanceEngineVersion"
	OpMigrateToOtherZone   = "MigrateToOtherZone"
)

// Operation is one step of a program.
type Operation struct {
	// Instance is the instance's id, or the label of one this apply creates.
	Instance string
	Action   string
	When     When
	Effect   Effect
	// Spec is a ModifyDBInstanceSpec's changes; CancelsPending marks the order that sends the
	// instance's own spec to cancel a change waiting for the window.
	Spec           *SpecOrder
	CancelsPending bool
	// Flag is the 16K atomic write value a toggle after creation sets, or a wait expects.
	Flag *bool
	// Parameters is what a ModifyParameter sends.
	Parameters *ParameterDecision
	// Restart is the restart this operation causes, as the plan announces it; nil when none.
	Restart *Restart
	// Upgrade is what an UpgradeDBInstanceEngineVersion sends.
	Upgrade *EngineUpgrade
	// Tags and ResourceGroup are what an OpTags or OpModifyResourceGroup sends (tags_program.go).
	Tags          *TagChange
	ResourceGroup string
	// AutoUpgradeMinor is what an OpModifyAutoUpgradeMinor sends (minor_version_program.go).
	AutoUpgradeMinor string
	// ZoneMove is what a MigrateToOtherZone sends (zone_program.go).
	ZoneMove *ZoneMove
	// AutoScale is what an OpStorageAutoScale sends (storage_autoscale_rules.go).
	AutoScale *rdsapi.StorageAutoScale
	// SQLAudit is what an OpSQLAudit sends (sql_audit_rules.go).
	SQLAudit *rdsapi.SQLAudit
	// MonitorPeriod is what an OpMonitor sends (monitoring_rules.go; 0 while known only at apply).
	MonitorPeriod int64
	// HASwitch is what an OpHASwitch sends (ha_switch_rules.go).
	HASwitch *rdsapi.HASwitch
	// SyncMode is what an OpSyncMode sends (sync_mode_rules.go; empty while known only at apply).
	SyncMode string
	// Endpoint is what an endpoint operation sends (endpoint_rules.go).
	Endpoint *EndpointChange
	// Billing is what an OpTransformPayType or OpModifyAutoRenewal sends (billing_program.go).
	Billing *Billing
	// Node is the node an OpSwitchDBInstanceHA makes the primary; Pending the task an
	// OpApplyPendingNow runs now (action_program.go).
	Node    string
	Pending *ScheduledTask
	// BackupPolicy is what an OpModifyBackupPolicy sends (backup_policy_program.go).
	BackupPolicy *BackupPolicyCall
	// Access is what an access operation sends (access_program.go).
	Access *AccessCall
	// IPGroups is what an OpSecurityIPGroups sends (ip_groups.go).
	IPGroups *IPGroupsCall
	// SecurityGroups is what an OpSecurityGroups sends (security_groups.go).
	SecurityGroups *SecurityGroupsCall
	// TemplateLinks is what an OpWhitelistTemplates sends (whitelist_template.go).
	TemplateLinks *TemplateLinksCall
	// Keep is the released_keep_policy an OpDelete of a destroy sends (destroy_program.go);
	// Backup and BackupID what an OpCreateBackup or OpDeleteBackup sends (backup_program.go).
	Keep     string
	Backup   *BackupCreate
	BackupID string
}

// Program is the ordered operations of one apply.
type Program struct {
	Operations []Operation
}

// sendsSpecOrder reports whether the program sends a ModifyDBInstanceSpec that meets also (nil: any).
func (p Program) sendsSpecOrder(also func(Operation) bool) bool {
	return slices.ContainsFunc(p.Operations, func(op Operation) bool { return op.Action == OpModifySpec && (also == nil || also(op)) })
}

// Restarts lists the restarts the program causes, in the order they happen.
func (p Program) Restarts() []Restart {
	var out []Restart
	for _, op := range p.Operations {
		if op.Restart != nil {
			out = append(out, *op.Restart)
		}
	}
	return out
}

// programOf derives the program from the planner's input and decision. Each of the decision's
// restarts is attached to the one operation that causes it.
func programOf(in PlanInput, d Decision) Program {
	b := programBuilder{in: in, d: d, restarts: append([]Restart(nil), d.Restarts...)}
	switch {
	case d.Action == ActionReplace:
		b.replace()
	case in.Prior == nil:
		b.create()
		b.minorVersion()
		b.security()
	default:
		b.resourceGroup(in.Label, WhenNow)  // first: before any restart (tags_program.go)
		b.minorVersion()                    // before TDE, which MySQL 5.6 allows from a minimum minor version on
		b.withdrawFirst(in.Label)           // before any restart, which would run the values they withdraw
		b.endpointsBeforeSecurity(in.Label) // when SSL turns on, its certificate is made for the new string (endpoint_ssl.go)
		b.security()                        // its restart is never deferred, so the plan's message leads with it
		b.update()
		b.waitWindowTasks()
	}
	b.cloudRestarts()
	return Program{Operations: b.ops}
}

// cloudRestarts: a restart no request of this apply causes (a read-only instance the cloud turns
// on when its primary's scheduled toggle runs, in the primary's window) is the cloud's own step of
// the program; the executor does not wait for it.
func (b *programBuilder) cloudRestarts() {
	for i := 0; i < len(b.restarts); i++ {
		switch r := b.restarts[i]; {
		case r.ByPrimary:
			on, when := true, WhenInWindow
			if r.When == "" { // the primary's window is open now: the apply waits for it (followsNow)
				when = WhenNow
			}
			b.add(Operation{Instance: r.InstanceID, Action: OpWaitFollowsPrimary, When: when, Flag: &on, Restart: &r})
		case r.Task != "":
			b.add(Operation{Instance: r.InstanceID, Action: OpPendingTask, When: WhenInWindow, Restart: &r})
		}
	}
}

type programBuilder struct {
	in       PlanInput
	d        Decision
	restarts []Restart
	ops      []Operation
}

func (b *programBuilder) add(op Operation) {
	if op.Effect == "" {
		op.Effect = EffectNone
	}
	if op.Restart != nil {
		op.Effect = EffectRestart
	}
	b.ops = append(b.ops, op)
}

// take removes and returns the first planned restart of instance (matched by the label the
// planner used) that an operation of this apply causes, or nil.
func (b *programBuilder) take(instance string) *Restart {
	for i, r := range b.restarts {
		if r.InstanceID == instance && !r.ByPrimary && r.Task == "" && r.Op == "" { // the cloud's own restart: cloudRestarts; Op: takeFor
			b.restarts = append(b.restarts[:i], b.restarts[i+1:]...)
			return &r
		}
	}
	return nil
}

// replacedBy is a replacement's program with its create step spelled out as the new instance's
// own program (its toggle after creation and that restart included).
func (p Program) replacedBy(created Program) Program {
	var out []Operation
	for _, op := range p.Operations {
		if op.Action != OpDelete {
			continue
		}
		out = append(out, op)
	}
	for _, op := range created.Operations {
		if op.Effect == EffectNone {
			op.Effect = EffectReplacement
		}
		out = append(out, op)
	}
	return Program{Operations: out}
}

func (b *programBuilder) replace() {
	label := b.in.Label
	b.add(Operation{Instance: label, Action: OpDelete, When: WhenNow, Effect: EffectReplacement})
	b.add(Operation{Instance: "the replacement of " + label, Action: createAction(b.in), When: WhenNow, Effect: EffectReplacement})
}

func createAction(in PlanInput) string {
	switch {
	case in.Role == RoleClone && in.Facts.CrossCopy != nil:
		return OpCreateDdr
	case in.Role == RoleClone:
		return OpClone
	case in.Role == RoleReadOnly:
		return OpCreateReadOnly
	}
	return OpCreate
}

// create: the create, the parameters, the toggle after creation (whose one restart applies the
// parameters that need one), then the settings CreateDBInstance cannot carry.
func (b *programBuilder) create() {
	label, d := b.in.Label, b.d
	b.add(Operation{Instance: label, Action: createAction(b.in), When: WhenNow})
	// A clone is brought to the planned flag and Buffer Pool Extension (the executor sends only
	// what the clone does not have); a read-only instance is toggled when the plan says so. The
	// parameters go first: the toggle's restart applies them.
	order := SpecOrder{AtomicWrite: d.ToggleAfterCreate}
	if b.in.Role == RoleClone && b.in.Desired.BufferPoolExtension.Is(true) {
		order.BufferPoolExtension = d.BufferPoolExtension.Ptr()
	}
	switch {
	case !order.Empty():
		b.parameters(label, WhenAfterCreate, nil)
		b.add(Operation{Instance: label, Action: OpModifySpec, When: WhenAfterCreate, Spec: &order, Flag: d.ToggleAfterCreate, Restart: b.take(label)})
	case b.in.Role == RoleClone:
		b.parameters(label, WhenAfterCreate, b.take(label))
		b.add(Operation{Instance: label, Action: OpModifySpec, When: WhenAfterCreate, Spec: &order})
	default:
		b.parameters(label, WhenAfterCreate, b.take(label))
	}
	b.add(Operation{Instance: label, Action: OpModifyMaintainTime, When: WhenAfterCreate})
	if b.in.Role != RolePrimary {
		// CreateDBInstance carries the name, allow-list and deletion protection; the others do not.
		b.add(Operation{Instance: label, Action: OpModifySettings, When: WhenAfterCreate})
	}
	b.tagOperations(label, WhenAfterCreate)
	b.autoScaleOperations(label, WhenAfterCreate)
	b.ipGroupOperations(label, WhenAfterCreate)
	b.securityGroupOperations(label, WhenAfterCreate)
	b.templateLinkOperations(label, WhenAfterCreate)
	b.sqlAuditOperations(label, WhenAfterCreate)
	b.monitorOperations(label, WhenAfterCreate)
	b.haSwitchOperations(label, WhenAfterCreate)
	b.syncModeOperations(label, WhenAfterCreate)
	b.endpointOperations(label, WhenAfterCreate)
	b.billingAfterSettings(label, WhenAfterCreate)
}

func (b *programBuilder) parameters(label string, when When, restart *Restart) {
	if len(b.d.Parameters.Send) == 0 && b.d.Parameters.GroupID == "" {
		return
	}
	p := b.d.Parameters
	b.add(Operation{Instance: label, Action: OpModifyParameter, When: when, Parameters: &p, Restart: restart})
}

// update: a conversion to pay-as-you-go goes first (it is the one write an instance locked by
// its expired subscription takes, and it lifts the lock for the others); a read-only instance
// then follows its primary's toggle (the cloud's restart); the maintenance window is set before
// anything waits for it; the parameters go before the spec order whose restart applies them; the
// followers' restarts come with the order.
func (b *programBuilder) update() {
	label, d := b.in.Label, b.d
	when := WhenNow
	if d.Deferred {
		when = WhenInWindow
	}
	b.billingBeforeSettings(label)
	if d.FollowsPrimary {
		on := true
		b.add(Operation{Instance: label, Action: OpWaitFollowsPrimary, When: WhenNow, Flag: &on, Restart: b.take(label)})
	}
	b.add(Operation{Instance: label, Action: OpModifyMaintainTime, When: WhenNow})
	b.upgrade(label, when)
	b.zoneMove(label, when)
	order, grow := d.Order, SpecOrder{}
	if d.Deferred {
		order, grow = b.growNow(order)
	}
	if order.Empty() {
		// No spec order restarts the instance (a deferred growth alone goes now, online): the
		// parameters' restart is their own, unless the cloud's earlier one applies them.
		b.parameters(label, when, b.parametersRestart(label))
	} else {
		b.parameters(label, when, nil)
	}
	if !grow.Empty() {
		b.add(Operation{Instance: label, Action: OpModifySpec, When: WhenNow, Spec: &grow})
	}
	if !order.Empty() {
		b.add(Operation{Instance: label, Action: OpModifySpec, When: when, Spec: &order, Flag: order.AtomicWrite, Restart: b.take(label)})
		if endsWithSwitchover(b.in, order) {
			b.add(Operation{Instance: label, Action: OpSwitchover, When: when, Effect: EffectSwitchover})
		}
	}
	if cancelsPending(b.in, d) {
		b.add(Operation{Instance: label, Action: OpModifySpec, When: WhenInWindow, Spec: &SpecOrder{}, CancelsPending: true})
	}
	for _, ro := range d.Followers {
		on := true
		b.add(Operation{Instance: ro, Action: OpWaitFollowerToggled, When: when, Flag: &on, Restart: b.take(ro + " (read-only instance)")})
	}
	b.billingOnceUnlocked(label)
	b.add(Operation{Instance: label, Action: OpModifySettings, When: WhenNow})
	b.billingAfterSettings(label, WhenNow)
	b.tagOperations(label, WhenNow)
	b.autoScaleOperations(label, WhenNow)
	b.ipGroupOperations(label, WhenNow)
	b.securityGroupOperations(label, WhenNow)
	b.templateLinkOperations(label, WhenNow)
	b.sqlAuditOperations(label, WhenNow)
	b.monitorOperations(label, WhenNow)
	b.haSwitchOperations(label, WhenNow)
	b.syncModeOperations(label, WhenNow)
	b.endpointsAfterSecurity(label)
}

// growNow splits a cloud-disk storage growth off a deferred order, to be sent now on its own: it
// happens online whatever EffectiveTime says (ModifyDBInstanceSpec reference), so it is not shown
// as waiting for the window. It returns the rest of the order and the growth.
func (b *programBuilder) growNow(order SpecOrder) (rest, grow SpecOrder) {
	prior := b.in.Prior
	if order.Storage == nil || order.StorageType != nil || *order.Storage <= prior.Storage || !cloudStorage(prior.StorageType) {
		return order, SpecOrder{}
	}
	grow = SpecOrder{Storage: order.Storage}
	order.Storage = nil
	return order, grow
}

// parametersRestart is the restart a deferred parameter change causes on its own: the planned
// restart of the instance, or nil when it is folded into the earlier follow of its primary's
// toggle (whose reasons then name the parameters too).
func (b *programBuilder) parametersRestart(label string) *Restart {
	own := b.take(label)
	if own == nil || !b.d.Deferred || !followComesFirst(b.in.Facts.PrimaryScheduled, b.d.DeferredStartsAt) {
		return own
	}
	for i, r := range b.restarts {
		if r.InstanceID == label && r.ByPrimary {
			b.restarts[i].Reasons = slices.Concat(r.Reasons, own.Reasons)
			return nil
		}
	}
	return own
}
