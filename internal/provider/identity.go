package provider

// Resource identity (Terraform 1.12+): every resource names the cloud object it manages by the
// instance id and, below the instance, the names the cloud keys it by. Import blocks may then say
// `identity = { instance_id = "rm-..." }` instead of an id string, and list resources (`terraform
// query`) return identities. The identity is derived from the state after every Create, Read, Update
// and move, so no resource computes it on its own: withIdentity wraps a resource and forwards
// everything else to it.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// identityPart is one identity attribute and the state attribute that holds its value.
type identityPart struct {
	name, state, description string
}

// identitySpec is a resource's identity, in the order its import id joins the parts with ':'.
type identitySpec []identityPart

var (
	instanceIDPart = identityPart{"instance_id", "instance_id", "Id of the instance (`DBInstanceId`, e.g. `rm-...`)."}
	// instanceIdentity is the identity of rds_instance, rds_readonly_instance and rds_backup_policy,
	// whose `id` is the instance id.
	instanceIdentity = identitySpec{{"instance_id", "id", instanceIDPart.description}}
	accessIdentity   = identitySpec{instanceIDPart, {"name", "name", "Name of the account or database on the instance."}}
	grantIdentity    = identitySpec{instanceIDPart, {"account_name", "account_name", "Name of the account."},
		{"privilege", "privilege", "The privilege (`ReadWrite`, `ReadOnly`, `DDLOnly` or `DMLOnly`)."}}
	backupIdentity = identitySpec{instanceIDPart, {"backup_id", "backup_id", "Id of the backup set."}}
	// proxyEndpointIdentity is rds_db_proxy_endpoint's: the endpoint of the instance's proxy.
	proxyEndpointIdentity = identitySpec{instanceIDPart, {"endpoint_id", "endpoint_id", "Id of the proxy endpoint (`DBProxyEndpointId`)."}}
	// parameterGroupIdentity is rds_parameter_group's: the group is not below an instance.
	parameterGroupIdentity = identitySpec{{"parameter_group_id", "id", "Id of the parameter group (`ParameterGroupId`, e.g. `rpg-...`)."}}
	// whitelistTemplateIdentity is rds_whitelist_template's: the template belongs to the account.
	whitelistTemplateIdentity = identitySpec{{"template_id", "id", "Id of the whitelist template (`TemplateId`)."}}
)

// identityOf names each resource type's identity; provider.go wraps its resources with it.
var identityOf = map[string]identitySpec{
	"rds_instance": instanceIdentity, "rds_readonly_instance": instanceIdentity, "rds_backup_policy": instanceIdentity,
	"rds_account": accessIdentity, "rds_database": accessIdentity, "rds_account_privilege": grantIdentity,
	"rds_backup": backupIdentity, "rds_parameter_group": parameterGroupIdentity, "rds_db_proxy": instanceIdentity,
	"rds_whitelist_template": whitelistTemplateIdentity, "rds_db_proxy_endpoint": proxyEndpointIdentity,
}

// withIdentity returns the resources with their identities (identityOf, by type name); a type
// without one is returned as it is.
func withIdentity(newResources ...func() resource.Resource) []func() resource.Resource {
	out := make([]func() resource.Resource, len(newResources))
	for i, newResource := range newResources {
		var md resource.MetadataResponse
		newResource().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "rds"}, &md)
		spec, ok := identityOf[md.TypeName]
		out[i] = newResource
		if ok {
			out[i] = func() resource.Resource { return &identifiedResource{Resource: newResource(), spec: spec} }
		}
	}
	return out
}

// identifiedResource is a resource with its identity.
type identifiedResource struct {
	resource.Resource
	spec identitySpec
}

var (
	_ resource.ResourceWithIdentity       = (*identifiedResource)(nil)
	_ resource.ResourceWithConfigure      = (*identifiedResource)(nil)
	_ resource.ResourceWithImportState    = (*identifiedResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*identifiedResource)(nil)
	_ resource.ResourceWithValidateConfig = (*identifiedResource)(nil)
	_ resource.ResourceWithMoveState      = (*identifiedResource)(nil)
)

// IdentitySchema declares the identity; every part is needed to import.
func (r *identifiedResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	attrs := map[string]identityschema.Attribute{}
	for _, p := range r.spec {
		attrs[p.name] = identityschema.StringAttribute{RequiredForImport: true, Description: p.description}
	}
	resp.IdentitySchema = identityschema.Schema{Attributes: attrs}
}

// setIdentity copies the identity's parts from state; a null state (a resource gone) leaves it.
func (r *identifiedResource) setIdentity(ctx context.Context, state tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || state.Raw.IsNull() {
		return
	}
	for _, p := range r.spec {
		var v types.String
		diags.Append(state.GetAttribute(ctx, path.Root(p.state), &v)...)
		diags.Append(identity.SetAttribute(ctx, path.Root(p.name), v)...)
	}
}

func (r *identifiedResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.Resource.Create(ctx, req, resp)
	r.setIdentity(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// Read refreshes, then takes the identity from the new state, or from the old one when the
// resource is gone (Terraform wants an identity even then).
func (r *identifiedResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	r.Resource.Read(ctx, req, resp)
	if resp.State.Raw.IsNull() {
		r.setIdentity(ctx, req.State, resp.Identity, &resp.Diagnostics)
		return
	}
	r.setIdentity(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *identifiedResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.Resource.Update(ctx, req, resp)
	r.setIdentity(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// ImportState imports by id, or by identity: the identity's parts joined with ':' are the id.
func (r *identifiedResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	inner, ok := r.Resource.(resource.ResourceWithImportState)
	if !ok {
		resp.Diagnostics.AddError("Resource import not supported", "This resource cannot be imported: it records a one-off "+
			"operation (a backup set is taken by creating the resource). Use the rds_backups data source to read existing backup sets.")
		return
	}
	if req.ID == "" && req.Identity != nil {
		parts := make([]string, 0, len(r.spec))
		for _, p := range r.spec {
			var v types.String
			resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(p.name), &v)...)
			if v.ValueString() == "" {
				resp.Diagnostics.AddAttributeError(path.Root(p.name), "Missing identity attribute",
					fmt.Sprintf("The import block's identity needs %s; it has %s.", r.spec.names(), req.Identity.Raw))
			}
			parts = append(parts, v.ValueString())
		}
		if resp.Diagnostics.HasError() {
			return
		}
		req.ID = strings.Join(parts, ":")
	}
	inner.ImportState(ctx, req, resp)
	if resp.Diagnostics.HasError() || resp.Identity == nil {
		return
	}
	r.setIdentity(ctx, resp.State, resp.Identity, &resp.Diagnostics)
}

// names lists the identity's attributes for messages.
func (s identitySpec) names() string {
	names := make([]string, len(s))
	for i, p := range s {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

// MoveState forwards the resource's movers and derives the moved resource's identity.
func (r *identifiedResource) MoveState(ctx context.Context) []resource.StateMover {
	inner, ok := r.Resource.(resource.ResourceWithMoveState)
	if !ok {
		return nil
	}
	movers := inner.MoveState(ctx)
	for i, m := range movers {
		move := m.StateMover
		movers[i].StateMover = func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			move(ctx, req, resp)
			if !resp.Diagnostics.HasError() {
				r.setIdentity(ctx, resp.TargetState, resp.TargetIdentity, &resp.Diagnostics)
			}
		}
	}
	return movers
}

func (r *identifiedResource) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if inner, ok := r.Resource.(resource.ResourceWithConfigure); ok {
		inner.Configure(ctx, req, resp)
	}
}

func (r *identifiedResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if inner, ok := r.Resource.(resource.ResourceWithModifyPlan); ok {
		inner.ModifyPlan(ctx, req, resp)
	}
}

func (r *identifiedResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if inner, ok := r.Resource.(resource.ResourceWithValidateConfig); ok {
		inner.ValidateConfig(ctx, req, resp)
	}
}
