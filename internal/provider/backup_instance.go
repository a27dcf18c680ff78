package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// released_keep_policy of rds_instance: which backup sets survive a destroy, sent with
// DeleteDBInstance and shown in the plan of the destroy.

func releasedKeepPolicyAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Which backup sets survive a destroy (`ReleasedKeepPolicy`, sent with `DeleteDBInstance`): `None`, " +
			"`Lastest` (the latest set; the API's spelling) or `All`. Cloud-disk instances created on or after 2024-02-01 always " +
			"keep the latest set, so only `Lastest` is accepted for them. Unset: the instance's backup policy decides. The plan " +
			"of a destroy says what is kept.",
	}
}
