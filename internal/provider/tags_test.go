package provider

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// hclMap renders a map of strings as HCL.
func hclMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%q = %q", k, m[k]))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// taggedConfig is an rds_instance with tags under a provider with default_tags (nil: unset).
func (e *testEnv) taggedConfig(defaults, tags map[string]string, extra string) string {
	provider := e.providerBlock()
	if defaults != nil {
		provider = strings.Replace(provider, "provider \"rds\" {\n", "provider \"rds\" {\n  default_tags = "+hclMap(defaults)+"\n", 1)
	}
	lines := extra
	if tags != nil {
		lines += "\n  tags = " + hclMap(tags)
	}
	return provider + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  instance_name  = "acctest"
%s
}
`, lines)
}

// cloudTags reads the instance's tags from the simulator, the provider's own included.
func (e *testEnv) cloudTags(id string) (map[string]string, error) {
	out, err := e.api.ListTagResources(context.Background(), &rdsapi.ListTagResourcesRequest{ResourceIDs: []string{id}})
	if err != nil {
		return nil, err
	}
	tags := map[string]string{}
	for _, t := range out.TagResources.TagResource {
		tags[t.TagKey] = t.TagValue
	}
	return tags, nil
}

// checkCloudTags asserts the instance's tags in the cloud: want, plus the provider's create-token
// tag, which no change removes.
func (e *testEnv) checkCloudTags(id *string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := e.cloudTags(*id)
		if err != nil {
			return err
		}
		if got[rdsservice.CreateTokenTagKey] == "" {
			return fmt.Errorf("the provider's create-token tag is gone: %v", got)
		}
		delete(got, rdsservice.CreateTokenTagKey)
		if !maps.Equal(got, want) {
			return fmt.Errorf("cloud tags %v, want %v", got, want)
		}
		return nil
	}
}

// changeTagsOutside tags and untags the instance behind Terraform's back.
func (e *testEnv) changeTagsOutside(id *string, set map[string]string, remove ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		change := rdsservice.TagChange{Set: set, Remove: remove}
		return rdsservice.ApplyTagChange(context.Background(), e.api, e.data.Waiter, *id, change)
	}
}

func tagsAllIs(m map[string]string) statecheck.StateCheck {
	values := map[string]knownvalue.Check{}
	for k, v := range m {
		values[k] = knownvalue.StringExact(v)
	}
	return statecheck.ExpectKnownValue(testRes, tfjsonpath.New("tags_all"), knownvalue.MapExact(values))
}

// Default tags against resource tags: a resource tag equal to a default, an override, a changed
// default, tags changed outside Terraform; every apply is followed by an empty plan (the testing
// framework fails a step whose plan after apply is not empty), and the create-token tag stays.
func TestAccTags_defaultsResourceTagsAndDriftConverge(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	defaults := map[string]string{"env": "dev", "team": "db"}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{
				// A resource tag with a default's key and value: no perpetual diff.
				Config: env.taggedConfig(defaults, map[string]string{"env": "dev", "app": "a"}, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("tags_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"env": knownvalue.StringExact("dev"), "team": knownvalue.StringExact("db"), "app": knownvalue.StringExact("a")})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{tagsAllIs(map[string]string{"env": "dev", "team": "db", "app": "a"})},
				Check: resource.ComposeTestCheckFunc(idOf(&id), env.checkOneCreate(),
					env.checkCloudTags(&id, map[string]string{"env": "dev", "team": "db", "app": "a"}),
					func(*terraform.State) error {
						if n := env.requests("TagResources"); n != 0 {
							return fmt.Errorf("CreateDBInstance carries the tags; %d TagResources", n)
						}
						return nil
					}),
			},
			{
				// The resource overrides a default.
				Config: env.taggedConfig(defaults, map[string]string{"env": "prod", "app": "a"}, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{tagsAllIs(map[string]string{"env": "prod", "team": "db", "app": "a"})},
				Check:             resource.ComposeTestCheckFunc(env.checkCloudTags(&id, map[string]string{"env": "prod", "team": "db", "app": "a"}), env.checkCounts(&id, 0, 0)),
			},
			{
				ResourceName: testRes, ImportState: true, ImportStateVerify: true,
				Config: requiredProviders() + env.taggedConfig(defaults, map[string]string{"env": "prod", "app": "a"}, ""),
			},
			{
				// A default changes: only tags_all changes, in place.
				Config: env.taggedConfig(map[string]string{"env": "dev", "team": "dba"}, map[string]string{"env": "prod", "app": "a"}, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{tagsAllIs(map[string]string{"env": "prod", "team": "dba", "app": "a"})},
				// Outside Terraform: a tag added, a default's value changed, a resource tag removed.
				Check: resource.ComposeTestCheckFunc(env.checkCloudTags(&id, map[string]string{"env": "prod", "team": "dba", "app": "a"}),
					env.changeTagsOutside(&id, map[string]string{"x": "1", "team": "other"}, "app")),
				ExpectNonEmptyPlan: true,
			},
			{
				// The drift shows once, and the apply converges.
				Config: env.taggedConfig(map[string]string{"env": "dev", "team": "dba"}, map[string]string{"env": "prod", "app": "a"}, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{tagsAllIs(map[string]string{"env": "prod", "team": "dba", "app": "a"})},
				Check:             env.checkCloudTags(&id, map[string]string{"env": "prod", "team": "dba", "app": "a"}),
			},
			{
				// Every tag and default gone: only the provider's own tag is left.
				Config:            env.taggedConfig(nil, nil, ""),
				ConfigStateChecks: []statecheck.StateCheck{tagsAllIs(map[string]string{})},
				Check:             env.checkCloudTags(&id, map[string]string{}),
			},
		},
	})
}
