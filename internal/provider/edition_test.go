package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Only MySQL's Basic -> HighAvailability is in place; every other category change is named as a
// replacement.
func TestEditionReplaces(t *testing.T) {
	model := func(engine, category string) instanceModel {
		return instanceModel{Engine: types.StringValue(engine), Category: types.StringValue(category)}
	}
	for _, c := range []struct {
		engine, from, to string
		replaced         bool
	}{
		{"MySQL", "Basic", "HighAvailability", false}, {"MySQL", "HighAvailability", "HighAvailability", false},
		{"MySQL", "HighAvailability", "Basic", true}, {"MySQL", "Basic", "cluster", true}, {"MySQL", "cluster", "HighAvailability", true},
		{"PostgreSQL", "Basic", "HighAvailability", true},
	} {
		got := editionReplaces(context.Background(), nil, []string{"engine"}, model(c.engine, c.from), model(c.engine, c.to))
		if want := map[bool][]string{false: {"engine"}, true: {"category", "engine"}}[c.replaced]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s -> %s: replaced by %v, want %v", c.engine, c.from, c.to, got, want)
		}
	}
}
