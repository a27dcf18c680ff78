package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// defaultCharacterSet is full Unicode, what a new application wants.
const defaultCharacterSet = "utf8mb4"

// NewDatabaseResource returns the rds_database resource.
func NewDatabaseResource() resource.Resource {
	r := &databaseResource{}
	r.kind, r.typeName = r, "rds_database"
	return r
}

// databaseResource is a database of an instance, on the access skeleton (access_resource.go).
type databaseResource struct {
	accessResource[databaseModel]
}

func (r *databaseResource) about() accessAbout {
	return accessAbout{kind: rdsservice.KindDatabase, createCall: "CreateDatabase",
		create: "Error creating RDS database", update: "Error updating RDS database", remove: "Error deleting RDS database"}
}

func (r *databaseResource) withPassword(plan databaseModel, _ types.String) databaseModel {
	return plan
}

// planned shows the id and keeps the status of a database that stays; a replacement names the
// database it drops.
func (r *databaseResource) planned(ctx context.Context, _ databaseModel, plan, state *databaseModel, replacing bool, diags *diag.Diagnostics) {
	if isKnown(plan.InstanceID) && isKnown(plan.Name) && plan.ID.IsUnknown() {
		plan.ID = types.StringValue(plan.InstanceID.ValueString() + ":" + plan.Name.ValueString())
	}
	switch {
	case state == nil:
	case replacing:
		r.planDrop(ctx, *state, plan.PreventDataLoss.ValueBool(), diags)
	case plan.Status.IsUnknown():
		plan.Status = state.Status
	}
}

func (r *databaseResource) destroyPlanned(ctx context.Context, state databaseModel, diags *diag.Diagnostics) {
	r.planDrop(ctx, state, state.PreventDataLoss.ValueBool(), diags)
}

func (r *databaseResource) request(_ context.Context, plan databaseModel, _ *databaseModel, _ *diag.Diagnostics) rdsservice.AccessRequest {
	return rdsservice.AccessRequest{Kind: rdsservice.KindDatabase, InstanceID: plan.InstanceID.ValueString(), Name: plan.Name.ValueString(),
		CharacterSet: plan.CharacterSet.ValueString(), Description: managedDescription(plan.Description)}
}

// target: deleting, then gone: a database of the same name can be created only after that.
func (r *databaseResource) target(_ context.Context, state databaseModel, _ *diag.Diagnostics) rdsservice.AccessRequest {
	return rdsservice.AccessRequest{Kind: rdsservice.KindDatabase, InstanceID: state.InstanceID.ValueString(), Name: state.Name.ValueString()}
}

func (r *databaseResource) password(databaseModel) string { return "" }

func (r *databaseResource) journal(plan databaseModel) (string, string) {
	return plan.journalKey(), plan.InstanceID.ValueString() + ":" + plan.Name.ValueString()
}

func (r *databaseResource) stored(plan databaseModel, out rdsservice.AccessOutcome) databaseModel {
	plan.fill(out.Database)
	return plan
}

func (r *databaseResource) validation(config databaseModel) (rdsservice.AccessFacts, map[string]bool) {
	f := config.facts()
	if config.CharacterSet.IsNull() {
		f.CharacterSet = defaultCharacterSet
	}
	return f, config.unknown()
}

func (r *databaseResource) priorOf(_ context.Context, state databaseModel) accessPrior {
	return accessPrior{InstanceID: state.InstanceID.ValueString(), Name: state.Name.ValueString()}
}

func (r *databaseResource) fromPrior(prior accessPrior, _ *diag.Diagnostics) databaseModel {
	return databaseModel{InstanceID: types.StringValue(prior.InstanceID), Name: types.StringValue(prior.Name)}
}

func (r *databaseResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A database of an RDS MySQL (or MariaDB) instance. Naming and character-set rules are checked at plan time. " +
			"A plan that drops the database (a destroy or a replacement) names it, and `prevent_data_loss` refuses it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<instance_id>:<name>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"instance_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Id of the primary instance. Read-only instances have their primary's databases. Changing it replaces the database.",
				PlanModifiers:       requiresReplace("rds_database", rdsservice.AttrInstanceID),
			},
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Database name: 2 to 64 lower-case letters, digits, underscores and hyphens, starting with a " +
					"letter and ending with a letter or digit; not a system database name. Changing it replaces the database.",
				PlanModifiers: requiresReplace("rds_database", rdsservice.AttrName),
			},
			"character_set": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(defaultCharacterSet),
				MarkdownDescription: "`utf8mb4` (default), `utf8`, `gbk` or `latin1`. Changing it replaces the database (and its data).",
				PlanModifiers:       requiresReplace("rds_database", rdsservice.AttrCharacterSet),
			},
			"description": descriptionAttribute("Orders of the shop"),
			"status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`DBStatus`: `Running` once the database is ready (`Creating` before).",
			},
			rdsservice.AttrPreventDataLoss: preventDataLossAttribute("this database and its data (a destroy, or a change that replaces it)"),
			"timeouts":                     timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *databaseResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state databaseModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id, name := state.InstanceID.ValueString(), state.Name.ValueString()
	r.data.Journal.Recorded(id + ":" + name) // in a state: no longer an interrupted create's (issue 29)
	db, err := rdsservice.FindDatabase(ctx, r.data.API, id, name)
	if err != nil && !gone(err) {
		resp.Diagnostics.AddError("Error reading RDS database", fmt.Sprintf("DescribeDatabases %s on %s: %v", name, id, err))
		return
	}
	if db == nil || db.DBStatus == rdsapi.DatabaseStatusDeleting {
		resp.Diagnostics.AddWarning("RDS database no longer exists",
			fmt.Sprintf("Database %s on instance %s was not found (deleted outside Terraform?); it is removed from state and the next plan creates it again.", name, id))
		resp.State.RemoveResource(ctx)
		return
	}
	state.fill(db)
	state.PreventDataLoss = withPreventDataLoss(state.PreventDataLoss)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// ImportState imports `<instance_id>:<name>`.
func (r *databaseResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByInstanceAndName(ctx, r.data, "databases", "rm-bp1example:orders", req, resp)
}

// planDrop names the database in state that the plan drops (DeleteDatabase), when it exists: the
// data-loss warning, or with prevent its refusal.
func (r *databaseResource) planDrop(ctx context.Context, state databaseModel, prevent bool, diags *diag.Diagnostics) {
	if r.data == nil || !isKnown(state.InstanceID) || !isKnown(state.Name) {
		return
	}
	lookupCtx, cancel := context.WithTimeout(ctx, accessLookupTimeout)
	defer cancel()
	id, name := state.InstanceID.ValueString(), state.Name.ValueString()
	db, err := rdsservice.FindDatabase(lookupCtx, r.data.API, id, name)
	if err != nil || db == nil || db.DBStatus == rdsapi.DatabaseStatusDeleting {
		return // gone, or being dropped already: nothing left to lose (a read error shows at apply)
	}
	addProblems(diags, rdsservice.GuardDataLoss(prevent, rdsservice.DatabaseLoss(id, name)))
}

func (r *databaseResource) facts(_, plan databaseModel) (rdsservice.AccessFacts, map[string]bool, types.String) {
	return plan.facts(), plan.unknown(), plan.InstanceID
}

// readFacts fills, before a create, the facts about a database of the same name (one this
// resource does not manage) and, at plan, the databases the other rds_database resources of this
// run plan; at create it waits out one of the same name being deleted (the name is free once it is gone).
func (r *databaseResource) readFacts(ctx context.Context, plan databaseModel, prior *databaseModel, stage checkStage, f *rdsservice.AccessFacts, diags *diag.Diagnostics) bool {
	if !isKnown(plan.Name) || stage == atUpdate {
		return true
	}
	id, name := plan.InstanceID.ValueString(), plan.Name.ValueString()
	existing, err := rdsservice.FindDatabase(ctx, r.data.API, id, name)
	mine := prior != nil && prior.InstanceID.Equal(plan.InstanceID) && prior.Name.Equal(plan.Name)
	switch {
	case err != nil:
		diags.AddError("Error reading RDS databases", fmt.Sprintf("DescribeDatabases %s on %s: %v", name, id, err))
		return false
	case existing != nil && existing.DBStatus == rdsapi.DatabaseStatusDeleting:
		// gone soon: the executor waits for it before the create
	case existing != nil && !mine && !adoptingAccess(r.data, "rds_database", plan.journalKey(), id+":"+name, stage, diags):
		f.Existing = existing.DBName
	}
	if stage == atPlan {
		f.PlannedElsewhere = r.data.plans.PlanDatabase(id, name)
	}
	return true
}

type databaseModel struct {
	ID              types.String   `tfsdk:"id"`
	InstanceID      types.String   `tfsdk:"instance_id"`
	Name            types.String   `tfsdk:"name"`
	CharacterSet    types.String   `tfsdk:"character_set"`
	Description     types.String   `tfsdk:"description"`
	Status          types.String   `tfsdk:"status"`
	PreventDataLoss types.Bool     `tfsdk:"prevent_data_loss"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

func (m databaseModel) facts() rdsservice.AccessFacts {
	return rdsservice.AccessFacts{
		InstanceID:    stringIfKnown(m.InstanceID),
		DBName:        stringIfKnown(m.Name),
		CharacterSet:  stringIfKnown(m.CharacterSet),
		DBDescription: stringIfKnown(m.Description),
	}
}

func (m databaseModel) unknown() map[string]bool {
	return unknownAttrs(map[string]interface{ IsUnknown() bool }{
		rdsservice.AttrInstanceID: m.InstanceID, rdsservice.AttrName: m.Name,
		rdsservice.AttrCharacterSet: m.CharacterSet, rdsservice.AttrDescription: m.Description,
	})
}

func (m *databaseModel) fill(db *rdsapi.Database) {
	m.CharacterSet = types.StringValue(db.CharacterSetName)
	m.Description = stringOrNull(m.Description, db.DBDescription)
	m.Status = types.StringValue(db.DBStatus)
	if m.ID.IsNull() || m.ID.IsUnknown() {
		m.ID = types.StringValue(m.InstanceID.ValueString() + ":" + m.Name.ValueString())
	}
}
