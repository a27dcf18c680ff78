package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Parameters are checked against the version the instance runs after the plan.
func TestParameterVersion(t *testing.T) {
	s := types.StringValue
	if got := parameterVersion(s("MySQL"), s("5.7"), s("8.0")); got != "8.0" {
		t.Errorf("an upgrade checks parameters against %s, want the new version", got)
	}
	if got := parameterVersion(s("MySQL"), s("8.0"), s("5.7")); got != "8.0" {
		t.Errorf("a replacement's plan checks parameters against %s, want the current version", got)
	}
}
