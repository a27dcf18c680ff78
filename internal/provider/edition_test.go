package provider

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// editionConfig is a MySQL primary of the given edition and class, with extra HCL lines.
func (e *testEnv) editionConfig(category, class, extra string) string {
	return e.providerBlock() + fmt.Sprintf(`
resource "rds_instance" "test" {
  engine         = "MySQL"
  engine_version = "8.0"
  category       = %q
  instance_type  = %q
  storage        = 100
  instance_name  = "editions"
  zone_id        = "cn-hangzhou-i"
  %s
}
`, category, class, extra)
}

// Issue 25 §4: Basic -> HighAvailability changes the instance in place, one ModifyDBInstanceSpec
// and one restart, the id kept and the standby read back. A Basic class kept and prevent_restart
// are refused at plan with nothing sent; HighAvailability -> Basic is a replacement, which
// deletion_protection refuses at plan.
func TestAccEditionUpgradeInPlace(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var id string
	const haClass = "mysql.n2.medium.2c"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkDestroyed(),
		Steps: []resource.TestStep{
			{Config: env.editionConfig("Basic", "mysql.n2.medium.1", ""), Check: idOf(&id), ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(testRes, tfjsonpath.New("zone_id_slave_a"), knownvalue.StringExact("")),
			}},
			{
				Config:      env.editionConfig("HighAvailability", "mysql.n2.medium.1", ""),
				ExpectError: regexp.MustCompile(`(?s)Upgrading rm-\S+ \(editions\) to the High-availability edition needs a\s+High-availability class`),
			},
			{
				Config:      env.editionConfig("HighAvailability", haClass, "prevent_restart = true"),
				ExpectError: regexp.MustCompile(`(?s)prevent_restart refuses this plan: it restarts RDS instance rm-.*category\s+changes\s+from\s+"Basic"\s+to\s+"HighAvailability"`),
			},
			{
				// Nothing was sent.
				Config: env.editionConfig("Basic", "mysql.n2.medium.1", ""),
				Check:  env.checkOrders("ModifyDBInstanceSpec", &id, 0, 0),
			},
			{
				Config: env.editionConfig("HighAvailability", haClass, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRes, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testRes, tfjsonpath.New("zone_id_slave_a"), knownvalue.StringExact("cn-hangzhou-i")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("category"), knownvalue.StringExact("HighAvailability")),
					statecheck.ExpectKnownValue(testRes, tfjsonpath.New("zone_id_slave_a"), knownvalue.StringExact("cn-hangzhou-i")),
				},
				Check: resource.ComposeTestCheckFunc(sameID(&id), env.checkOrders("ModifyDBInstanceSpec", &id, 1, 1)),
			},
			{
				Config:           env.editionConfig("HighAvailability", haClass, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: env.editionConfig("HighAvailability", haClass, "deletion_protection = true"),
			},
			{
				Config:      env.editionConfig("Basic", "mysql.n2.medium.1", "deletion_protection = true"),
				ExpectError: regexp.MustCompile(`(?s)has deletion protection and this plan replaces it.*category forces replacement`),
			},
			{
				Config: env.editionConfig("HighAvailability", haClass, "deletion_protection = false"),
				Check:  env.checkOrders("ModifyDBInstanceSpec", &id, 1, 1),
			},
		},
	})
}

// Only MySQL's Basic -> HighAvailability is in place; every other category change is named as a
// replacement.
func TestEditionReplaces(t *testing.T) {
	model := func(engine, category string) instanceModel {
		return instanceModel{Engine: types.StringValue(engine), Category: types.StringValue(category)}
	}
	for _, c := range []struct {
		engine, from, to string
		replaced         bool
	}{
		{"MySQL", "Basic", "HighAvailability", false}, {"MySQL", "HighAvailability", "HighAvailability", false},
		{"MySQL", "HighAvailability", "Basic", true}, {"MySQL", "Basic", "cluster", true}, {"MySQL", "cluster", "HighAvailability", true},
		{"PostgreSQL", "Basic", "HighAvailability", true},
	} {
		got := editionReplaces(context.Background(), nil, []string{"engine"}, model(c.engine, c.from), model(c.engine, c.to))
		if want := map[bool][]string{false: {"engine"}, true: {"category", "engine"}}[c.replaced]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s -> %s: replaced by %v, want %v", c.engine, c.from, c.to, got, want)
		}
	}
}
