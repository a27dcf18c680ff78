package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The replacing attributes come from the schema's plan modifiers; this fails when a modifier's
// kind can no longer be told from it (the planner would then miss a replacement).
func TestReplacingAttributesComeFromTheSchema(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		r                    resource.Resource
		always, ifConfigured []string
	}{
		// engine_version replaces only when lowered (versionReplaces, instance_day2.go); zone_id,
		// zone_id_slave_a/_b and vswitch_id move in place, replacing only when unknown (zone.go);
		// category replaces unless it is an edition upgrade (editionReplaces, edition.go).
		{NewInstanceResource(), []string{"engine", "restore_from"}, []string{"vpc_id"}},
		{NewReadonlyInstanceResource(), []string{"master_instance_id", "vswitch_id", "zone_id"}, nil},
	} {
		var resp resource.SchemaResponse
		c.r.Schema(ctx, resource.SchemaRequest{}, &resp)
		always, ifConfigured := replacingAttributes(ctx, resp.Schema)
		if !reflect.DeepEqual(always, c.always) || !reflect.DeepEqual(ifConfigured, c.ifConfigured) {
			t.Errorf("%T: replacing attributes %v / %v, want %v / %v", c.r, always, ifConfigured, c.always, c.ifConfigured)
		}
	}
}
