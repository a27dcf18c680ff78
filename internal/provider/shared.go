package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// providerDataFrom is what every resource's and data source's Configure does: nil while the
// provider is not configured yet (validation runs before it), an error for anything but
// *ProviderData.
func providerDataFrom(raw any, typeName string, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*ProviderData)
	if ok && data != nil && len(data.unknownSettings) > 0 {
		return data // not configured until apply: requireConfigured names the settings
	}
	if !ok || data == nil || data.API == nil || data.Waiter == nil {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("%s expected *provider.ProviderData, got %T. This is a bug in the provider; please report it.", typeName, raw))
		return nil
	}
	return data
}

// requireConfigured reports an error when an operation runs without a configured provider.
func requireConfigured(data *ProviderData, diags *diag.Diagnostics) bool {
	switch {
	case data == nil:
		diags.AddError("Provider not configured",
			"The rds provider is not configured: a provider setting is not known until apply (it is built from another "+
				"resource's attribute), or configuring it failed (see the error above). Check the provider configuration "+
				"(credentials, region, endpoint).")
		return false
	case data.API == nil:
		diags.AddError("Provider setting not known until apply", fmt.Sprintf("The rds provider setting(s) %s are built "+
			"from attributes of resources not applied yet, so the provider cannot call the API during this plan. Use "+
			"values known at plan time for them, or apply the resources they come from first (terraform apply -target=...).",
			"`"+strings.Join(data.unknownSettings, "`, `")+"`"))
		return false
	}
	return true
}

// deleteAndWait deletes an instance (retrying while it is busy; keep is its released_keep_policy,
// "" for none) and waits until it is gone, within
// ctx's deadline. Not found counts as deleted. A primary whose read-only instances are being
// deleted in the same run (Terraform deletes them in parallel when nothing orders them) waits for
// them first.
func deleteAndWait(ctx context.Context, data *ProviderData, id, keep string, diags *diag.Diagnostics) {
	release := func() error { return releaseInstance(ctx, data.API, id, keep) }
	err := data.Waiter.RetryBusy(ctx, release)
	if rdsapi.ErrorCode(err) == "OperationDenied.ReadOnlyInstanceExists" {
		err = waitReadOnlyGone(ctx, data, id)
		if err == nil {
			err = data.Waiter.RetryBusy(ctx, release)
		}
	}
	var stuck *rdsservice.InstanceStateError
	switch {
	case rdsapi.IsNotFound(err):
		return
	case errors.As(err, &stuck) && stuck.Status == rdsservice.StatusDeleting:
		// Released elsewhere already: what is left is waiting until it is gone.
	case rdsapi.ErrorCode(err) == "OperationDenied.DeletionProtection":
		addProblems(diags, rdsservice.PlanDestroy(id, true))
		return
	case err != nil:
		diags.AddError("Error deleting RDS instance", fmt.Sprintf("DeleteDBInstance %s: %s", id, operationError(ctx, err)))
		return
	}
	if err := data.Waiter.WaitDeleted(ctx, id); err != nil {
		diags.AddError("Error waiting for RDS instance deletion", operationError(ctx, err))
	}
}

// readOnlyDeleteGrace is how long a primary's delete waits for a read-only instance that is not
// being deleted yet: Terraform sends the deletes of unordered resources at about the same time.
const readOnlyDeleteGrace = 30 * time.Second

// waitReadOnlyGone waits until primary has no read-only instances. One that is still not being
// deleted after readOnlyDeleteGrace is an error naming it (the cloud never deletes it by itself).
func waitReadOnlyGone(ctx context.Context, data *ProviderData, primary string) error {
	start := data.Waiter.Now()
	var stuck error
	_, err := data.Waiter.WaitFor(ctx, primary, "its read-only instances to be deleted", func(a *rdsapi.DBInstanceAttribute) bool {
		for _, ro := range a.ReadOnlyDBInstanceIDs {
			roAttr, err := data.API.DescribeDBInstanceAttribute(ctx, ro)
			if err != nil || roAttr.DBInstanceStatus == "Deleting" || data.Waiter.Now().Sub(start) < readOnlyDeleteGrace {
				continue
			}
			stuck = fmt.Errorf("primary %s still has read-only instance %s (status %s): delete it first (rds_readonly_instance), "+
				"or reference the primary from it (master_instance_id = <primary resource>.id) so that Terraform deletes it first",
				primary, ro, roAttr.DBInstanceStatus)
			return true
		}
		return len(a.ReadOnlyDBInstanceIDs) == 0
	})
	if stuck != nil {
		return stuck
	}
	return err
}

// The conversions below turn a DescribeDBInstanceAttribute answer into attribute values, the same
// way for every resource and data source.

// attrArchitecture is InstructionSetArch, or the class family's architecture when the cloud
// leaves it out.
func attrArchitecture(a *rdsapi.DBInstanceAttribute) types.String {
	if a.InstructionSetArch != "" {
		return types.StringValue(a.InstructionSetArch)
	}
	return types.StringValue(rdsservice.Architecture(a.DBInstanceClass))
}

// attrPort parses Port (a string on the wire); empty is null, anything else that is not a number
// is an error rather than text in state.
func attrPort(a *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) types.Int64 {
	p := strings.TrimSpace(string(a.Port))
	if p == "" {
		return types.Int64Null()
	}
	n, err := strconv.ParseInt(p, 10, 64)
	if err != nil {
		diags.AddError("Unexpected answer from the RDS API", fmt.Sprintf("instance %s: Port %q is not a number", a.DBInstanceID, p))
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// attrAtomicWrite returns optimized_writes and init_optimized_writes. Engines without the feature
// have no OptimizedWritesInfo: off and not supported.
func attrAtomicWrite(a *rdsapi.DBInstanceAttribute) (enabled, supported types.Bool) {
	if a.OptimizedWrites == nil {
		return types.BoolValue(false), types.BoolValue(false)
	}
	return types.BoolValue(a.OptimizedWrites.Enabled), types.BoolValue(a.OptimizedWrites.Supported)
}

func stringSetValue(items []string, diags *diag.Diagnostics) types.Set {
	set, d := types.SetValue(types.StringType, stringValues(items))
	diags.Append(d...)
	return set
}

func stringListValue(items []string, diags *diag.Diagnostics) types.List {
	list, d := types.ListValue(types.StringType, stringValues(items))
	diags.Append(d...)
	return list
}

func stringValues(items []string) []attr.Value {
	values := make([]attr.Value, 0, len(items))
	for _, item := range items {
		values = append(values, types.StringValue(item))
	}
	return values
}

// Small helpers used across resources and data sources.

func isKnown(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

func ptr[T any](v T) *T { return &v }

func stringIfKnown(v types.String) string {
	if isKnown(v) {
		return v.ValueString()
	}
	return ""
}

func isMySQL(engine string) bool { return strings.EqualFold(strings.TrimSpace(engine), "MySQL") }

func optimizedWrites(on bool) string {
	if on {
		return rdsapi.OptimizedWritesOn
	}
	return rdsapi.OptimizedWritesOff
}

func switchValue(on bool) string {
	if on {
		return "1"
	}
	return "0"
}

func switchOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "on", "enabled":
		return true
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func setStrings(ctx context.Context, s types.Set, diags *diag.Diagnostics) []string {
	if !isKnown(s) {
		return nil
	}
	var out []string
	diags.Append(s.ElementsAs(ctx, &out, false)...)
	sort.Strings(out)
	return out
}

// keepSpelling keeps the configured value when the cloud reports the same value spelled
// differently (e.g. category case), so a refresh never shows a spurious diff.
func keepSpelling(current types.String, reported string) types.String {
	if isKnown(current) && strings.EqualFold(current.ValueString(), reported) {
		return current
	}
	return types.StringValue(reported)
}

// ---- shared by rds_instance and rds_readonly_instance ----

// Default operation budgets of both resources (alicloud's defaults for RDS); the timeouts
// attribute overrides them.
const (
	defaultCreateTimeout = 50 * time.Minute
	defaultUpdateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 30 * time.Minute
	// planLookupTimeout bounds the API reads ModifyPlan makes (primary, read-only instances,
	// restore source, class catalogue), so a slow API cannot hang a plan.
	planLookupTimeout = 2 * time.Minute
)

// planPreamble is the start of both resources' ModifyPlan: a destroy is checked against deletion
// protection, timeouts must be positive, and an unchanged or unconfigured plan stops here. It
// returns the context for the plan's API reads (bounded by planLookupTimeout) and whether ModifyPlan
// goes on. replanUnchanged says whether an unchanged plan must still be decided (a read-only
// instance whose primary changes in this run).
func planPreamble(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, replanUnchanged func() bool) (context.Context, context.CancelFunc, bool) {
	done := func() (context.Context, context.CancelFunc, bool) { return ctx, func() {}, false }
	if req.Plan.Raw.IsNull() {
		var id types.String
		var protected types.Bool
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("deletion_protection"), &protected)...)
		addProblems(&resp.Diagnostics, rdsservice.PlanDestroy(id.ValueString(), protected.ValueBool()))
		return done()
	}
	var budgets timeouts.Value
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("timeouts"), &budgets)...)
	addProblems(&resp.Diagnostics, checkTimeouts(budgets))
	if resp.Diagnostics.HasError() {
		return done()
	}
	if data == nil {
		// The provider is not configured yet (unknown provider configuration); apply checks again.
		return done()
	}
	if !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw) && (replanUnchanged == nil || !replanUnchanged()) {
		// Nothing changes: nothing to predict, nothing restarts, and no API call. The refreshed
		// state still tells of an instance that is being deleted or is locked.
		addProblems(&resp.Diagnostics, unchangedStateProblems(ctx, req))
		return done()
	}
	lookupCtx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	return lookupCtx, cancel, true
}

// unchangedStateProblems is the planner's word on an unchanged instance in the state the refresh
// found (status and lock_mode of both instance resources).
func unchangedStateProblems(ctx context.Context, req resource.ModifyPlanRequest) []rdsservice.Problem {
	var id, status, lock types.String
	var diags diag.Diagnostics
	diags.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	diags.Append(req.State.GetAttribute(ctx, path.Root("status"), &status)...)
	diags.Append(req.State.GetAttribute(ctx, path.Root("lock_mode"), &lock)...)
	if diags.HasError() {
		return nil
	}
	return rdsservice.StateProblems(id.ValueString(), status.ValueString(), lock.ValueString(), "", false, false)
}

// refuseImportOfDeleting stops the import of an instance that is being deleted (one read; Read
// reports the other failures, and a missing instance, as it does for every refresh).
func refuseImportOfDeleting(ctx context.Context, data *ProviderData, id string, diags *diag.Diagnostics) {
	if !requireConfigured(data, diags) {
		return
	}
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, id)
	if err == nil && attr.DBInstanceStatus == rdsservice.StatusDeleting {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleImportDeleting, id, id)})
	}
}

// checkTimeouts refuses a zero or negative operation budget (a malformed one is refused by the
// timeouts attribute itself).
func checkTimeouts(v timeouts.Value) []rdsservice.Problem {
	if !isKnown(v.Object) {
		return nil
	}
	var problems []rdsservice.Problem
	for _, name := range []string{"create", "update", "delete"} {
		raw, ok := v.Attributes()[name].(types.String)
		if !ok || !isKnown(raw) {
			continue
		}
		if d, err := time.ParseDuration(raw.ValueString()); err == nil && d <= 0 {
			p := rdsservice.Raise(rdsservice.RuleTimeoutNotPositive, raw.ValueString(), name, raw.ValueString())
			problems = append(problems, p.At("timeouts."+name))
		}
	}
	return problems
}

// operationBudget is the operation's timeout, or the default.
func operationBudget(ctx context.Context, v timeouts.Value, op string, diags *diag.Diagnostics) (time.Duration, bool) {
	var d time.Duration
	var dd diag.Diagnostics
	switch op {
	case "create":
		d, dd = v.Create(ctx, defaultCreateTimeout)
	case "update":
		d, dd = v.Update(ctx, defaultUpdateTimeout)
	default:
		d, dd = v.Delete(ctx, defaultDeleteTimeout)
	}
	diags.Append(dd...)
	addProblems(diags, checkTimeouts(v))
	return d, !diags.HasError()
}

// operationError describes a failed operation, telling a cancellation (Ctrl-C) from a timeout.
func operationError(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled) {
		return fmt.Sprintf("the operation was cancelled (interrupted) before it finished: %v", err)
	}
	return err.Error()
}

// attributePath maps a rule table attribute ("restore_from.source_instance_id") to a path.
func attributePath(name string) path.Path {
	if key, ok := strings.CutPrefix(name, rdsservice.AttrParameters+"."); ok {
		return path.Root(rdsservice.AttrParameters).AtMapKey(key)
	}
	parts := strings.Split(name, ".")
	p := path.Root(parts[0])
	for _, part := range parts[1:] {
		p = p.AtName(part)
	}
	return p
}

// addProblems adds the planner's problems as diagnostics at their attributes.
func addProblems(diags *diag.Diagnostics, problems []rdsservice.Problem) {
	for _, p := range problems {
		if p.Attribute == "" { // about the environment, not a value
			if p.Severity == rdsservice.SeverityWarning {
				diags.AddWarning(p.Summary, p.Detail)
			} else {
				diags.AddError(p.Summary, p.Detail)
			}
			continue
		}
		at := attributePath(p.Attribute)
		if p.Severity == rdsservice.SeverityWarning {
			diags.AddAttributeWarning(at, p.Summary, p.Detail)
		} else {
			diags.AddAttributeError(at, p.Summary, p.Detail)
		}
	}
}

// instanceView is the one conversion of a DescribeDBInstanceAttribute answer into attribute values,
// shared by both resources and both data sources.
type instanceView struct {
	ID, MasterInstanceID, Engine, EngineVersion, InstanceType, StorageType, Category, DBInstanceType types.String
	ZoneID, VpcID, VSwitchID, InstanceName, Status, ConnectionString, CreationTime, Architecture     types.String
	LockMode                                                                                         types.String
	Storage, Port                                                                                    types.Int64
	DeletionProtection, AtomicWrite16K, AtomicWrite16KSupported, BufferPoolExtension                 types.Bool
	SecurityIPs                                                                                      types.Set
	ReadOnlyInstanceIDs                                                                              types.List
}

func viewOf(a *rdsapi.DBInstanceAttribute, diags *diag.Diagnostics) instanceView {
	v := instanceView{
		ID:                  types.StringValue(a.DBInstanceID),
		MasterInstanceID:    types.StringValue(a.MasterInstanceID),
		Engine:              types.StringValue(a.Engine),
		EngineVersion:       types.StringValue(string(a.EngineVersion)),
		InstanceType:        types.StringValue(a.DBInstanceClass),
		StorageType:         types.StringValue(a.DBInstanceStorageType),
		Category:            types.StringValue(a.Category),
		DBInstanceType:      types.StringValue(a.DBInstanceType),
		ZoneID:              types.StringValue(a.ZoneID),
		VpcID:               types.StringValue(a.VpcID),
		VSwitchID:           types.StringValue(a.VSwitchID),
		InstanceName:        types.StringValue(a.DBInstanceDescription),
		Status:              types.StringValue(a.DBInstanceStatus),
		LockMode:            types.StringValue(lockModeOf(a)),
		ConnectionString:    types.StringValue(a.ConnectionString),
		CreationTime:        types.StringValue(a.CreationTime),
		Architecture:        attrArchitecture(a),
		Storage:             types.Int64Value(int64(a.DBInstanceStorage)),
		Port:                attrPort(a, diags),
		DeletionProtection:  types.BoolValue(bool(a.DeletionProtection)),
		BufferPoolExtension: types.BoolValue(switchOn(string(a.IoAccelerationEnabled))),
		SecurityIPs:         stringSetValue(splitList(a.SecurityIPList), diags),
		ReadOnlyInstanceIDs: stringListValue(a.ReadOnlyDBInstanceIDs, diags),
	}
	v.AtomicWrite16K, v.AtomicWrite16KSupported = attrAtomicWrite(a)
	return v
}

// plannedLockMode is lock_mode in a plan that changes an instance: an instance that is not locked
// stays so (the plan shows no noise), a lock may be lifted before the apply (that is the fix the
// plan names), so it is known only then.
func plannedLockMode(prior types.String, exists bool) types.String {
	if exists && prior.ValueString() == rdsservice.LockUnlocked {
		return prior
	}
	return types.StringUnknown()
}

// lockModeOf is LockMode, "Unlock" when the cloud leaves it out.
func lockModeOf(a *rdsapi.DBInstanceAttribute) string {
	if m := strings.TrimSpace(a.LockMode); m != "" {
		return m
	}
	return rdsservice.LockUnlocked
}

// plannedPrimaries remembers, for one provider process, the atomic_write_16k each primary was
// planned with in this run: Terraform plans a read-only instance after the primary it references,
// so the read-only instance's plan can use the primary's planned value (rule 7). The zero value is
// ready to use.
type plannedPrimaries struct {
	mu    sync.Mutex
	flags map[string]rdsservice.Val[bool]
	// scheduled are the toggles this run's primary plans defer to their maintenance window.
	scheduled map[string]*rdsservice.ScheduledFlag
}

func (p *plannedPrimaries) recordScheduled(id string, s *rdsservice.ScheduledFlag) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.scheduled == nil {
		p.scheduled = map[string]*rdsservice.ScheduledFlag{}
	}
	p.scheduled[id] = s
}

func (p *plannedPrimaries) lookupScheduled(id string) *rdsservice.ScheduledFlag {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.scheduled[id]
}

func (p *plannedPrimaries) record(id string, flag rdsservice.Val[bool]) {
	if id == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.flags == nil {
		p.flags = map[string]rdsservice.Val[bool]{}
	}
	p.flags[id] = flag
}

func (p *plannedPrimaries) lookup(id string) rdsservice.Val[bool] {
	p.mu.Lock()
	defer p.mu.Unlock()
	if flag, ok := p.flags[id]; ok {
		return flag
	}
	return rdsservice.Null[bool]()
}

// classFacts asks the class catalogue (cached per process) about one combination.
func classFacts(ctx context.Context, data *ProviderData, req rdsapi.DescribeAvailableClassesRequest) *rdsservice.ClassFacts {
	req.RegionID = data.Region
	req.InstanceChargeType = rdsapi.PayTypePostpaid
	f := &rdsservice.ClassFacts{Combination: fmt.Sprintf("%s %s, category %s, storage_type %s%s",
		req.Engine, req.EngineVersion, req.Category, req.DBInstanceStorageType, inZone(req.ZoneID))}
	out, err := data.classes.offered(ctx, data.API, req)
	switch {
	case err == nil:
	case rdsapi.ErrorCode(err) == "" || rdsapi.IsAuth(err):
		f.Unavailable = err.Error()
		return f
	case rdsapi.IsThrottled(err) || rdsapi.IsTransient(err) || rdsapi.IsBusy(err):
		f.LookupError = err.Error()
		return f
	default:
		// A definite refusal of the combination itself: the create would be refused the same way.
		f.Refusal, f.RefusedAttribute = err.Error(), refusedAttribute(err)
		return f
	}
	for _, c := range out.DBInstanceClasses {
		rng := c.DBInstanceStorageRange
		f.Offered = append(f.Offered, rdsservice.OfferedClass{Class: c.DBInstanceClass,
			MinStorage: int64(rng.MinValue), MaxStorage: int64(rng.MaxValue), Step: int64(rng.Step)})
	}
	return f
}

func inZone(zone string) string {
	if zone == "" {
		return ""
	}
	return " in zone " + zone
}

// refusedAttribute maps the API parameter a refusal names to the attribute to fix.
func refusedAttribute(err error) string {
	message := err.Error()
	for _, candidate := range []struct{ parameter, attribute string }{
		{"EngineVersion", "engine_version"}, {"DBInstanceStorageType", "storage_type"}, {"StorageType", "storage_type"},
		{"Category", "category"}, {"ZoneId", "zone_id"}, {"Engine", "engine"},
	} {
		if strings.Contains(message, candidate.parameter) {
			return candidate.attribute
		}
	}
	return "instance_type"
}

// valString, valInt and valBool turn attribute values into planner values.
func valString(v types.String) rdsservice.Val[string] {
	switch {
	case v.IsUnknown():
		return rdsservice.Unknown[string]()
	case v.IsNull():
		return rdsservice.Null[string]()
	}
	return rdsservice.Known(v.ValueString())
}

func valInt(v types.Int64) rdsservice.Val[int64] {
	switch {
	case v.IsUnknown():
		return rdsservice.Unknown[int64]()
	case v.IsNull():
		return rdsservice.Null[int64]()
	}
	return rdsservice.Known(v.ValueInt64())
}

func valBool(v types.Bool) rdsservice.Val[bool] {
	switch {
	case v.IsUnknown():
		return rdsservice.Unknown[bool]()
	case v.IsNull():
		return rdsservice.Null[bool]()
	}
	return rdsservice.Known(v.ValueBool())
}

// boolOf and stringOf turn planner values into attribute values (null becomes unknown: the
// planner leaves null only where it did not decide).
func boolOf(v rdsservice.Val[bool]) types.Bool {
	if v.IsKnown() {
		return types.BoolValue(v.Value())
	}
	return types.BoolUnknown()
}

func stringOf(v rdsservice.Val[string]) types.String {
	if v.IsKnown() {
		return types.StringValue(v.Value())
	}
	return types.StringUnknown()
}

// existingFrom describes an instance for the planner from its state values.
func existingFrom(label string, v instanceView, prior types.String) rdsservice.ExistingInstance {
	inst := rdsservice.ExistingInstance{
		ID:                  label,
		Engine:              v.Engine.ValueString(),
		EngineVersion:       v.EngineVersion.ValueString(),
		StorageType:         v.StorageType.ValueString(),
		Category:            v.Category.ValueString(),
		InstanceClass:       v.InstanceType.ValueString(),
		Storage:             v.Storage.ValueInt64(),
		Architecture:        v.Architecture.ValueString(),
		Supported:           v.AtomicWrite16KSupported.ValueBool(),
		Enabled:             v.AtomicWrite16K.ValueBool(),
		MasterID:            v.MasterInstanceID.ValueString(),
		Status:              v.Status.ValueString(),
		LockMode:            v.LockMode.ValueString(),
		DeletionProtection:  v.DeletionProtection.ValueBool(),
		BufferPoolExtension: v.BufferPoolExtension.ValueBool(),
	}
	if t, err := rdsservice.ParseAPITime(prior.ValueString()); err == nil {
		inst.CreationTime = t
	}
	return inst
}

// emptyAsNull is null for an empty string: optional attributes the cloud reports empty.
func emptyAsNull(v types.String) types.String {
	if isKnown(v) && v.ValueString() == "" {
		return types.StringNull()
	}
	return v
}

// replacedAttributes lists the attributes whose planned value differs from the prior state among
// those that force a replacement (ifConfigured: only when set in the configuration). The framework
// hands ModifyPlan an empty RequiresReplace (the schema's plan modifiers add theirs afterwards), so
// the planner works it out here; an unknown planned value counts, as it does for Terraform.
func replacedAttributes(req resource.ModifyPlanRequest, always, ifConfigured []string) []string {
	var plan, state, config map[string]tftypes.Value
	if req.Plan.Raw.As(&plan) != nil || req.State.Raw.As(&state) != nil || req.Config.Raw.As(&config) != nil {
		return nil
	}
	var out []string
	check := func(name string, needConfig bool) {
		p, s := plan[name], state[name]
		if needConfig && config[name].IsNull() {
			return
		}
		if !p.IsKnown() || !p.Equal(s) {
			out = append(out, name)
		}
	}
	for _, name := range always {
		check(name, false)
	}
	for _, name := range ifConfigured {
		check(name, true)
	}
	sort.Strings(out)
	return out
}

// planModels decodes a ModifyPlan request into a resource's model: the plan, the configuration,
// and the prior state (nil for a create).
func planModels[M any](ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (plan, config M, state *M) {
	diags.Append(req.Plan.Get(ctx, &plan)...)
	diags.Append(req.Config.Get(ctx, &config)...)
	if !req.State.Raw.IsNull() {
		state = new(M)
		diags.Append(req.State.Get(ctx, state)...)
	}
	return plan, config, state
}
