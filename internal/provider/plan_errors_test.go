package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// planErrorCase is a configuration whose plan must fail with an error matching want.
type planErrorCase struct {
	name, config string
	want         *regexp.Regexp
}

// expectPlanErrors plans each case as a PlanOnly step of one TestCase: the cases share one
// terraform init and version probe instead of paying for a TestCase each (about five terraform
// starts, a second of CPU, per case). Each step logs its case's name first, so a failing step is
// the case logged last.
func expectPlanErrors(t *testing.T, cases []planErrorCase) {
	t.Helper()
	steps := make([]resource.TestStep, 0, len(cases))
	for i, c := range cases {
		steps = append(steps, resource.TestStep{
			PreConfig:   func() { t.Logf("step %d: %s", i+1, c.name) },
			Config:      c.config,
			PlanOnly:    true,
			ExpectError: c.want,
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}
