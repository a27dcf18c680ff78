package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// security_group_ids on rds_instance and rds_readonly_instance (issue 42 §2): the ECS security
// groups the instance is added to, the whole list sent with ModifySecurityGroupConfiguration
// (rdsservice security_groups.go). While it is set, a refresh reads
// DescribeSecurityGroupConfiguration (one more call); unset, the groups are left alone.

// securityGroupIDsAttribute is security_group_ids.
func securityGroupIDsAttribute() schema.SetAttribute {
	return schema.SetAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "ECS security groups the instance is added to (`ModifySecurityGroupConfiguration`): every ECS " +
			"instance of these groups may connect. At most 10. While set, these are all the instance's groups: one added " +
			"outside Terraform shows as drift, and an empty set removes them all. Unset, the groups are left as they are.",
	}
}

// refreshSecurityGroups reads the groups back where security_group_ids is managed.
func refreshSecurityGroups(ctx context.Context, api rdsapi.API, id string, current types.Set, diags *diag.Diagnostics) types.Set {
	if current.IsNull() || current.IsUnknown() {
		return types.SetNull(types.StringType)
	}
	resp, err := api.DescribeSecurityGroupConfiguration(ctx, id)
	if rdsapi.IsNotFound(err) {
		return current
	}
	if err != nil {
		diags.AddError("Error reading the RDS instance's security groups", fmt.Sprintf("DescribeSecurityGroupConfiguration %s: %v", id, err))
		return current
	}
	return stringSetValue(resp.IDs(), diags)
}

// securityGroupsOrNull is a model's security_group_ids, typed null when the model never had it.
func securityGroupsOrNull(s types.Set) types.Set {
	if s.IsNull() {
		return types.SetNull(types.StringType)
	}
	return s
}
