package provider

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A modelCodec converts a resource model (a struct of framework values tagged `tfsdk`, the kind
// req.State.Get fills) to and from the object Terraform sends, like req.State.Get and
// resp.State.Set, for the calls every plan makes once per resource (Read, ValidateConfig).
//
// Why: the framework works out a model's fields by reflection on every call, compiling a
// regular expression per field name each time; for rds_instance's 31 attributes that was most
// of the provider's own CPU in a plan of many instances (see the performance guide). The codec
// does that work once per process: it pairs each field with its attribute type from the
// resource's schema, then each call only converts the values.
type modelCodec[M any] struct {
	objectType tftypes.Object
	fields     []codecField
}

// The codecs of the resources a plan reads many of, used in their Read and ValidateConfig.
var (
	instanceCodec         = newLazyCodec[instanceModel](&instanceResource{})
	readonlyInstanceCodec = newLazyCodec[readonlyInstanceModel](&readonlyInstanceResource{})
)

// codecField is one attribute of the model: its struct field and its type in the schema.
type codecField struct {
	name     string
	index    int
	attrType attr.Type
	tfType   tftypes.Type
}

// lazyCodec builds a resource's codec from its schema on first use, once per process.
type lazyCodec[M any] struct {
	build func() (*modelCodec[M], error)
}

func newLazyCodec[M any](r resource.Resource) *lazyCodec[M] {
	return &lazyCodec[M]{build: sync.OnceValues(func() (*modelCodec[M], error) {
		var resp resource.SchemaResponse
		r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			return nil, fmt.Errorf("schema: %v", resp.Diagnostics.Errors())
		}
		schemaType, ok := resp.Schema.Type().(attr.TypeWithAttributeTypes)
		if !ok {
			return nil, fmt.Errorf("the schema's type is %s, not an object", resp.Schema.Type())
		}
		return newModelCodec[M](schemaType.TerraformType(context.Background()), schemaType.AttributeTypes())
	})}
}

// newModelCodec pairs every `tfsdk`-tagged field of M with the attribute of the same name; a
// field or an attribute without its pair is an error, as with the framework's reflection.
func newModelCodec[M any](objectType tftypes.Type, attributes map[string]attr.Type) (*modelCodec[M], error) {
	obj, ok := objectType.(tftypes.Object)
	if !ok {
		return nil, fmt.Errorf("the schema's type is %s, not an object", objectType)
	}
	c := &modelCodec[M]{objectType: obj}
	model := reflect.TypeFor[M]()
	if model.Kind() != reflect.Struct {
		return nil, fmt.Errorf("the model %s is not a struct", model)
	}
	attrValue := reflect.TypeFor[attr.Value]()
	seen := map[string]bool{}
	for i := range model.NumField() {
		f := model.Field(i)
		name := f.Tag.Get("tfsdk")
		if name == "" || name == "-" {
			continue
		}
		attrType, ok := attributes[name]
		if !ok {
			return nil, fmt.Errorf("%s.%s: the schema has no attribute %q", model, f.Name, name)
		}
		if !f.Type.Implements(attrValue) {
			return nil, fmt.Errorf("%s.%s is a %s, not a framework value", model, f.Name, f.Type)
		}
		c.fields = append(c.fields, codecField{name: name, index: i, attrType: attrType, tfType: obj.AttributeTypes[name]})
		seen[name] = true
	}
	for name := range attributes {
		if !seen[name] {
			return nil, fmt.Errorf("%s has no field for the attribute %q", model, name)
		}
	}
	return c, nil
}

// Get decodes data (a state, plan or configuration) into target, like data.Get.
func (l *lazyCodec[M]) Get(ctx context.Context, raw tftypes.Value, target *M) diag.Diagnostics {
	c, err := l.build()
	if err != nil {
		return codecError(err)
	}
	return c.decode(ctx, raw, target)
}

// Set writes m into state, like state.Set.
func (l *lazyCodec[M]) Set(ctx context.Context, state *tfsdk.State, m M) diag.Diagnostics {
	c, err := l.build()
	if err != nil {
		return codecError(err)
	}
	v, diags := c.encode(ctx, m)
	if !diags.HasError() {
		state.Raw = v
	}
	return diags
}

func (c *modelCodec[M]) decode(ctx context.Context, raw tftypes.Value, target *M) diag.Diagnostics {
	if !raw.IsKnown() || raw.IsNull() {
		return codecError(fmt.Errorf("no object to read: %s", raw))
	}
	var values map[string]tftypes.Value
	if err := raw.As(&values); err != nil {
		return codecError(err)
	}
	out := reflect.ValueOf(target).Elem()
	for _, f := range c.fields {
		v, err := f.attrType.ValueFromTerraform(ctx, values[f.name])
		if err == nil && v == nil {
			err = errors.New("the schema's type gave no value")
		}
		if err != nil {
			return codecError(fmt.Errorf("%s: %w", f.name, err))
		}
		field := out.Field(f.index)
		val := reflect.ValueOf(v)
		if !val.Type().AssignableTo(field.Type()) {
			return codecError(fmt.Errorf("%s: the schema gives a %s, the model holds a %s", f.name, val.Type(), field.Type()))
		}
		field.Set(val)
	}
	return nil
}

func (c *modelCodec[M]) encode(ctx context.Context, m M) (tftypes.Value, diag.Diagnostics) {
	in := reflect.ValueOf(m)
	values := make(map[string]tftypes.Value, len(c.fields))
	for _, f := range c.fields {
		value, ok := in.Field(f.index).Interface().(attr.Value)
		if !ok { // newModelCodec accepts only fields that are framework values
			return tftypes.Value{}, codecError(fmt.Errorf("%s: not a framework value", f.name))
		}
		v, err := value.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, codecError(fmt.Errorf("%s: %w", f.name, err))
		}
		// tftypes.NewValue panics on a mismatch: refuse it here instead, naming the attribute.
		if !v.Type().Equal(f.tfType) {
			return tftypes.Value{}, codecError(fmt.Errorf("%s: the model holds a %s, the schema wants a %s", f.name, v.Type(), f.tfType))
		}
		values[f.name] = v
	}
	return tftypes.NewValue(c.objectType, values), nil
}

func codecError(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.AddError("Cannot convert the resource's data",
		"An unexpected error was encountered converting the resource's data. This is always an error in the provider: please report it.\n\n"+err.Error())
	return diags
}
