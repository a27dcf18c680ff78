package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// tfValueOf is attrValueOf's inverse on every attribute type of rds_instance's schema (strings,
// whole numbers, bools, lists, sets, maps, nested objects; null and unknown), and writePlanned
// sets only the attributes it is given.
func TestPlannedValuesConvertBack(t *testing.T) {
	var s resource.SchemaResponse
	(&instanceResource{}).Schema(context.Background(), resource.SchemaRequest{}, &s)
	typ, ok := s.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("rds_instance's schema is not an object")
	}
	values := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		values[name] = tftypes.NewValue(at, nil)
	}
	str := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	values["instance_type"], values["storage"], values["deletion_protection"] = str("mysql.n2.medium.2c"), tftypes.NewValue(tftypes.Number, 100), tftypes.NewValue(tftypes.Bool, true)
	values["security_ips"] = tftypes.NewValue(typ.AttributeTypes["security_ips"], []tftypes.Value{str("10.0.0.1"), str("10.0.0.2")})
	values["parameters"] = tftypes.NewValue(typ.AttributeTypes["parameters"], map[string]tftypes.Value{"back_log": str("3000")})
	values["read_only_instance_ids"] = tftypes.NewValue(typ.AttributeTypes["read_only_instance_ids"], []tftypes.Value{})
	values["zone_id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	sc := typ.AttributeTypes[rdsservice.AttrScheduledChange].(tftypes.Object)
	values[rdsservice.AttrScheduledChange] = tftypes.NewValue(sc, map[string]tftypes.Value{"task_id": str("t-1"), "window": str("02:00Z-03:00Z"),
		"starts_at": tftypes.NewValue(tftypes.String, nil), "changes": tftypes.NewValue(sc.AttributeTypes["changes"], []tftypes.Value{str("instance_type")})})
	object := tftypes.NewValue(typ, values)
	if back := tfValueOf(typ, attrValueOf(object)); !back.Equal(object) {
		t.Fatalf("round trip changed the object:\n%s\nwant\n%s", back, object)
	}

	plan := tfsdk.Plan{Schema: s.Schema, Raw: object}
	writePlanned(&plan, map[string]rdsservice.AttrValue{"storage": rdsservice.IntAttr(200), "zone_id": rdsservice.StringAttr("cn-hangzhou-i"),
		"no_such_attribute": rdsservice.StringAttr("x")})
	var got map[string]tftypes.Value
	if err := plan.Raw.As(&got); err != nil {
		t.Fatal(err)
	}
	for name, v := range got {
		want := values[name]
		switch name {
		case "storage":
			want = tftypes.NewValue(tftypes.Number, 200)
		case "zone_id":
			want = str("cn-hangzhou-i")
		}
		if !v.Equal(want) {
			t.Errorf("%s = %s after writePlanned, want %s", name, v, want)
		}
	}
}
