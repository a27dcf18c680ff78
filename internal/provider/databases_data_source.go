package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewDatabasesDataSource returns the rds_databases data source: the databases of an instance.
func NewDatabasesDataSource() datasource.DataSource {
	return &accessListDataSource[rdsapi.Database]{dataSourceBase: dataSourceBase{typeName: "rds_databases"}, accessListing: accessListing[rdsapi.Database]{
		plural:      "databases",
		call:        "DescribeDatabases",
		description: "Lists the databases of an instance (a read-only instance lists its primary's), with the accounts granted on each.",
		item: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
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
		list: rdsservice.ListAllDatabases,
		name: func(db rdsapi.Database) string { return db.DBName },
		object: func(db rdsapi.Database, diags *diag.Diagnostics) map[string]attr.Value {
			var grants []map[string]attr.Value
			for _, g := range db.Accounts.AccountPrivilegeInfo {
				grants = append(grants, map[string]attr.Value{"account_name": types.StringValue(g.Account), "privilege": types.StringValue(g.AccountPrivilege)})
			}
			return map[string]attr.Value{
				"name": types.StringValue(db.DBName), "character_set": types.StringValue(db.CharacterSetName), "status": types.StringValue(db.DBStatus),
				"description": types.StringValue(db.DBDescription),
				"accounts":    grantList(map[string]attr.Type{"account_name": types.StringType, "privilege": types.StringType}, grants, diags),
			}
		},
	}}
}
