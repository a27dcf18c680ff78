package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Another run (a second pipeline, the console, a colleague) may change an instance while this
//   - an update sends and waits for only what it changes, and a change that someone else's change
//     made impossible fails at once, naming what changed (the executor, rdsservice.Execute);
//   - the state after an apply holds the planned values for what the plan knew and the values read
//     from the cloud for what it left unknown (setAppliedState), so someone else's change shows
//     as drift in the next plan instead of failing this apply with "Provider produced
//     inconsistent result".

// setAppliedState records an applied create or update: applied is the resource's model as read
// back from the cloud; every attribute the plan knew keeps its planned value.
func setAppliedState(ctx context.Context, planned tfsdk.Plan, applied any, state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, applied)...)
	if diags.HasError() {
		return
	}
	state.Raw = keepPlanned(planned.Raw, state.Raw)
}

// keepPlanned is planned where it is known and read where it is not, attribute by attribute in
// objects (a block whose planned value is partly unknown keeps its known parts).
func keepPlanned(planned, read tftypes.Value) tftypes.Value {
	switch {
	case planned.IsFullyKnown():
		return planned
	case !planned.IsKnown() || planned.IsNull() || !read.IsKnown() || read.IsNull():
		return read
	}
	obj, ok := planned.Type().(tftypes.Object)
	if !ok || !read.Type().Equal(planned.Type()) {
		return read
	}
	var p, r map[string]tftypes.Value
	if planned.As(&p) != nil || read.As(&r) != nil {
		return read
	}
	out := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name := range obj.AttributeTypes {
		out[name] = keepPlanned(p[name], r[name])
	}
	return tftypes.NewValue(planned.Type(), out)
}
