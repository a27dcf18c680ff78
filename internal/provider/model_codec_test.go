package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// codecModels are rds_instance models the codec must convert exactly as the framework does:
// values, nulls, unknowns (a plan or configuration has them), collections and nested objects.
func codecModels() map[string]instanceModel {
	timeoutTypes := map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType}
	full := instanceModel{
		ID: types.StringValue("rm-1"), Engine: types.StringValue("MySQL"), EngineVersion: types.StringValue("8.0"),
		InstanceType: types.StringValue("mysql.n2.medium.1"), Storage: types.Int64Value(20), StorageType: types.StringValue("cloud_essd"),
		Category: types.StringValue("HighAvailability"), ZoneID: types.StringValue("cn-hangzhou-h"), VpcID: types.StringValue("vpc-1"),
		VSwitchID: types.StringValue("vsw-1"), InstanceName: types.StringValue("orders"),
		SecurityIPs:        types.SetValueMust(types.StringType, []attr.Value{types.StringValue("10.0.0.0/8"), types.StringValue("127.0.0.1")}),
		DeletionProtection: types.BoolValue(true), AtomicWrite16K: types.BoolValue(true), BufferPoolExtension: types.BoolValue(false),
		PreventRestart: types.BoolValue(false),
		RestoreFrom: types.ObjectValueMust(restoreFromAttrTypes, map[string]attr.Value{
			"source_instance_id": types.StringValue("rm-0"), "backup_id": types.StringNull(), "restore_time": types.StringValue("2026-01-01T00:00:00Z"),
		}),
		Timeouts: timeouts.Value{Object: types.ObjectValueMust(timeoutTypes, map[string]attr.Value{
			"create": types.StringValue("30m"), "update": types.StringNull(), "delete": types.StringNull(),
		})},
		Status: types.StringValue("Running"), ConnectionString: types.StringValue("rm-1.mysql.rds.aliyuncs.com"), Port: types.Int64Value(3306),
		CreationTime: types.StringValue("2026-01-01T00:00:00Z"), PurchaseTime: types.StringValue("2026-01-01T00:00:00Z"),
		InstructionSetArch: types.StringValue("x86"), AtomicWrite16KSupported: types.BoolValue(true),
		ReadOnlyInstanceIDs: types.ListValueMust(types.StringType, []attr.Value{types.StringValue("rr-1"), types.StringValue("rr-2")}),
		MaintenanceWindow:   types.StringValue("02:00Z-03:00Z"), ApplyRestarts: types.StringValue("immediately"),
		ScheduledChange: types.ObjectValueMust(scheduledChangeAttrTypes, map[string]attr.Value{
			"task_id": types.StringValue("t-1"), "window": types.StringValue("02:00Z-03:00Z"), "starts_at": types.StringUnknown(),
			"changes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("instance_type")}),
		}),
		Parameters:        types.MapValueMust(types.StringType, map[string]attr.Value{"innodb_flush_log_at_trx_commit": types.StringValue("2")}),
		ParametersPending: types.MapValueMust(types.StringType, map[string]attr.Value{}),
	}
	withUnknowns := full
	withUnknowns.Status, withUnknowns.Port, withUnknowns.AtomicWrite16K = types.StringUnknown(), types.Int64Unknown(), types.BoolUnknown()
	withUnknowns.SecurityIPs, withUnknowns.ReadOnlyInstanceIDs = types.SetUnknown(types.StringType), types.ListUnknown(types.StringType)
	withUnknowns.ScheduledChange, withUnknowns.Parameters = types.ObjectUnknown(scheduledChangeAttrTypes), types.MapUnknown(types.StringType)
	withUnknowns.Timeouts = timeouts.Value{Object: types.ObjectUnknown(timeoutTypes)}

	nulls := instanceModel{ID: types.StringValue("rm-2")}
	v := reflect.ValueOf(&nulls).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.IsZero() {
			// A zero framework value is null; give nested types their element and attribute types.
			switch f.Interface().(type) {
			case types.Set:
				f.Set(reflect.ValueOf(types.SetNull(types.StringType)))
			case types.List:
				f.Set(reflect.ValueOf(types.ListNull(types.StringType)))
			case types.Map:
				f.Set(reflect.ValueOf(types.MapNull(types.StringType)))
			}
		}
	}
	nulls.RestoreFrom, nulls.ScheduledChange = types.ObjectNull(restoreFromAttrTypes), types.ObjectNull(scheduledChangeAttrTypes)
	nulls.Timeouts = timeouts.Value{Object: types.ObjectNull(timeoutTypes)}
	return map[string]instanceModel{"values": full, "unknowns": withUnknowns, "nulls": nulls}
}

func instanceSchemaForTest(t *testing.T) resource.SchemaResponse {
	t.Helper()
	var resp resource.SchemaResponse
	NewInstanceResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp
}

// The codec reads and writes exactly what the framework's reflection reads and writes.
func TestInstanceCodecAgreesWithFramework(t *testing.T) {
	ctx := context.Background()
	sch := instanceSchemaForTest(t).Schema
	for name, model := range codecModels() {
		t.Run(name, func(t *testing.T) {
			// The framework's encoding is the reference (a plan: it may hold unknowns).
			want := tfsdk.Plan{Schema: sch}
			if d := want.Set(ctx, model); d.HasError() {
				t.Fatal(d)
			}
			got := tfsdk.State{Schema: sch}
			if d := instanceCodec.Set(ctx, &got, model); d.HasError() {
				t.Fatal(d)
			}
			if !got.Raw.Equal(want.Raw) {
				t.Fatalf("codec encodes\n%s\nthe framework\n%s", got.Raw, want.Raw)
			}

			var byFramework, byCodec instanceModel
			if d := want.Get(ctx, &byFramework); d.HasError() {
				t.Fatal(d)
			}
			if d := instanceCodec.Get(ctx, want.Raw, &byCodec); d.HasError() {
				t.Fatal(d)
			}
			fv, cv := reflect.ValueOf(byFramework), reflect.ValueOf(byCodec)
			for i := range fv.NumField() {
				fa, ca := fv.Field(i).Interface().(attr.Value), cv.Field(i).Interface().(attr.Value)
				if !ca.Equal(fa) || reflect.TypeOf(ca) != reflect.TypeOf(fa) {
					t.Errorf("%s: codec decodes %s (%T), the framework %s (%T)", fv.Type().Field(i).Name, ca, ca, fa, fa)
				}
			}
			if !reflect.DeepEqual(byCodec, byFramework) {
				t.Errorf("decoded models differ:\ncodec     %+v\nframework %+v", byCodec, byFramework)
			}
		})
	}
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
	type unknownAttr struct {
		Nope types.String `tfsdk:"nope"`
	}
	if _, err := newModelCodec[unknownAttr](tfType, attrs); err == nil || !strings.Contains(err.Error(), `no attribute "nope"`) {
		t.Errorf("want an error for a field without an attribute, got %v", err)
	}

	bad := codecModels()["values"]
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
// 7, booleans true; one element per collection), or with every top-level attribute but id made
// by leaf (null or unknown).
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
