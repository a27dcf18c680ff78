package provider

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
