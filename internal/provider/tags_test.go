package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

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

// Bad tags are refused at plan, each by its rule-table row naming the value, and nothing is sent.
// The family's terraform test: the tags family's other tests are played at the plugin protocol
// (tags_protocol_test.go).
func TestAccTags_invalidRefusedAtPlanWithoutWrites(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	many := map[string]string{}
	for i := 0; i < 20; i++ {
		many[fmt.Sprintf("k%02d", i)] = "v"
	}
	cases := []struct {
		defaults, tags map[string]string
		extra          string
		want           string
	}{
		{nil, map[string]string{"acs:team": "db"}, "", `tag key "acs:team" starts with "acs:"`},
		{map[string]string{"Aliyun-x": "1"}, nil, "", `the provider's default_tags: tag key "Aliyun-x"`},
		{nil, map[string]string{"k": "https://example.com"}, "", `tag value "https://example.com"`},
		{nil, map[string]string{strings.Repeat("k", 65): "v"}, "", "is 65 characters; a key is 1 to 64"},
		{nil, map[string]string{"k": strings.Repeat("v", 129)}, "", "is 129 characters; a value is at most 128"},
		{nil, map[string]string{rdsservice.CreateTokenTagKey: "x"}, "", "Tag key reserved by the provider"},
		{map[string]string{"owner": "p"}, many, "", "would carry 22 tags: 21 from tags"},
		{nil, nil, `  resource_group_id = "group1"`, `resource_group_id "group1" is not a resource group id`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      env.taggedConfig(c.defaults, c.tags, c.extra),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(strings.Join(strings.Fields(regexp.QuoteMeta(c.want)), `\s+`)), // messages wrap
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := env.mutations() + env.requests("TagResources") + env.requests("UntagResources") + env.requests("ModifyResourceGroup"); n != 0 {
				return fmt.Errorf("%d writes for refused plans", n)
			}
			return nil
		},
		Steps: steps,
	})
}
