package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Tags and resource groups of both instance resources (issue 27).
//
// tags_all is the provider's default_tags under the resource's tags, computed at plan before
// anything else (a changed default changes no resource configuration, so it must not wait for the
// planner's "nothing changed" shortcut). After a refresh, tags_all is what the cloud has (without
// the provider's own create-token tag), and tags keeps the keys the resource owns: a key that only
// the defaults give, with the defaults' value, stays out of tags, so that neither an override nor
// a default equal to a resource tag ever plans a change; a tag added outside Terraform shows in
// both and the next apply removes it once.

// addTagAttributes adds tags, tags_all and resource_group_id to an instance resource's schema.
func addTagAttributes(attributes map[string]schema.Attribute) {
	attributes["tags"] = schema.MapAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "Tags of the instance (`TagResources`/`UntagResources`), merged over the provider's `default_tags` " +
			"(a key set here wins). Keys are 1 to 64 characters, values at most 128, neither starting with `aliyun`, " +
			"`acs:`, `http://` or `https://`; an instance carries at most 20 tags, one of which is the provider's own " +
			"create-token tag on instances it created (never shown, never removed). Tags added outside Terraform show " +
			"as a change once and are removed by the next apply. Changes in place without a restart.",
	}
	attributes["tags_all"] = schema.MapAttribute{
		ElementType: types.StringType,
		Computed:    true,
		MarkdownDescription: "Every tag of the instance: the provider's `default_tags` merged with `tags`, as the cloud " +
			"reports them after a refresh (the provider's own create-token tag left out).",
	}
	attributes["resource_group_id"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "Resource group of the instance (`rg-...`); the account's default group when unset. Changes in " +
			"place (`ModifyResourceGroup`) without a restart. The plan refuses a group the account does not have (Resource Manager's " +
			"`ListResourceGroups`; a warning when the credentials may not list groups), and the apply sends the move first, before " +
			"any change that restarts the instance, so a group the cloud refuses stops the apply before anything else changed.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// defaultTagsAttribute is the provider's default_tags. A map attribute rather than AWS's
// `default_tags { tags = {...} }` block: the block is there only to leave room for siblings, a map
// takes a variable or an expression as it is, and an attribute can be unknown at plan where a
// block cannot.
func defaultTagsAttribute() providerschema.Attribute {
	return providerschema.MapAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "Tags every `rds_instance` and `rds_readonly_instance` of this provider carries, under the " +
			"resource's own `tags` (a resource's key wins). The merged set is each resource's `tags_all`; changing a " +
			"default changes the tags in place, and a default equal to a resource's tag or overridden by it plans no change.",
	}
}

// providerDefaultTags is default_tags as the resources use it.
type providerDefaultTags struct {
	tags    map[string]string
	unknown bool
}

func defaultTagsOf(ctx context.Context, m types.Map, diags *diag.Diagnostics) providerDefaultTags {
	if m.IsUnknown() {
		return providerDefaultTags{unknown: true}
	}
	var out providerDefaultTags
	if !m.IsNull() {
		for _, v := range m.Elements() {
			if v.IsUnknown() {
				return providerDefaultTags{unknown: true}
			}
		}
		diags.Append(m.ElementsAs(ctx, &out.tags, false)...)
	}
	return out
}

// planTags computes tags_all into the plan and checks the merged tags and resource_group_id
// (rdsservice.PlanTags). ownTags is the number of the provider's own tags the instance carries.
func planTags(ctx context.Context, data *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, ownTags int) {
	if req.Plan.Raw.IsNull() {
		return
	}
	in := rdsservice.TagRequestOf(attrValueOf(req.Config.Raw), attrValueOf(req.State.Raw), ownTags)
	in.DefaultsUnknown = true // until the provider is configured
	var api rdsapi.API
	if data != nil {
		in.Defaults, in.DefaultsUnknown, api = data.defaultTags.tags, data.defaultTags.unknown, data.API
	}
	lookupCtx, cancel := context.WithTimeout(ctx, planLookupTimeout)
	defer cancel()
	out := rdsservice.PlanTags(lookupCtx, api, in)
	addProblems(&resp.Diagnostics, out.Problems)
	writePlanned(&resp.Plan, map[string]rdsservice.AttrValue{"tags_all": out.All.Attr()})
}

func mapOf(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	if isKnown(m) {
		diags.Append(m.ElementsAs(ctx, &out, false)...)
	}
	return out
}

// createTags is what CreateDBInstance carries: tags_all.
func createTags(ctx context.Context, plannedAll types.Map, diags *diag.Diagnostics) []rdsapi.Tag {
	var out []rdsapi.Tag
	for k, v := range mapOf(ctx, plannedAll, diags) {
		out = append(out, rdsapi.Tag{Key: k, Value: v})
	}
	return out
}

// refreshTags reads the instance's tags into tags and tags_all, for Read: one ListTagResources,
// shared with the refreshes of other instances running at the same time (rdsservice.TagReader).
// An instance whose tags nothing manages (no tags, no tags_all in state, no default_tags) is not
// read: its refresh stays at one call.
func refreshTags(ctx context.Context, data *ProviderData, a *rdsapi.DBInstanceAttribute, tags, tagsAll *types.Map, diags *diag.Diagnostics) {
	if tags.IsNull() && tagsAll.IsNull() && len(data.defaultTags.tags) == 0 {
		return
	}
	read, err := data.tagReads.Read(ctx, data.API, a.DBInstanceID)
	if err != nil {
		diags.AddError("Error reading the instance's tags", fmt.Sprintf("Instance %s: %v", a.DBInstanceID, err))
		return
	}
	*tags, *tagsAll = tagsAfterRefresh(ctx, read, *tags, *tagsAll, data.defaultTags.tags, diags)
}

// importTags makes an imported instance's first refresh read its tags.
func importTags(ctx context.Context, state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(state.SetAttribute(ctx, path.Root("tags_all"), types.MapValueMust(types.StringType, nil))...)
}

// tagsAfterRefresh is tags and tags_all from the cloud's tags (rdsservice.TagsFromCloud).
func tagsAfterRefresh(ctx context.Context, cloud map[string]string, priorTags, priorAll types.Map, defaults map[string]string, diags *diag.Diagnostics) (types.Map, types.Map) {
	// No tags anywhere is null, as planTags plans it.
	all := types.MapNull(types.StringType)
	if len(cloud) > 0 || !priorTags.IsNull() {
		all = stringMapValue(cloud, diags)
	}
	own := rdsservice.TagsFromCloud(cloud, mapOf(ctx, priorTags, diags), mapOf(ctx, priorAll, diags), defaults, priorTags.IsNull())
	if own == nil {
		return types.MapNull(types.StringType), all
	}
	return stringMapValue(own, diags), all
}
