package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

const testTemplate = "rds_whitelist_template.office"

// Issue 42 §2: rds_whitelist_template created, changed and linked to an instance with
// whitelist_template_ids; a second template of the same name is refused at plan with no write;
// drift of the links shows; an empty set detaches; destroy deletes the template.
func TestWhitelistTemplateLinkedToAnInstance(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	order := func(ips []string, linked bool, extra ...oracleResource) []oracleResource {
		res := []oracleResource{{addr: testTemplate, attrs: map[string]any{"name": "office", "ip_whitelist": ips}}}
		links := []any{}
		if linked {
			links = []any{oracleRef{testTemplate, "id"}}
		}
		res = append(res, instanceResources("mysql.n2.medium.2c", 20, map[string]any{"whitelist_template_ids": links})...)
		return append(res, extra...)
	}
	linkedAre := func(want ...string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			linked, err := env.api.DescribeInstanceLinkedWhitelistTemplate(context.Background(), id)
			if err != nil {
				return err
			}
			var got []string
			for _, tpl := range linked {
				got = append(got, strconv.FormatInt(int64(tpl.TemplateID), 10))
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				return fmt.Errorf("linked templates %v, want %v", got, want)
			}
			return nil
		}
	}
	w.checkedStep(t, "create", order([]string{"127.0.0.1"}, true), &id)
	tid := w.stateAttr(t, testTemplate, "id")
	runChecks(t, "create", linkedAre(tid))
	n, _ := strconv.ParseInt(tid, 10, 64)
	w.checkedStep(t, "change the template", order([]string{"127.0.0.1", "10.1.0.0/16"}, true), &id, func(*terraform.State) error {
		tpl, err := env.api.DescribeWhitelistTemplate(context.Background(), n)
		if err != nil || tpl.Ips != "10.1.0.0/16,127.0.0.1" {
			return fmt.Errorf("template %+v, %v", tpl, err)
		}
		return nil
	})
	// Detached outside Terraform: drift, attached again.
	env.apiCall(t, "Detach", func(ctx context.Context) error { return env.api.DetachWhitelistTemplateToInstance(ctx, n, id) })()
	plan := w.checkedStep(t, "drift", order([]string{"127.0.0.1", "10.1.0.0/16"}, true), &id, linkedAre(tid))
	expectAction(t, "drift", plan, testRes, actUpdate)
	env.sim.ResetStats()
	twin := oracleResource{addr: "rds_whitelist_template.twin", attrs: map[string]any{"name": "office", "ip_whitelist": []string{"10.9.0.1"}}}
	msg := w.planErrorOf(t, order([]string{"127.0.0.1", "10.1.0.0/16"}, true, twin))
	if !strings.Contains(msg, `Whitelist template name "office" is taken`) {
		t.Errorf("plan errors lack the taken name:\n%s", msg)
	}
	if writes := env.writes(); len(writes) != 0 {
		t.Errorf("a refused plan wrote: %v", writes)
	}
	w.checkedStep(t, "detach", order([]string{"127.0.0.1", "10.1.0.0/16"}, false), &id, linkedAre())
	w.destroyStep(t, env)
	if _, err := env.api.DescribeWhitelistTemplate(context.Background(), n); err == nil {
		t.Error("the template survived destroy")
	}
}

// Issue 42 §2: the list resource finds the account's templates by name, and a listed template's
// generated configuration (import and refresh) plans empty.
func TestListWhitelistTemplates(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"office_vpn", "office_lan", "partners"} {
		if err := api.ModifyWhitelistTemplate(context.Background(), &rdsapi.ModifyWhitelistTemplateRequest{TemplateName: name, IPWhitelist: "10.1.0.1"}); err != nil {
			t.Fatal(err)
		}
	}
	if all := listed(t, w, "rds_whitelist_template", nil, false, 0); len(all) != 3 {
		t.Fatalf("listed %d templates, want 3", len(all))
	}
	results := listed(t, w, "rds_whitelist_template", map[string]string{"name": "office"}, true, 0)
	if len(results) != 2 || !strings.Contains(results[0].DisplayName, "office_") || identityString(t, results[0], "template_id") == "" {
		t.Fatalf("templates named office: %+v", results)
	}
	planGenerated(t, w, "rds_whitelist_template", results)
}
