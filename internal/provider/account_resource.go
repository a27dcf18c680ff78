package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewAccountResource returns the rds_account resource.
func NewAccountResource() resource.Resource {
	r := &accountResource{}
	r.kind, r.typeName = r, "rds_account"
	return r
}

// accountResource is a database account of an instance, on the access skeleton (access_resource.go).
type accountResource struct {
	accessResource[accountModel]
}

func (r *accountResource) about() accessAbout {
	return accessAbout{kind: rdsservice.KindAccount, createCall: "CreateAccount",
		create: "Error creating RDS account", update: "Error updating RDS account", remove: "Error deleting RDS account"}
}

func (r *accountResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A database account of an RDS MySQL (or MariaDB) instance. The password is set with the " +
			"write-only `password_wo` (Terraform 1.11 and later: never stored in state or plan) and changed by " +
			"raising `password_wo_version`; CLIs without write-only attributes (OpenTofu before 1.11) use the " +
			"sensitive `password` instead, which is stored in state. Every naming, password and type rule is " +
			"checked at plan time.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<instance_id>:<name>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"instance_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Id of the primary instance. Read-only instances have their primary's accounts. Changing it replaces the account.",
				PlanModifiers:       requiresReplace("rds_account", rdsservice.AttrInstanceID),
			},
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Account name: 2 to 32 characters (16 on MySQL 5.6 and MariaDB), letters, digits and " +
					"underscores, starting with a letter and ending with a letter or digit; not a reserved name such as " +
					"`root` or `admin`. Unique per instance. Changing it replaces the account.",
				PlanModifiers: requiresReplace("rds_account", rdsservice.AttrName),
			},
			"type": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(rdsapi.AccountTypeNormal),
				MarkdownDescription: "`Normal` (a standard account, granted privileges with `rds_account_privilege`) or " +
					"`Super` (the privileged account: every privilege on every database; at most one per instance). " +
					"Fixed at creation: changing it replaces the account.",
				PlanModifiers: requiresReplace("rds_account", rdsservice.AttrType),
			},
			"description": descriptionAttribute("Application account"),
			"password_wo": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				MarkdownDescription: "The password (write-only: Terraform never stores it in state or plan). 8 to 32 " +
					"characters with at least three of upper-case letters, lower-case letters, digits and " +
					"`!@#$%^&*()_+-=`. Terraform cannot see a change of a write-only value: raise `password_wo_version` " +
					"to set a new one. Creating an account needs one of `password_wo` and `password`; an existing (imported) " +
					"account without either keeps its password (not managed by Terraform).",
				Validators: []validator.String{
					stringvalidator.ConflictsWith(path.MatchRoot("password")),
					stringvalidator.AlsoRequires(path.MatchRoot("password_wo_version")),
				},
			},
			"password_wo_version": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "Any number; changing it sets the account's password to the current `password_wo` " +
					"(ResetAccountPassword), without replacing the account.",
				Validators: []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("password_wo"))},
			},
			"password": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "The password for CLIs without write-only attributes (OpenTofu 1.10 and older, " +
					"Terraform before 1.11). Sensitive, but stored in state: prefer `password_wo`. Same rules as " +
					"`password_wo`; changing it resets the password.",
			},
			"status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`AccountStatus`: `Available` once the account can log in (`Unavailable` while it is being created).",
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *accountResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state accountModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	id, name := state.InstanceID.ValueString(), state.Name.ValueString()
	r.data.Journal.Recorded(id + ":" + name) // in a state: no longer an interrupted create's (issue 29)
	account, err := rdsservice.FindAccount(ctx, r.data.API, id, name)
	if err != nil && !gone(err) {
		resp.Diagnostics.AddError("Error reading RDS account", fmt.Sprintf("DescribeAccounts %s on %s: %v", name, id, err))
		return
	}
	if account == nil {
		resp.Diagnostics.AddWarning("RDS account no longer exists",
			fmt.Sprintf("Account %s on instance %s was not found (deleted outside Terraform?); it is removed from state and the next plan creates it again.", name, id))
		resp.State.RemoveResource(ctx)
		return
	}
	state.fill(account)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// ImportState imports `<instance_id>:<name>`. The password is not readable: set password_wo and
// password_wo_version (the first plan then resets the password to it) or password.
func (r *accountResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByInstanceAndName(ctx, r.data, "accounts", "rm-bp1example:app_user", req, resp)
}

func (r *accountResource) withPassword(plan accountModel, passwordWO types.String) accountModel {
	plan.PasswordWO = passwordWO
	return plan
}

// planned shows the id and keeps the status of an account that stays; a new account needs a
// password; an instance known only at apply defers the checks that need it (named in the plan).
func (r *accountResource) planned(_ context.Context, config accountModel, plan, state *accountModel, replacing bool, diags *diag.Diagnostics) {
	if isKnown(plan.InstanceID) && isKnown(plan.Name) && plan.ID.IsUnknown() {
		plan.ID = types.StringValue(plan.InstanceID.ValueString() + ":" + plan.Name.ValueString())
	}
	if state != nil && plan.Status.IsUnknown() && !replacing {
		plan.Status = state.Status
	}
	if replacing {
		requirePassword(config, diags)
	}
	if deferred := rdsservice.DeferredAccountChecks(plan.Type.ValueString(), plan.Name.ValueString()); plan.InstanceID.IsUnknown() && deferred != "" {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleAccountChecksDeferred, "", deferred)})
	}
}

func (r *accountResource) destroyPlanned(context.Context, accountModel, *diag.Diagnostics) {}

// request: an update resets the password when password_wo_version or password changes.
func (r *accountResource) request(_ context.Context, plan accountModel, state *accountModel, _ *diag.Diagnostics) rdsservice.AccessRequest {
	return rdsservice.AccessRequest{Kind: rdsservice.KindAccount, InstanceID: plan.InstanceID.ValueString(), Name: plan.Name.ValueString(),
		AccountType: plan.Type.ValueString(), Description: managedDescription(plan.Description), ResetPassword: state != nil && plan.resetsPassword(*state)}
}

func (r *accountResource) target(_ context.Context, state accountModel, _ *diag.Diagnostics) rdsservice.AccessRequest {
	return rdsservice.AccessRequest{Kind: rdsservice.KindAccount, InstanceID: state.InstanceID.ValueString(), Name: state.Name.ValueString()}
}

func (r *accountResource) password(config accountModel) string { return config.password() }

func (r *accountResource) journal(plan accountModel) (string, string) {
	return plan.journalKey(), plan.InstanceID.ValueString() + ":" + plan.Name.ValueString()
}

// stored: the write-only password never reaches state.
func (r *accountResource) stored(plan accountModel, out rdsservice.AccessOutcome) accountModel {
	plan.fill(out.Account)
	plan.PasswordWO = types.StringNull()
	return plan
}

func (r *accountResource) validation(config accountModel) (rdsservice.AccessFacts, map[string]bool) {
	f := config.facts()
	if config.Type.IsNull() {
		f.AccountType = rdsapi.AccountTypeNormal
	}
	return f, config.unknown()
}

func (r *accountResource) priorOf(_ context.Context, state accountModel) accessPrior {
	return accessPrior{InstanceID: state.InstanceID.ValueString(), Name: state.Name.ValueString()}
}

func (r *accountResource) fromPrior(prior accessPrior, _ *diag.Diagnostics) accountModel {
	return accountModel{InstanceID: types.StringValue(prior.InstanceID), Name: types.StringValue(prior.Name)}
}

// requirePassword: creating an account needs a password (CreateAccount requires one). An existing
// account needs none: without password_wo and password, its password is not managed (an imported
// account keeps the one it has).
func requirePassword(config accountModel, diags *diag.Diagnostics) {
	if config.PasswordWO.IsNull() && config.Password.IsNull() {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleAccountPasswordMissing, "")})
	}
}

// checkStage says when the rules are checked: at plan, or again before the first write of a
// create or an update (the plan may not have known the instance).
type checkStage int

const (
	atPlan checkStage = iota
	// atReplan is the second plan of a replacement, from a null prior state (see priorKey): the
	// first one has recorded this resource in the run already.
	atReplan
	atCreate
	atUpdate
)

func (r *accountResource) facts(config, plan accountModel) (rdsservice.AccessFacts, map[string]bool, types.String) {
	f := config.facts()
	f.AccountType = plan.Type.ValueString()
	return f, config.unknown(), plan.InstanceID
}

// readFacts fills, before a create, the facts that depend on the instance's accounts (a name
// taken by an account this resource does not manage, another privileged account) and, at plan,
// on the accounts the other rds_account resources of this run plan.
func (r *accountResource) readFacts(ctx context.Context, plan accountModel, prior *accountModel, stage checkStage, f *rdsservice.AccessFacts,
	diags *diag.Diagnostics) bool {
	if !isKnown(plan.Name) || stage == atUpdate {
		return true
	}
	id, name := plan.InstanceID.ValueString(), plan.Name.ValueString()
	accounts, err := rdsservice.ListAllAccounts(ctx, r.data.API, id)
	if err != nil {
		diags.AddError("Error reading RDS accounts", fmt.Sprintf("DescribeAccounts on %s: %v", id, err))
		return false
	}
	mine := ""
	if prior != nil && prior.InstanceID.Equal(plan.InstanceID) {
		mine = prior.Name.ValueString() // still there while Terraform replaces it
	}
	if clash := rdsservice.ClashingAccount(accounts, name, f.AccountType); clash != nil && clash.AccountName != mine &&
		(clash.AccountName != name || !adoptingAccess(r.data, "rds_account", plan.journalKey(), id+":"+name, stage, diags)) {
		f.Existing, f.ExistingType = clash.AccountName, clash.AccountType
	}
	if f.AccountType == rdsapi.AccountTypeSuper {
		if super := rdsservice.OtherSuper(accounts, name); super != mine {
			f.OtherSuper = super
		}
	}
	if stage == atPlan {
		twice, super := r.data.plans.PlanAccount(id, name, f.AccountType)
		f.PlannedElsewhere = twice
		if f.OtherSuper == "" && f.AccountType == rdsapi.AccountTypeSuper {
			f.OtherSuper = super
		}
	}
	return true
}

type accountModel struct {
	ID                types.String   `tfsdk:"id"`
	InstanceID        types.String   `tfsdk:"instance_id"`
	Name              types.String   `tfsdk:"name"`
	Type              types.String   `tfsdk:"type"`
	Description       types.String   `tfsdk:"description"`
	PasswordWO        types.String   `tfsdk:"password_wo"`
	PasswordWOVersion types.Int64    `tfsdk:"password_wo_version"`
	Password          types.String   `tfsdk:"password"`
	Status            types.String   `tfsdk:"status"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

// password is the configured password: password_wo, else password.
func (m accountModel) password() string {
	if isKnown(m.PasswordWO) {
		return m.PasswordWO.ValueString()
	}
	return m.Password.ValueString()
}

// resetsPassword: the version or the state-held password changed.
func (m accountModel) resetsPassword(state accountModel) bool {
	return !m.PasswordWOVersion.Equal(state.PasswordWOVersion) || !m.Password.Equal(state.Password)
}

// facts are the configuration's values for the rules; unknown values stay empty (see unknown).
func (m accountModel) facts() rdsservice.AccessFacts {
	f := rdsservice.AccessFacts{
		InstanceID:         stringIfKnown(m.InstanceID),
		AccountName:        stringIfKnown(m.Name),
		AccountType:        stringIfKnown(m.Type),
		AccountDescription: stringIfKnown(m.Description),
	}
	if isKnown(m.PasswordWO) || isKnown(m.Password) {
		f.Password, f.PasswordKnown = m.password(), true
	}
	if !isKnown(m.PasswordWO) && !m.Password.IsNull() {
		f.PasswordAttr = rdsservice.AttrPasswordPlain
	}
	return f
}

func (m accountModel) unknown() map[string]bool {
	return unknownAttrs(map[string]interface{ IsUnknown() bool }{
		rdsservice.AttrInstanceID: m.InstanceID, rdsservice.AttrName: m.Name, rdsservice.AttrType: m.Type,
		rdsservice.AttrDescription: m.Description,
	})
}

// fill copies what the cloud reports into the model.
func (m *accountModel) fill(a *rdsapi.DBInstanceAccount) {
	m.Type = types.StringValue(a.AccountType)
	m.Description = stringOrNull(m.Description, a.AccountDescription)
	m.Status = types.StringValue(a.AccountStatus)
	if m.ID.IsNull() || m.ID.IsUnknown() {
		m.ID = types.StringValue(m.InstanceID.ValueString() + ":" + m.Name.ValueString())
	}
}
