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

// NewAccountsDataSource returns the rds_accounts data source: the accounts of an instance.
func NewAccountsDataSource() datasource.DataSource {
	return &accessListDataSource[rdsapi.DBInstanceAccount]{dataSourceBase: dataSourceBase{typeName: "rds_accounts"}, accessListing: accessListing[rdsapi.DBInstanceAccount]{
		plural:      "accounts",
		call:        "DescribeAccounts",
		description: "Lists the accounts of an instance (a read-only instance lists its primary's), with their privileges. Passwords are never readable.",
		item: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
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
		list: rdsservice.ListAllAccounts,
		name: func(a rdsapi.DBInstanceAccount) string { return a.AccountName },
		object: func(a rdsapi.DBInstanceAccount, diags *diag.Diagnostics) map[string]attr.Value {
			var grants []map[string]attr.Value
			for _, p := range a.DatabasePrivileges.DatabasePrivilege {
				grants = append(grants, map[string]attr.Value{"db_name": types.StringValue(p.DBName), "privilege": types.StringValue(p.AccountPrivilege)})
			}
			return map[string]attr.Value{
				"name": types.StringValue(a.AccountName), "type": types.StringValue(a.AccountType), "status": types.StringValue(a.AccountStatus),
				"description": types.StringValue(a.AccountDescription),
				"privileges":  grantList(map[string]attr.Type{"db_name": types.StringType, "privilege": types.StringType}, grants, diags),
			}
		},
	}}
}
