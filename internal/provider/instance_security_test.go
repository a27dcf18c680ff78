package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
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

// SSL and TDE on an existing instance: prevent_restart refuses the SSL restart with no write; SSL
// on is one ModifyDBInstanceSSL and one restart, read back with its expiry; TDE on is one
// ModifyDBInstanceTDE (with the key) and one restart; TDE off is refused at plan; nothing drifts;
// SSL off is one more restart.
func TestAccInstance_sslAndTDE(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	var writes int
	tde := `  tde_enabled = true
  tde_encryption_key = "key-1"
  tde_role_arn = "acs:ram::1:role/AliyunRDSInstanceEncryptionDefaultRole"`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{
				Config: env.instanceConfig(""),
				Check: resource.ComposeTestCheckFunc(idOf(&id), resource.TestCheckNoResourceAttr(testRes, "ssl_enabled"),
					resource.TestCheckNoResourceAttr(testRes, "ssl_expire_time"), func(*terraform.State) error { writes = env.mutations(); return nil }),
			},
			{
				Config:      env.instanceConfig("  ssl_enabled = true\n  prevent_restart = true"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)prevent_restart refuses this plan.*ssl_enabled changes from false to true \(with a\s+switchover to the standby\)`),
			},
			{
				PreConfig: func() {
					if n := env.mutations(); n != writes {
						t.Fatalf("%d writes for a refused plan", n-writes)
					}
				},
				Config: env.instanceConfig("  ssl_enabled = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(testRes, tfjsonpath.New("ssl_expire_time")),
				}},
				Check: resource.ComposeTestCheckFunc(env.checkSecurityCalls(&id, 1, 1, 0),
					resource.TestCheckResourceAttr(testRes, "ssl_enabled", "true"),
					resource.TestMatchResourceAttr(testRes, "ssl_expire_time", regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
			},
			{
				Config: env.instanceConfig("  ssl_enabled = true\n" + tde),
				Check: resource.ComposeTestCheckFunc(env.checkSecurityCalls(&id, 2, 1, 1),
					resource.TestCheckResourceAttr(testRes, "tde_enabled", "true")),
			},
			{
				Config:   env.instanceConfig("  ssl_enabled = true\n" + tde),
				PlanOnly: true, // read back: no drift
			},
			{
				Config:      env.instanceConfig("  ssl_enabled = true\n  tde_enabled = false"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid tde_enabled \(rule tde-one-way\).*cannot be disabled`),
			},
			{
				Config:      env.instanceConfig("  ssl_enabled = true\n  tde_enabled = true\n  tde_encryption_key = \"key-2\""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`rule tde-key-fixed`),
			},
			{
				Config: env.instanceConfig("  ssl_enabled = false\n" + tde),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("ssl_expire_time"), knownvalue.Null()),
				}},
				Check: resource.ComposeTestCheckFunc(env.checkSecurityCalls(&id, 3, 2, 1),
					resource.TestCheckResourceAttr(testRes, "ssl_enabled", "false")),
			},
		},
	})
}

// A new Basic-edition instance cannot have TDE, and a TDE key without TDE would do nothing: both
// refused at plan, with no write.
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
