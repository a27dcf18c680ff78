package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Issue 24 §2: applies that always recover. Items 6, 7, 9 and 10 are played at the plugin protocol
// (TestAccessRecovery_descriptionUnsetIsNotManaged and the others in access_recovery_protocol_test.go);
// item 8 needs terraform's own destroy of a refused configuration.

// Item 8: terraform destroy is not blocked by a create-time rule of a resource that does not exist
// yet (a second privileged account): the test's closing destroy runs with the refused
// configuration.
func TestAccAccessRecovery_destroyNotBlockedByCreateRules(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	p := env.providerBlock()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{
			{Config: p + accountBlock("boss", id, "boss", "Super")},
			{
				Config:      p + accountBlock("boss", id, "boss", "Super") + accountBlock("other", id, "other", "Super"),
				ExpectError: regexp.MustCompile(`rule account-one-super`),
			},
		},
	})
}
