package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func instanceSchemaForTest(t *testing.T) resource.SchemaResponse {
	t.Helper()
	var resp resource.SchemaResponse
	NewInstanceResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp
}

// A model and a schema that do not pair up, or a value of the wrong type, is an error naming the
// attribute, never a panic.
func TestModelCodecRefusesMismatches(t *testing.T) {
	ctx := context.Background()
	resp := instanceSchemaForTest(t)
	objType := resp.Schema.Type().(attr.TypeWithAttributeTypes)
	attrs := objType.AttributeTypes()
	tfType := objType.TerraformType(ctx)

	type missingField struct {
		ID types.String `tfsdk:"id"`
	}
	if _, err := newModelCodec[missingField](tfType, attrs); err == nil || !strings.Contains(err.Error(), "no field for the attribute") {
		t.Errorf("want an error for attributes without a field, got %v", err)
	}
	if _, err := newModelCodec[string](tfType, attrs); err == nil {
		t.Error("a model that is not a struct: want an error")
	}
	type unknownAttr struct {
		Nope types.String `tfsdk:"nope"`
	}
	if _, err := newModelCodec[unknownAttr](tfType, attrs); err == nil || !strings.Contains(err.Error(), `no attribute "nope"`) {
		t.Errorf("want an error for a field without an attribute, got %v", err)
	}

	var bad instanceModel
	if d := instanceCodec.Get(ctx, sampleValue(tfType), &bad); d.HasError() {
		t.Fatal(d)
	}
	bad.ScheduledChange = types.ObjectNull(restoreFromAttrTypes) // the wrong object type
	var st tfsdk.State
	d := instanceCodec.Set(ctx, &st, bad)
	if !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), "scheduled_change") {
		t.Errorf("want an error naming scheduled_change, got %v", d)
	}
	var m instanceModel
	if d := instanceCodec.Get(ctx, tftypes.NewValue(tfType, nil), &m); !d.HasError() {
		t.Error("decoding a null object: want an error")
	}
}

// sampleValue is a value of type t with every attribute and element set (strings "x", numbers
// 7, booleans true; one element per collection).
func sampleValue(t tftypes.Type) tftypes.Value {
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, "x")
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, 7)
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, true)
	case t.Is(tftypes.List{}):
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.(tftypes.List).ElementType)})
	case t.Is(tftypes.Set{}):
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.(tftypes.Set).ElementType)})
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": sampleValue(t.(tftypes.Map).ElementType)})
	case t.Is(tftypes.Object{}):
		vals := map[string]tftypes.Value{}
		for name, at := range t.(tftypes.Object).AttributeTypes {
			vals[name] = sampleValue(at)
		}
		return tftypes.NewValue(t, vals)
	}
	panic(fmt.Sprintf("sampleValue: no sample for %s", t))
}

// sampleObject is an object of type t whose top-level attributes but id are made by leaf (null
// or unknown).
func sampleObject(t tftypes.Object, leaf func(tftypes.Type) tftypes.Value) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for name, at := range t.AttributeTypes {
		vals[name] = leaf(at)
	}
	vals["id"] = tftypes.NewValue(tftypes.String, "rm-1")
	return tftypes.NewValue(t, vals)
}

// Every resource with a codec: its Get and Set agree with the framework's on values, nulls and
// unknowns of every attribute.
func TestCodecsAgreeWithFrameworkOnEveryAttribute(t *testing.T) {
	t.Run("rds_instance", func(t *testing.T) { checkCodec(t, NewInstanceResource(), instanceCodec) })
	t.Run("rds_readonly_instance", func(t *testing.T) { checkCodec(t, NewReadonlyInstanceResource(), readonlyInstanceCodec) })
}

func checkCodec[M any](t *testing.T, r resource.Resource, codec *lazyCodec[M]) {
	ctx := context.Background()
	var sresp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sresp)
	objType := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	samples := map[string]tftypes.Value{
		"values":   sampleValue(objType),
		"nulls":    sampleObject(objType, func(t tftypes.Type) tftypes.Value { return tftypes.NewValue(t, nil) }),
		"unknowns": sampleObject(objType, func(t tftypes.Type) tftypes.Value { return tftypes.NewValue(t, tftypes.UnknownValue) }),
	}
	for name, raw := range samples {
		plan := tfsdk.Plan{Schema: sresp.Schema, Raw: raw}
		var byFramework, byCodec M
		if d := plan.Get(ctx, &byFramework); d.HasError() {
			t.Fatalf("%s: framework: %v", name, d)
		}
		if d := codec.Get(ctx, raw, &byCodec); d.HasError() {
			t.Fatalf("%s: codec: %v", name, d)
		}
		if !reflect.DeepEqual(byCodec, byFramework) {
			t.Errorf("%s: decoded models differ:\ncodec     %+v\nframework %+v", name, byCodec, byFramework)
		}
		st := tfsdk.State{Schema: sresp.Schema}
		if d := codec.Set(ctx, &st, byCodec); d.HasError() {
			t.Fatalf("%s: codec: %v", name, d)
		}
		if !st.Raw.Equal(raw) {
			t.Errorf("%s: codec encodes\n%s\nwant\n%s", name, st.Raw, raw)
		}
	}
}
