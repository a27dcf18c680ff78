package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// engine_version forces a replacement exactly when the cloud cannot change it in place.
func TestVersionReplaces(t *testing.T) {
	ctx := context.Background()
	s := types.StringValue
	for _, c := range []struct {
		name                 string
		engine, state, plan  types.String
		replace, wantReplace []string
	}{
		{"upgrade", s("MySQL"), s("5.7"), s("8.0"), nil, nil},
		{"upgrade skipping a version: the planner refuses it", s("MySQL"), s("5.6"), s("8.0"), nil, nil},
		{"downgrade", s("MySQL"), s("8.0"), s("5.7"), []string{"zone_id"}, []string{"engine_version", "zone_id"}},
		{"another engine", s("PostgreSQL"), s("14.0"), s("15.0"), nil, []string{"engine_version"}},
		{"unknown version", s("MySQL"), s("5.7"), types.StringUnknown(), nil, []string{"engine_version"}},
		{"unchanged", s("MySQL"), s("8.0"), s("8.0"), nil, nil},
		{"read-only instance (no engine)", types.StringNull(), s("5.7"), s("8.0"), nil, nil},
	} {
		if got := versionReplaces(ctx, nil, c.replace, c.engine, c.state, c.plan); !reflect.DeepEqual(got, c.wantReplace) {
			t.Errorf("%s: %v, want %v", c.name, got, c.wantReplace)
		}
	}
	if got := parameterVersion(s("MySQL"), s("5.7"), s("8.0")); got != "8.0" {
		t.Errorf("an upgrade checks parameters against %s, want the new version", got)
	}
	if got := parameterVersion(s("MySQL"), s("8.0"), s("5.7")); got != "8.0" {
		t.Errorf("a replacement's plan checks parameters against %s, want the current version", got)
	}
}
