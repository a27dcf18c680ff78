package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// A read-only instance destroyed in the same run as its primary's change is gone before that
// change: Terraform destroys a resource before it updates one the resource depends on
// (hashicorp/terraform, internal/terraform/transform_destroy_edge.go). Whichever of the two plans
// comes second says so: the primary's plan leaves a read-only instance already planned for release
// out of its facts (readOnlyFacts), and the read-only instance's destroy plan corrects a restart
// that the primary's plan named for it.

// planReleasedReadOnly records the release of a read-only instance and warns when this run's plan
// of its primary named it as restarting with the primary; it refuses the release while this run's
// plan of the primary's proxy still weights it (rdsservice.ReleasedWhileWeighted).
func planReleasedReadOnly(ctx context.Context, data *ProviderData, state tfsdk.State, diags *diag.Diagnostics) {
	if data == nil {
		return
	}
	var id, master types.String
	d := state.GetAttribute(ctx, path.Root("id"), &id)
	d.Append(state.GetAttribute(ctx, path.Root("master_instance_id"), &master)...)
	if d.HasError() || !isKnown(id) {
		return
	}
	data.plans.RecordReleased(id.ValueString())
	addProblems(diags, rdsservice.ReleasedWhileWeighted(&data.plans, master.ValueString(), id.ValueString()))
	if data.plans.Follows(master.ValueString(), id.ValueString()) {
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleReadOnlyReleasedFirst, id.ValueString(),
			id.ValueString(), master.ValueString())})
	}
}
