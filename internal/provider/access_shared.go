package provider

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// What rds_account, rds_database and rds_account_privilege share: instance facts for the rules,
// problems as diagnostics, import ids, and the retry-while-busy write.

const (
	// accessTimeout is the default for every create, update and delete: long enough to wait out
	// a restart of the instance (a class change can take tens of minutes).
	accessTimeout = 30 * time.Minute
	// accessLookupTimeout bounds the reads a plan makes.
	accessLookupTimeout = time.Minute
)

// instanceFacts reads the instance into facts; known reports whether they are filled in. An id the
// plan knows names an instance that exists: one this configuration creates has an unknown id until
// it does, so a missing one is the rule access-instance-missing.
func instanceFacts(ctx context.Context, data *ProviderData, instanceID string, facts *rdsservice.AccessFacts) (known bool, err error) {
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, instanceID)
	if rdsapi.IsNotFound(err) {
		facts.InstanceMissing = true
		return false, nil
	}
	if err != nil {
		return false, err
	}
	rdsservice.AccessFactsFromAttribute(facts, attr)
	return true, nil
}

// planAccessDestroy warns, at the plan of an access resource's destroy, when its instance's state
// makes the cloud refuse the delete (a lock, Stopped). A read that fails leaves the check to the
// apply, which plans again before the write.
func planAccessDestroy(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	var id types.String
	if data == nil || req.State.GetAttribute(ctx, path.Root("instance_id"), &id).HasError() || !isKnown(id) {
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	attr, err := data.API.DescribeDBInstanceAttribute(lookupCtx, id.ValueString())
	if err != nil && !rdsapi.IsNotFound(err) {
		return
	}
	addProblems(diags, rdsservice.AccessDestroyProblems(attr))
}

// knownStrings are the elements of a set whose every element is known (ok false otherwise).
func knownStrings(ctx context.Context, s types.Set) (values []string, ok bool) {
	if !isKnown(s) {
		return nil, false
	}
	for _, e := range s.Elements() {
		if e.IsUnknown() || e.IsNull() {
			return nil, false
		}
	}
	var diags diag.Diagnostics
	values = setStrings(ctx, s, &diags)
	return values, !diags.HasError()
}

// priorKey is the private-state key under which a plan remembers the object it replaces: when a
// change replaces a resource, Terraform plans the new object a second time from a null prior state
// (passing the first plan's private state), while the old object still exists.
const priorKey = "replaces"

// accessPrior identifies an access resource's prior object; Privilege and DBNames only for a grant.
type accessPrior struct {
	InstanceID string   `json:"instance_id"`
	Name       string   `json:"name"`
	Privilege  string   `json:"privilege,omitempty"`
	DBNames    []string `json:"db_names,omitempty"`
}

// rememberPrior keeps prior in the plan's private state for the second plan of a replacement.
func rememberPrior(ctx context.Context, resp *resource.ModifyPlanResponse, prior accessPrior) {
	raw, err := json.Marshal(prior)
	if err == nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, priorKey, raw)...)
	}
}

// replacedPrior is the object a plan from a null prior state replaces (nil when it replaces none).
func replacedPrior(ctx context.Context, req resource.ModifyPlanRequest) *accessPrior {
	if !req.State.Raw.IsNull() || req.Private == nil {
		return nil
	}
	raw, diags := req.Private.GetKey(ctx, priorKey)
	var prior accessPrior
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &prior) != nil {
		return nil
	}
	return &prior
}

// refused reports whether problems hold an error (warnings do not stop the checks that follow).
func refused(problems []rdsservice.Problem) bool {
	return slices.ContainsFunc(problems, func(p rdsservice.Problem) bool { return p.Severity == rdsservice.SeverityError })
}

// withoutUnknown drops problems about attributes whose value is not known yet (they are checked
// again once it is).
func withoutUnknown(problems []rdsservice.Problem, unknown map[string]bool) []rdsservice.Problem {
	var out []rdsservice.Problem
	for _, p := range problems {
		if !unknown[p.Attribute] {
			out = append(out, p)
		}
	}
	return out
}

// unknownAttrs lists the attributes (by name) whose values are unknown.
func unknownAttrs(values map[string]interface{ IsUnknown() bool }) map[string]bool {
	out := map[string]bool{}
	for name, v := range values {
		if v.IsUnknown() {
			out[name] = true
		}
	}
	return out
}

// splitImportID splits an access resource's import id as format names it, or adds the problem.
func splitImportID(id, format, example string, diags *diag.Diagnostics) []string {
	parts, problems := rdsservice.SplitImportID(id, format, example)
	addProblems(diags, problems)
	return parts
}

// gone reports whether err says the instance itself is gone, or being released (its accounts and
// databases go with it): a delete then has nothing left to do.
func gone(err error) bool { return rdsservice.Gone(err) }

// stringOrNull keeps null for an empty value the configuration left unset (or that was unknown
// until now), so "" from the cloud does not show as a change.
func stringOrNull(current types.String, reported string) types.String {
	if reported == "" && (current.IsNull() || current.IsUnknown()) {
		return types.StringNull()
	}
	return types.StringValue(reported)
}

// descriptionAttribute is the description of an account or a database: unset means not managed
// (the plan keeps what the object has, so removing it from the configuration sends nothing: the
// cloud has no way to clear a description).
func descriptionAttribute(example string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "2 to 256 characters, starting with a letter, not starting with `http://` or `https://`, e.g. `" + example +
			"`. Unset, the description is not managed: the plan keeps the one the object has (set outside Terraform or before), " +
			"and removing the attribute changes nothing (the API cannot clear a description).",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// importByInstanceAndName imports an account or a database (what) by `<instance_id>:<name>`: id,
// instance_id and name (Read fills in the rest); the accounts and databases of a read-only
// instance are refused, naming its primary.
func importByInstanceAndName(ctx context.Context, data *ProviderData, what, example string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts := splitImportID(req.ID, "<instance_id>:<name>", example, &resp.Diagnostics)
	if parts == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[0]+":"+parts[1])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), parts[1])...)
	if !resp.Diagnostics.HasError() {
		refuseReadOnlyHost(ctx, data, what, parts[0], &resp.Diagnostics)
	}
}

// refuseReadOnlyHost refuses to list or import the accounts or databases (what) of a read-only
// instance, naming its primary (rdsservice.CheckAccessHost). An instance that cannot be read is
// left to the caller's own read, which reports it.
func refuseReadOnlyHost(ctx context.Context, data *ProviderData, what, instanceID string, diags *diag.Diagnostics) {
	if data == nil || instanceID == "" {
		return
	}
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, instanceID)
	if err == nil {
		addProblems(diags, rdsservice.CheckAccessHost(what, attr))
	}
}
