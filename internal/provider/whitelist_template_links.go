package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// whitelist_template_ids on rds_instance and rds_readonly_instance (issue 42 §2): the whitelist
// templates linked to the instance, attached and detached by the program (rdsservice
// whitelist_template.go). While it is set, a refresh reads DescribeInstanceLinkedWhitelistTemplate
// (one more call); unset, the links are left alone.

func whitelistTemplateIDsAttribute() schema.SetAttribute {
	return schema.SetAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "Whitelist templates linked to the instance (`AttachWhitelistTemplateToInstance`), by id " +
			"(`rds_whitelist_template.<name>.id`). Their entries admit clients like the instance's own lists and count against its " +
			"1,000 entries. While set, these are all the instance's templates: one linked outside Terraform shows as drift and is " +
			"detached, and an empty set detaches them all. Unset, the links are left as they are.",
	}
}

// refreshTemplateLinks reads the linked templates back where whitelist_template_ids is managed.
func refreshTemplateLinks(ctx context.Context, api rdsapi.API, id string, current types.Set, diags *diag.Diagnostics) types.Set {
	if current.IsNull() || current.IsUnknown() {
		return types.SetNull(types.StringType)
	}
	linked, err := api.DescribeInstanceLinkedWhitelistTemplate(ctx, id)
	if rdsapi.IsNotFound(err) {
		return current
	}
	if err != nil {
		diags.AddError("Error reading the RDS instance's whitelist templates", fmt.Sprintf("DescribeInstanceLinkedWhitelistTemplate %s: %v", id, err))
		return current
	}
	ids := make([]string, 0, len(linked))
	for _, t := range linked {
		ids = append(ids, strconv.FormatInt(int64(t.TemplateID), 10))
	}
	return stringSetValue(ids, diags)
}
