package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// preventDataLossAttribute is prevent_data_loss of a resource whose plans can delete data (issue
// 46 §3): what names the losses it refuses. It is kept in the state, so a destroy is refused
// by the value last applied.
func preventDataLossAttribute(what string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: "Refuse at plan time, before anything is sent, any plan that deletes " + what + ". Without it the plan " +
			"warns and names what goes. Set it to `rds_instance.main.prevent_data_loss` to guard an instance's data with one " +
			"setting. It is kept in the state: to allow a refused destroy, apply `prevent_data_loss = false` first. Default false."}
}

// withPreventDataLoss is v, false when a state written before the attribute existed has none.
func withPreventDataLoss(v types.Bool) types.Bool {
	if v.IsNull() || v.IsUnknown() {
		return types.BoolValue(false)
	}
	return v
}
