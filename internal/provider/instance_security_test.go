package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// checkSecurityCalls asserts the instance's restarts and the SSL and TDE requests so far.
func (e *testEnv) checkSecurityCalls(id *string, restarts, ssl, tde int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := [3]int{e.restarts(*id), e.requests("ModifyDBInstanceSSL"), e.requests("ModifyDBInstanceTDE")}
		if got != [3]int{restarts, ssl, tde} {
			return fmt.Errorf("restarts, ModifyDBInstanceSSL, ModifyDBInstanceTDE = %v, want %v", got, [3]int{restarts, ssl, tde})
		}
		return nil
	}
}

// A new Basic-edition instance cannot have TDE, and a TDE key without TDE would do nothing: both
// refused at plan, with no write. The family's terraform test: TestInstance_sslAndTDE
// (instance_security_protocol_test.go) covers SSL and TDE on an existing instance.
func TestAccInstance_tdeEditionRefused(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      env.instanceConfig("  category = \"Basic\"\n  tde_enabled = true"),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)rule tde-edition.*High-availability or Cluster edition`),
		}, {
			Config:      env.instanceConfig("  tde_encryption_key = \"key-1\""),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)rule tde-key-without-tde.*tde_enabled is not true`),
		}},
	})
	if n := env.mutations(); n != 0 {
		t.Fatalf("%d writes for a refused plan", n)
	}
}
