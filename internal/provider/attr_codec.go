package provider

import (
	"context"
	"maps"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// attrValueOf is a value as Terraform sends it, converted for rdsservice without a framework type:
// the one conversion of a resource's objects into the requests below the provider, which read
// the attributes by name. Numbers are whole (the instance schemas have no other).
func attrValueOf(v tftypes.Value) rdsservice.AttrValue {
	switch {
	case !v.IsKnown():
		return rdsservice.UnknownAttr()
	case v.IsNull():
		return rdsservice.NullAttr()
	}
	// As cannot fail below: each case reads the value as its own type.
	switch t := v.Type(); {
	case t.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return rdsservice.StringAttr(s)
	case t.Is(tftypes.Number):
		var n big.Float
		_ = v.As(&n)
		i, _ := n.Int64()
		return rdsservice.IntAttr(i)
	case t.Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return rdsservice.BoolAttr(b)
	case t.Is(tftypes.Map{}) || t.Is(tftypes.Object{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := make(map[string]rdsservice.AttrValue, len(m))
		for k, e := range m {
			out[k] = attrValueOf(e)
		}
		return rdsservice.ObjectAttr(out)
	}
	var elems []tftypes.Value // lists, sets and tuples
	_ = v.As(&elems)
	out := make([]rdsservice.AttrValue, 0, len(elems))
	for _, e := range elems {
		out = append(out, attrValueOf(e))
	}
	return rdsservice.ListAttr(out...)
}

// tfValueOf is v as a Terraform value of type t: attrValueOf's inverse, for the values rdsservice
// plans (rdsservice.PlannedAttrs).
func tfValueOf(t tftypes.Type, v rdsservice.AttrValue) tftypes.Value {
	switch {
	case v.IsUnknown():
		return tftypes.NewValue(t, tftypes.UnknownValue)
	case v.IsNull():
		return tftypes.NewValue(t, nil)
	}
	switch t := t.(type) {
	case tftypes.Object:
		out := make(map[string]tftypes.Value, len(t.AttributeTypes))
		for name, at := range t.AttributeTypes {
			out[name] = tfValueOf(at, v.Get(name))
		}
		return tftypes.NewValue(t, out)
	case tftypes.Map:
		out := make(map[string]tftypes.Value, len(v.Attributes()))
		for k, e := range v.Attributes() {
			out[k] = tfValueOf(t.ElementType, e)
		}
		return tftypes.NewValue(t, out)
	case tftypes.List:
		return tftypes.NewValue(t, tfElements(t.ElementType, v))
	case tftypes.Set:
		return tftypes.NewValue(t, tfElements(t.ElementType, v))
	}
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, v.String())
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, new(big.Float).SetInt64(v.Int().Value()))
	}
	return tftypes.NewValue(t, v.Bool().Value())
}

// tfElements are a list's or a set's elements as Terraform values of type t.
func tfElements(t tftypes.Type, v rdsservice.AttrValue) []tftypes.Value {
	out := make([]tftypes.Value, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		out = append(out, tfValueOf(t, e))
	}
	return out
}

// writePlanned sets values, by attribute name, in the plan (tfValueOf); the plan is an object.
func writePlanned(plan *tfsdk.Plan, values map[string]rdsservice.AttrValue) {
	var attrs map[string]tftypes.Value
	if plan.Raw.As(&attrs) != nil {
		return
	}
	attrs = maps.Clone(attrs) // As shares the value's own map
	for name, v := range values {
		if old, ok := attrs[name]; ok {
			attrs[name] = tfValueOf(old.Type(), v)
		}
	}
	plan.Raw = tftypes.NewValue(plan.Raw.Type(), attrs)
}

// AttrValue is m as rdsservice reads it (attrValueOf of the object state.Set would write).
func (l *lazyCodec[M]) AttrValue(ctx context.Context, m M) (rdsservice.AttrValue, diag.Diagnostics) {
	c, err := l.build()
	if err != nil {
		return rdsservice.AttrValue{}, codecError(err)
	}
	v, diags := c.encode(ctx, m)
	return attrValueOf(v), diags
}

// serviceValue is one framework value as rdsservice reads it (attrValueOf). The framework's values always
// convert; one that does not would read as unknown, which every reader takes as "not known yet".
func serviceValue(ctx context.Context, v attr.Value) rdsservice.AttrValue {
	raw, err := v.ToTerraformValue(ctx)
	if err != nil {
		return rdsservice.UnknownAttr()
	}
	return attrValueOf(raw)
}

// settingsOf is the in-place settings of an instance's state or plan (rdsservice.SettingsOfAttrs).
func settingsOf[M any](ctx context.Context, codec *lazyCodec[M], m M, diags *diag.Diagnostics) rdsservice.Settings {
	v, d := codec.AttrValue(ctx, m)
	diags.Append(d...)
	return rdsservice.SettingsOfAttrs(v)
}
