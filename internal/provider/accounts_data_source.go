package provider

import (
	"context"
	"fmt"
	"regexp"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ datasource.DataSource              = (*accountsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*accountsDataSource)(nil)
)

// NewAccountsDataSource returns the rds_accounts data source.
func NewAccountsDataSource() datasource.DataSource { return &accountsDataSource{} }

// accountsDataSource lists the accounts of an instance.
type accountsDataSource struct {
	data *ProviderData
}

var grantAttrTypes = map[string]attr.Type{"db_name": types.StringType, "privilege": types.StringType}

var accountAttrTypes = map[string]attr.Type{
	"name":        types.StringType,
	"type":        types.StringType,
	"status":      types.StringType,
	"description": types.StringType,
	"privileges":  types.ListType{ElemType: types.ObjectType{AttrTypes: grantAttrTypes}},
}

func (d *accountsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_accounts"
}

func (d *accountsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the accounts of an instance (a read-only instance lists its primary's), with their privileges. Passwords are never readable.",
		Attributes: map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{Required: true, MarkdownDescription: "Id of the instance."},
			"name_regex": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Keep only accounts whose name matches this regular expression.",
				Validators: []validator.String{regexValidator{}},
			},
			"names": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Names of the accounts, sorted."},
			"accounts": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The accounts, sorted by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":        schema.StringAttribute{Computed: true, MarkdownDescription: "Account name."},
					"type":        schema.StringAttribute{Computed: true, MarkdownDescription: "`Normal` or `Super`."},
					"status":      schema.StringAttribute{Computed: true, MarkdownDescription: "`Available` or `Unavailable`."},
					"description": schema.StringAttribute{Computed: true, MarkdownDescription: "Description."},
					"privileges": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "Privileges per database (empty for the `Super` account, which has them all).",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"db_name":   schema.StringAttribute{Computed: true, MarkdownDescription: "Database."},
							"privilege": schema.StringAttribute{Computed: true, MarkdownDescription: "`ReadWrite`, `ReadOnly`, `DDLOnly`, `DMLOnly` (or `Custom` when set with SQL)."},
						}},
					},
				}},
			},
		},
	}
}

func (d *accountsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, "rds_accounts", &resp.Diagnostics)
}

func (d *accountsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var m accountsDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	nameRE := compileNameRegex(m.NameRegex, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.InstanceID.ValueString()
	accounts, err := rdsservice.ListAllAccounts(ctx, d.data.API, id)
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS accounts", fmt.Sprintf("DescribeAccounts on %s: %v", id, err))
		return
	}
	sort.Slice(accounts, func(i, j int) bool { return accounts[i].AccountName < accounts[j].AccountName })
	m.Names, m.Accounts = namedObjects(accounts, nameRE, func(a rdsapi.DBInstanceAccount) string { return a.AccountName },
		accountObject, accountAttrTypes, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func accountObject(a rdsapi.DBInstanceAccount, diags *diag.Diagnostics) attr.Value {
	grants := []attr.Value{}
	for _, p := range a.DatabasePrivileges.DatabasePrivilege {
		g, d := types.ObjectValue(grantAttrTypes, map[string]attr.Value{"db_name": types.StringValue(p.DBName), "privilege": types.StringValue(p.AccountPrivilege)})
		diags.Append(d...)
		grants = append(grants, g)
	}
	list, d := types.ListValue(types.ObjectType{AttrTypes: grantAttrTypes}, grants)
	diags.Append(d...)
	obj, d := types.ObjectValue(accountAttrTypes, map[string]attr.Value{
		"name": types.StringValue(a.AccountName), "type": types.StringValue(a.AccountType), "status": types.StringValue(a.AccountStatus),
		"description": types.StringValue(a.AccountDescription), "privileges": list,
	})
	diags.Append(d...)
	return obj
}

// namedObjects keeps the items whose name matches re (all when nil), in order, and returns their
// names and their objects: the names and the list attributes of rds_accounts and rds_databases.
func namedObjects[T any](items []T, re *regexp.Regexp, name func(T) string, object func(T, *diag.Diagnostics) attr.Value,
	attrTypes map[string]attr.Type, diags *diag.Diagnostics) (types.List, types.List) {
	var names []string
	objs := []attr.Value{}
	for _, it := range items {
		if re != nil && !re.MatchString(name(it)) {
			continue
		}
		names = append(names, name(it))
		objs = append(objs, object(it, diags))
	}
	list, d := types.ListValue(types.ObjectType{AttrTypes: attrTypes}, objs)
	diags.Append(d...)
	return stringListValue(names, diags), list
}

// compileNameRegex compiles an optional name_regex (its validator refused bad ones already).
func compileNameRegex(v types.String, diags *diag.Diagnostics) *regexp.Regexp {
	if !isKnown(v) {
		return nil
	}
	re, err := regexp.Compile(v.ValueString())
	if err != nil {
		diags.AddError("Invalid name_regex", err.Error())
		return nil
	}
	return re
}

type accountsDataModel struct {
	InstanceID types.String `tfsdk:"instance_id"`
	NameRegex  types.String `tfsdk:"name_regex"`
	Names      types.List   `tfsdk:"names"`
	Accounts   types.List   `tfsdk:"accounts"`
}
