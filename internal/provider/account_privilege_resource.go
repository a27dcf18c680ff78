package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewAccountPrivilegeResource returns the rds_account_privilege resource.
func NewAccountPrivilegeResource() resource.Resource {
	r := &accountPrivilegeResource{}
	r.kind, r.typeName = r, "rds_account_privilege"
	return r
}

// accountPrivilegeResource is one privilege of one standard account on a set of databases, on the
// access skeleton (access_resource.go). An update grants the privilege on the configured databases
// that lack it and revokes it on the removed ones that still hold it; a delete revokes it on the
// databases that still have it from this grant.
type accountPrivilegeResource struct {
	accessResource[privilegeModel]
}

func (r *accountPrivilegeResource) about() accessAbout {
	return accessAbout{kind: rdsservice.KindPrivilege, create: "Error granting RDS account privilege",
		update: "Error changing RDS account privilege", remove: "Error revoking RDS account privilege"}
}

func (r *accountPrivilegeResource) withPassword(plan privilegeModel, _ types.String) privilegeModel {
	return plan
}

func (r *accountPrivilegeResource) planned(_ context.Context, _ privilegeModel, plan, _ *privilegeModel, _ bool, _ *diag.Diagnostics) {
	if isKnown(plan.InstanceID) && isKnown(plan.AccountName) && isKnown(plan.Privilege) && plan.ID.IsUnknown() {
		plan.ID = types.StringValue(plan.id())
	}
}

func (r *accountPrivilegeResource) destroyPlanned(context.Context, privilegeModel, *diag.Diagnostics) {
}

// request is the grant the configuration asks for; an update revokes what the state granted and
// the configuration no longer names.
func (r *accountPrivilegeResource) request(ctx context.Context, plan privilegeModel, state *privilegeModel, diags *diag.Diagnostics) rdsservice.AccessRequest {
	access := rdsservice.AccessRequest{Kind: rdsservice.KindPrivilege, InstanceID: plan.InstanceID.ValueString(), Name: plan.AccountName.ValueString(),
		Privilege: plan.Privilege.ValueString(), DBNames: setStrings(ctx, plan.DBNames, diags)}
	if state != nil {
		access.Granted = setStrings(ctx, state.DBNames, diags)
	}
	return access
}

func (r *accountPrivilegeResource) target(ctx context.Context, state privilegeModel, diags *diag.Diagnostics) rdsservice.AccessRequest {
	return rdsservice.AccessRequest{Kind: rdsservice.KindPrivilege, InstanceID: state.InstanceID.ValueString(), Name: state.AccountName.ValueString(),
		Privilege: state.Privilege.ValueString(), Granted: setStrings(ctx, state.DBNames, diags)}
}

func (r *accountPrivilegeResource) password(privilegeModel) string { return "" }

func (r *accountPrivilegeResource) journal(privilegeModel) (string, string) { return "", "" }

func (r *accountPrivilegeResource) stored(plan privilegeModel, _ rdsservice.AccessOutcome) privilegeModel {
	plan.ID = types.StringValue(plan.id())
	return plan
}

func (r *accountPrivilegeResource) validation(config privilegeModel) (rdsservice.AccessFacts, map[string]bool) {
	return config.facts(), config.unknown()
}

func (r *accountPrivilegeResource) priorOf(ctx context.Context, state privilegeModel) accessPrior {
	dbs, _ := knownStrings(ctx, state.DBNames)
	return accessPrior{InstanceID: state.InstanceID.ValueString(), Name: state.AccountName.ValueString(), Privilege: state.Privilege.ValueString(), DBNames: dbs}
}

func (r *accountPrivilegeResource) fromPrior(prior accessPrior, diags *diag.Diagnostics) privilegeModel {
	return privilegeModel{InstanceID: types.StringValue(prior.InstanceID), AccountName: types.StringValue(prior.Name),
		Privilege: types.StringValue(prior.Privilege), DBNames: stringSetValue(prior.DBNames, diags)}
}

func (r *accountPrivilegeResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Grants a standard (`Normal`) account one privilege on a set of databases. The privileged " +
			"(`Super`) account has every privilege on every database already and cannot be granted any. An account " +
			"has one privilege per database: manage each (account, database) pair in one rds_account_privilege only.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<instance_id>:<account_name>:<privilege>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"instance_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Id of the primary instance. Changing it replaces the grant.",
				PlanModifiers:       requiresReplace("rds_account_privilege", rdsservice.AttrInstanceID),
			},
			"account_name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of a `Normal` account of the instance. Changing it replaces the grant.",
				PlanModifiers:       requiresReplace("rds_account_privilege", rdsservice.AttrAccountName),
			},
			"privilege": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "`ReadWrite`, `ReadOnly`, `DDLOnly` or `DMLOnly`. Changing it replaces the grant.",
				PlanModifiers:       requiresReplace("rds_account_privilege", rdsservice.AttrPrivilege),
			},
			"db_names": schema.SetAttribute{
				Required:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Databases the privilege applies to. Adding one grants it, removing one revokes it; the others are untouched.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1)},
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *accountPrivilegeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state privilegeModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id, name := state.InstanceID.ValueString(), state.AccountName.ValueString()
	account, err := rdsservice.FindAccount(ctx, r.data.API, id, name)
	if err != nil && !gone(err) {
		resp.Diagnostics.AddError("Error reading RDS account", fmt.Sprintf("DescribeAccounts %s on %s: %v", name, id, err))
		return
	}
	if account == nil {
		resp.Diagnostics.AddWarning("RDS account no longer exists",
			fmt.Sprintf("Account %s on instance %s was not found, so its privileges are gone; the grant is removed from state. The next plan grants it again "+
				"if an rds_account of this configuration creates the account, and otherwise refuses the grant (rule privilege-account-missing).", name, id))
		resp.State.RemoveResource(ctx)
		return
	}
	// Databases that lost the privilege outside Terraform drop out of db_names: the next plan grants
	// them again. An account that holds the privilege on no database has no such grant (an import
	// of it then fails as for a missing account, instead of adopting db_names = []).
	held := rdsservice.GrantedOn(account, state.Privilege.ValueString())
	if len(held) == 0 {
		resp.Diagnostics.AddWarning("RDS account privilege no longer exists",
			fmt.Sprintf("Account %s on instance %s holds %s on no database; the grant is removed from state and the next plan grants it again.",
				name, id, state.Privilege.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	}
	state.DBNames = stringSetValue(held, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// ImportState imports `<instance_id>:<account_name>:<privilege>`; Read finds the databases.
func (r *accountPrivilegeResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts := splitImportID(req.ID, "<instance_id>:<account_name>:<privilege>", "rm-bp1example:app_user:ReadWrite", &resp.Diagnostics)
	if parts == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("account_name"), parts[1])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("privilege"), parts[2])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("db_names"), types.SetValueMust(types.StringType, nil))...)
}

func (r *accountPrivilegeResource) facts(_, plan privilegeModel) (rdsservice.AccessFacts, map[string]bool, types.String) {
	return plan.facts(), plan.unknown(), plan.InstanceID
}

// readFacts fills the account's facts and, at plan, the databases' and the (account, database)
// pairs': the account and the databases must exist or be planned by this run, and no other grant
// may hold one of the pairs; at apply the account must exist.
func (r *accountPrivilegeResource) readFacts(ctx context.Context, plan privilegeModel, prior *privilegeModel, stage checkStage, f *rdsservice.AccessFacts,
	diags *diag.Diagnostics) bool {
	if !isKnown(plan.AccountName) {
		return true
	}
	id := plan.InstanceID.ValueString()
	account, err := r.readGrantee(ctx, plan, stage, f)
	if err != nil {
		diags.AddError("Error reading RDS accounts", fmt.Sprintf("DescribeAccounts on %s: %v", id, err))
		return false
	}
	if stage == atPlan || stage == atReplan {
		if err := r.readPairs(ctx, plan, prior, account, stage, f); err != nil {
			diags.AddError("Error reading RDS databases", fmt.Sprintf("DescribeDatabases on %s: %v", id, err))
			return false
		}
	}
	return true
}

// readGrantee finds the account (nil when the instance has none by that name) and fills its type,
// or, when neither the instance nor (at plan) this run has it, why it is missing.
func (r *accountPrivilegeResource) readGrantee(ctx context.Context, plan privilegeModel, stage checkStage, f *rdsservice.AccessFacts) (*rdsapi.DBInstanceAccount, error) {
	id := plan.InstanceID.ValueString()
	accounts, err := rdsservice.ListAllAccounts(ctx, r.data.API, id)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(accounts))
	for i, a := range accounts {
		names[i] = a.AccountName
		if a.AccountName == f.AccountName {
			f.AccountType = a.AccountType
			return &accounts[i], nil
		}
	}
	if stage == atPlan || stage == atReplan {
		if kind, planned := r.data.plans.PlannedAccount(id, f.AccountName); planned {
			f.AccountType = kind
			return nil, nil
		}
	}
	f.GranteeMissing, f.GranteeSpelling = true, rdsservice.SpelledOtherwise(names, f.AccountName)
	return nil, nil
}

// readPairs fills the databases of db_names that neither the instance nor this run has, and the
// (account, database) pairs another grant holds.
func (r *accountPrivilegeResource) readPairs(ctx context.Context, plan privilegeModel, prior *privilegeModel, account *rdsapi.DBInstanceAccount,
	stage checkStage, f *rdsservice.AccessFacts) error {
	dbs, ok := knownStrings(ctx, plan.DBNames)
	if !ok || !isKnown(plan.Privilege) {
		return nil
	}
	id := plan.InstanceID.ValueString()
	databases, err := rdsservice.ListAllDatabases(ctx, r.data.API, id)
	if err != nil {
		return err
	}
	run := &r.data.plans
	f.MissingDBs = rdsservice.MissingDatabases(databases, dbs, func(db string) bool { return run.PlansDatabase(id, db) })
	f.TakenPairs = rdsservice.HeldElsewhere(id, plan.Privilege.ValueString(), account, dbs, prior.grantPrior())
	if stage == atPlan {
		f.TakenPairs = append(f.TakenPairs, run.PlanGrant(id, f.AccountName, plan.Privilege.ValueString(), dbs)...)
	}
	return nil
}

// grantPrior is what the prior state granted (nil when new).
func (m *privilegeModel) grantPrior() *rdsservice.GrantPrior {
	if m == nil {
		return nil
	}
	dbs, _ := knownStrings(context.Background(), m.DBNames)
	return &rdsservice.GrantPrior{InstanceID: m.InstanceID.ValueString(), Account: m.AccountName.ValueString(), Privilege: m.Privilege.ValueString(), DBNames: dbs}
}

type privilegeModel struct {
	ID          types.String   `tfsdk:"id"`
	InstanceID  types.String   `tfsdk:"instance_id"`
	AccountName types.String   `tfsdk:"account_name"`
	Privilege   types.String   `tfsdk:"privilege"`
	DBNames     types.Set      `tfsdk:"db_names"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

func (m privilegeModel) id() string {
	return m.InstanceID.ValueString() + ":" + m.AccountName.ValueString() + ":" + m.Privilege.ValueString()
}

func (m privilegeModel) facts() rdsservice.AccessFacts {
	return rdsservice.AccessFacts{
		InstanceID:  stringIfKnown(m.InstanceID),
		AccountName: stringIfKnown(m.AccountName),
		Privilege:   stringIfKnown(m.Privilege),
	}
}

func (m privilegeModel) unknown() map[string]bool {
	return unknownAttrs(map[string]interface{ IsUnknown() bool }{
		rdsservice.AttrInstanceID: m.InstanceID, rdsservice.AttrAccountName: m.AccountName, rdsservice.AttrPrivilege: m.Privilege,
	})
}
