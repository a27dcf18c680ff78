package provider

import (
	"context"
	"fmt"
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
	_ datasource.DataSource              = (*databasesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*databasesDataSource)(nil)
)

// NewDatabasesDataSource returns the rds_databases data source.
func NewDatabasesDataSource() datasource.DataSource { return &databasesDataSource{} }

// databasesDataSource lists the databases of an instance.
type databasesDataSource struct {
	data *ProviderData
}

var databaseGrantAttrTypes = map[string]attr.Type{"account_name": types.StringType, "privilege": types.StringType}

var databaseAttrTypes = map[string]attr.Type{
	"name":          types.StringType,
	"character_set": types.StringType,
	"status":        types.StringType,
	"description":   types.StringType,
	"accounts":      types.ListType{ElemType: types.ObjectType{AttrTypes: databaseGrantAttrTypes}},
}

func (d *databasesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_databases"
}

func (d *databasesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the databases of an instance (a read-only instance lists its primary's), with the accounts granted on each.",
		Attributes: map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{Required: true, MarkdownDescription: "Id of the instance."},
			"name_regex": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Keep only databases whose name matches this regular expression.",
				Validators: []validator.String{regexValidator{}},
			},
			"names": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Names of the databases, sorted."},
			"databases": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The databases, sorted by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":          schema.StringAttribute{Computed: true, MarkdownDescription: "Database name."},
					"character_set": schema.StringAttribute{Computed: true, MarkdownDescription: "Character set."},
					"status":        schema.StringAttribute{Computed: true, MarkdownDescription: "`Creating`, `Running` or `Deleting`."},
					"description":   schema.StringAttribute{Computed: true, MarkdownDescription: "Description."},
					"accounts": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "Accounts with a privilege on the database.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"account_name": schema.StringAttribute{Computed: true, MarkdownDescription: "Account."},
							"privilege":    schema.StringAttribute{Computed: true, MarkdownDescription: "`ReadWrite`, `ReadOnly`, `DDLOnly`, `DMLOnly` (or `Custom`)."},
						}},
					},
				}},
			},
		},
	}
}

func (d *databasesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, "rds_databases", &resp.Diagnostics)
}

func (d *databasesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var m databasesDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	nameRE := compileNameRegex(m.NameRegex, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.InstanceID.ValueString()
	dbs, err := rdsservice.ListAllDatabases(ctx, d.data.API, id)
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS databases", fmt.Sprintf("DescribeDatabases on %s: %v", id, err))
		return
	}
	sort.Slice(dbs, func(i, j int) bool { return dbs[i].DBName < dbs[j].DBName })
	m.Names, m.Databases = namedObjects(dbs, nameRE, func(db rdsapi.Database) string { return db.DBName },
		databaseObject, databaseAttrTypes, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func databaseObject(db rdsapi.Database, diags *diag.Diagnostics) attr.Value {
	grants := []attr.Value{}
	for _, g := range db.Accounts.AccountPrivilegeInfo {
		obj, d := types.ObjectValue(databaseGrantAttrTypes, map[string]attr.Value{"account_name": types.StringValue(g.Account), "privilege": types.StringValue(g.AccountPrivilege)})
		diags.Append(d...)
		grants = append(grants, obj)
	}
	list, d := types.ListValue(types.ObjectType{AttrTypes: databaseGrantAttrTypes}, grants)
	diags.Append(d...)
	obj, d := types.ObjectValue(databaseAttrTypes, map[string]attr.Value{
		"name": types.StringValue(db.DBName), "character_set": types.StringValue(db.CharacterSetName), "status": types.StringValue(db.DBStatus),
		"description": types.StringValue(db.DBDescription), "accounts": list,
	})
	diags.Append(d...)
	return obj
}

type databasesDataModel struct {
	InstanceID types.String `tfsdk:"instance_id"`
	NameRegex  types.String `tfsdk:"name_regex"`
	Names      types.List   `tfsdk:"names"`
	Databases  types.List   `tfsdk:"databases"`
}
