package provider

import (
	"context"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// nullUnknowns sets every unknown attribute of the model m points to null, of its own type: the
// state written when the cloud accepted a create, before its first read. It walks the model's fields
// rather than a list of them, so that an attribute added later cannot be left unknown (Terraform
// refuses such a state: "Provider returned invalid result object after apply").
func nullUnknowns(ctx context.Context, m any) {
	v := reflect.ValueOf(m).Elem()
	for i := range v.NumField() {
		field := v.Field(i)
		value, ok := field.Interface().(attr.Value)
		if !ok || !value.IsUnknown() {
			continue
		}
		typ := value.Type(ctx)
		null, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), nil))
		if err != nil {
			continue // every framework type builds its null from a nil value; nothing to do otherwise
		}
		field.Set(reflect.ValueOf(null))
	}
}
