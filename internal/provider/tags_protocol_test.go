package provider

import (
	"fmt"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// taggedResources is taggedConfig without default_tags at the protocol (tags nil: unset).
func taggedResources(tags map[string]string) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c",
		"storage": 20, "instance_name": "acctest"}
	if tags != nil {
		attrs["tags"] = tags
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// An instance whose tags were not managed is not read at refresh; once the configuration manages
// them, the apply sets them from the tags the cloud has then (found by the oracle: a tag added
// outside while unmanaged was left behind, and the state after the apply was stale). The steps
// and checks of a terraform test, played at the plugin protocol (the tags family keeps its other
// terraform tests).
func TestTags_firstManagedApplyStartsFromTheCloud(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	step := func(name string, order []oracleResource, checks ...resource.TestCheckFunc) {
		t.Helper()
		_, err := w.applyStep(order, func() {
			id = w.stateAttr(t, testRes, "id")
			for _, c := range checks {
				if err := c(nil); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	step("unmanaged", taggedResources(nil), env.changeTagsOutside(&id, map[string]string{"by-hand": "1"}),
		func(*terraform.State) error {
			if n := env.requests("ListTagResources"); n != 0 {
				return fmt.Errorf("unmanaged tags were read %d times", n)
			}
			return nil
		})
	step("managed", taggedResources(map[string]string{"app": "a"}), func(*terraform.State) error {
		if got, want := w.stringMapAttr(t, testRes, "tags_all"), map[string]string{"app": "a"}; !maps.Equal(got, want) {
			return fmt.Errorf("state tags_all %v, want %v", got, want)
		}
		return nil
	}, env.checkCloudTags(&id, map[string]string{"app": "a"}))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}
