package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestAcceptedStateHoldsNoUnknown: the state recorded when the cloud accepts a create, from a plan
// whose every attribute is unknown, holds no unknown value. A model attribute the conversion missed
// made Terraform refuse the state of an interrupted create ("Provider returned invalid result
// object after apply": minor_version and the secondary zones).
func TestAcceptedStateHoldsNoUnknown(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, r resource.Resource, accept func(tfsdk.Plan) (any, error)) {
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
		attrs := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		}
		if len(attrs) < 10 {
			t.Fatalf("schema has %d attributes; expected the resource's full schema", len(attrs))
		}
		accepted, err := accept(tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, attrs)})
		if err != nil {
			t.Fatal(err)
		}
		state := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
		if diags := state.Set(ctx, accepted); diags.HasError() {
			t.Fatalf("state.Set: %v", diags)
		}
		if !state.Raw.IsFullyKnown() {
			var unknown []string
			_ = tftypes.Walk(state.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
				if !v.IsKnown() {
					unknown = append(unknown, p.String())
				}
				return true, nil
			})
			t.Fatalf("the accepted state holds unknown values: %v", unknown)
		}
	}
	t.Run("rds_instance", func(t *testing.T) {
		check(t, NewInstanceResource(), func(p tfsdk.Plan) (any, error) {
			var m instanceModel
			if diags := p.Get(ctx, &m); diags.HasError() {
				return nil, fmt.Errorf("plan.Get: %v", diags)
			}
			return primaryKind{}.accepted(m, "rm-accepted"), nil
		})
	})
	t.Run("rds_readonly_instance", func(t *testing.T) {
		check(t, NewReadonlyInstanceResource(), func(p tfsdk.Plan) (any, error) {
			var m readonlyInstanceModel
			if diags := p.Get(ctx, &m); diags.HasError() {
				return nil, fmt.Errorf("plan.Get: %v", diags)
			}
			return (&readonlyKind{}).accepted(m, "rr-accepted"), nil
		})
	})
}
