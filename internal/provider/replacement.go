package provider

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// The attributes that force a replacement exist once: in the schema's RequiresReplace plan
// modifiers. The planner is told which of them changed (replacedAttributes), so it reads the
// list from the schema instead of keeping its own.

// describer is what every plan modifier offers.
type describer interface {
	Description(context.Context) string
}

// replacingAttributes lists the schema's attributes that force a replacement when they change
// (always) and when they are configured and change (ifConfigured), from their plan modifiers.
func replacingAttributes(ctx context.Context, s schema.Schema) (always, ifConfigured []string) {
	for name, a := range s.Attributes {
		for _, m := range modifiersOf(a) {
			switch d := m.Description(ctx); {
			case strings.Contains(d, "is configured and changes, Terraform will destroy and recreate"):
				ifConfigured = append(ifConfigured, name)
			case strings.Contains(d, "changes, Terraform will destroy and recreate"):
				always = append(always, name)
			}
		}
	}
	sort.Strings(always)
	sort.Strings(ifConfigured)
	return always, ifConfigured
}

func modifiersOf(a schema.Attribute) []describer {
	var out []describer
	switch a := a.(type) {
	case schema.StringAttribute:
		for _, m := range a.PlanModifiers {
			out = append(out, m)
		}
	case schema.SingleNestedAttribute:
		for _, m := range a.PlanModifiers {
			out = append(out, m)
		}
	case schema.Int64Attribute:
		for _, m := range a.PlanModifiers {
			out = append(out, m)
		}
	case schema.BoolAttribute:
		for _, m := range a.PlanModifiers {
			out = append(out, m)
		}
	}
	return out
}

// replacedBySchema lists the attributes forcing this plan's replacement, by r's schema.
func replacedBySchema(ctx context.Context, r resource.Resource, req resource.ModifyPlanRequest) []string {
	var s resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &s)
	always, ifConfigured := replacingAttributes(ctx, s.Schema)
	return replacedAttributes(req, always, ifConfigured)
}
