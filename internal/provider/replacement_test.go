package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Every resource's schema replaces exactly where rdsservice's table says it always does, or does
// when configured; an attribute the table replaces only without a path in place has no replacing
// modifier (ModifyPlan sets it). The modifiers are probed with a changed value, configured and
// not, so a modifier added beside the table, or a row the schema does not follow, fails here.
func TestSchemaReplacesAsTheTableSays(t *testing.T) {
	ctx := context.Background()
	p := New("test")()
	var typ resource.MetadataResponse
	for _, factory := range p.Resources(ctx) {
		r := factory()
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "rds"}, &typ)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		got := map[string]rdsservice.ReplaceWhen{}
		for name, a := range s.Schema.Attributes {
			if when := probeReplace(ctx, t, s.Schema, name, a); when != 0 {
				got[name] = when
			}
		}
		want := rdsservice.ReplacingAttributes(typ.TypeName)
		for name, when := range want {
			if _, ok := s.Schema.Attributes[name]; !ok {
				t.Errorf("%s: the table names %s, which the schema does not have", typ.TypeName, name)
			}
			if when == rdsservice.ReplaceUnlessInPlace {
				delete(want, name)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the schema replaces on %v, the table on %v", typ.TypeName, got, want)
		}
	}
}

// probeReplace is how attribute name's plan modifiers replace on a change: always, only when
// configured, or not (0).
func probeReplace(ctx context.Context, t *testing.T, s schema.Schema, name string, a schema.Attribute) rdsservice.ReplaceWhen {
	o := probeObjects(ctx, s)
	replaces := func(configured bool) bool {
		// prior and planned differ; the configuration holds the planned value, or null.
		pick := func(null, planned attr.Value) attr.Value {
			if configured {
				return planned
			}
			return null
		}
		switch a := a.(type) {
		case schema.StringAttribute:
			return probeAll(a.PlanModifiers, func(m planmodifier.String) bool {
				var resp planmodifier.StringResponse
				m.PlanModifyString(ctx, planmodifier.StringRequest{State: o.state, Plan: o.plan, Config: o.config, StateValue: types.StringValue("a"),
					PlanValue: types.StringValue("b"), ConfigValue: pick(types.StringNull(), types.StringValue("b")).(types.String)}, &resp)
				return resp.RequiresReplace
			})
		case schema.Int64Attribute:
			return probeAll(a.PlanModifiers, func(m planmodifier.Int64) bool {
				var resp planmodifier.Int64Response
				m.PlanModifyInt64(ctx, planmodifier.Int64Request{State: o.state, Plan: o.plan, Config: o.config, StateValue: types.Int64Value(1),
					PlanValue: types.Int64Value(2), ConfigValue: pick(types.Int64Null(), types.Int64Value(2)).(types.Int64)}, &resp)
				return resp.RequiresReplace
			})
		case schema.BoolAttribute:
			return probeAll(a.PlanModifiers, func(m planmodifier.Bool) bool {
				var resp planmodifier.BoolResponse
				m.PlanModifyBool(ctx, planmodifier.BoolRequest{State: o.state, Plan: o.plan, Config: o.config, StateValue: types.BoolValue(false),
					PlanValue: types.BoolValue(true), ConfigValue: pick(types.BoolNull(), types.BoolValue(true)).(types.Bool)}, &resp)
				return resp.RequiresReplace
			})
		case schema.SetAttribute:
			planned := types.SetValueMust(types.StringType, nil)
			return probeAll(a.PlanModifiers, func(m planmodifier.Set) bool {
				var resp planmodifier.SetResponse
				m.PlanModifySet(ctx, planmodifier.SetRequest{State: o.state, Plan: o.plan, Config: o.config,
					StateValue: types.SetValueMust(types.StringType, []attr.Value{types.StringValue("a")}), PlanValue: planned,
					ConfigValue: pick(types.SetNull(types.StringType), planned).(types.Set)}, &resp)
				return resp.RequiresReplace
			})
		case schema.SingleNestedAttribute:
			return probeAll(a.PlanModifiers, func(m planmodifier.Object) bool {
				var resp planmodifier.ObjectResponse
				m.PlanModifyObject(ctx, planmodifier.ObjectRequest{State: o.state, Plan: o.plan, Config: o.config, StateValue: types.ObjectNull(nil),
					PlanValue: types.ObjectUnknown(nil), ConfigValue: pick(types.ObjectNull(nil), types.ObjectUnknown(nil)).(types.Object)}, &resp)
				return resp.RequiresReplace
			})
		case schema.ListAttribute:
			planned := types.ListValueMust(types.StringType, nil)
			return probeAll(a.PlanModifiers, func(m planmodifier.List) bool {
				var resp planmodifier.ListResponse
				m.PlanModifyList(ctx, planmodifier.ListRequest{State: o.state, Plan: o.plan, Config: o.config,
					StateValue: types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a")}), PlanValue: planned,
					ConfigValue: pick(types.ListNull(types.StringType), planned).(types.List)}, &resp)
				return resp.RequiresReplace
			})
		default:
			if m := reflect.ValueOf(a).FieldByName("PlanModifiers"); m.IsValid() && m.Len() != 0 {
				t.Errorf("%s: plan modifiers of a %T are not probed; add the kind to probeReplace", name, a)
			}
		}
		return false
	}
	switch always, ifConfigured := replaces(false), replaces(true); {
	case always:
		return rdsservice.ReplaceAlways
	case ifConfigured:
		return rdsservice.ReplaceIfConfigured
	}
	return 0
}

type probeObjectsT struct {
	state  tfsdk.State
	plan   tfsdk.Plan
	config tfsdk.Config
}

// probeObjects are a non-null prior state, plan and configuration (an update) of schema s.
func probeObjects(ctx context.Context, s schema.Schema) probeObjectsT {
	typ := s.Type().TerraformType(ctx).(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		values[name] = tftypes.NewValue(at, nil)
	}
	raw := tftypes.NewValue(typ, values)
	return probeObjectsT{tfsdk.State{Schema: s, Raw: raw}, tfsdk.Plan{Schema: s, Raw: raw}, tfsdk.Config{Schema: s, Raw: raw}}
}

func probeAll[M any](modifiers []M, replaces func(M) bool) bool {
	for _, m := range modifiers {
		if replaces(m) {
			return true
		}
	}
	return false
}
