package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Issue 42 §2: security_ip_groups on a primary and its read-only instance. The named lists are
// created, changed and removed with the configuration; `default` stays security_ips' on the
// primary and is a list like the others on the read-only instance; a hidden array of an Alibaba
// service is never shown, changed or removed; drift made outside Terraform shows; bad lists are
// refused at plan, all at once, with no write.
func TestIPGroupsFollowTheConfiguration(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	order := func(primary, ro map[string][]string) []oracleResource {
		res := upgradeResources("8.0", "", false)
		res[0].attrs["security_ips"] = []string{"10.0.0.1"}
		if primary != nil {
			res[0].attrs["security_ip_groups"] = primary
		}
		if ro != nil {
			res[1].attrs["security_ip_groups"] = ro
		}
		return res
	}
	arrays := func(addr string) string {
		resp, err := env.api.DescribeDBInstanceIPArrayList(context.Background(), w.stateAttr(t, addr, "id"))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range resp.Items {
			out = append(out, a.DBInstanceIPArrayName+"="+a.SecurityIPList)
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	cloudIs := func(addr, want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := arrays(addr); got != want {
				return fmt.Errorf("%s arrays: %s, want %s", addr, got, want)
			}
			return nil
		}
	}
	office := map[string][]string{"office": {"10.1.0.0/16"}, "vpn": {"10.2.0.1", "10.2.0.2"}}
	w.checkedStep(t, "create", order(office, map[string][]string{"default": {"10.5.0.1"}, "bi": {"10.6.0.0/24"}}), &id,
		cloudIs(testRes, "default=10.0.0.1 office=10.1.0.0/16 vpn=10.2.0.1,10.2.0.2"),
		cloudIs(testRO, "bi=10.6.0.0/24 default=10.5.0.1"))
	if err := env.sim.AddIPArray(id, "dtspublic", "100.104.0.0/16", "hidden"); err != nil {
		t.Fatal(err)
	}
	plan := w.checkedStep(t, "hidden array: no diff", order(office, map[string][]string{"default": {"10.5.0.1"}, "bi": {"10.6.0.0/24"}}), &id)
	expectEmptyPlan(t, "hidden array", plan)
	// One list changed, one removed, one added; the read-only instance's lists unset: left alone.
	changed := map[string][]string{"office": {"10.1.0.0/16", "10.3.0.0/16"}, "ops": {"10.4.0.1"}}
	w.checkedStep(t, "change", order(changed, nil), &id,
		cloudIs(testRes, "default=10.0.0.1 dtspublic=100.104.0.0/16 office=10.1.0.0/16,10.3.0.0/16 ops=10.4.0.1"),
		cloudIs(testRO, "bi=10.6.0.0/24 default=10.5.0.1"))
	// Drift: a list added outside Terraform shows, and the apply removes it.
	env.apiCall(t, "ModifySecurityIps", func(ctx context.Context) error {
		return env.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "192.168.0.1", DBInstanceIPArrayName: "stray"})
	})()
	plan = w.checkedStep(t, "drift", order(changed, nil), &id,
		cloudIs(testRes, "default=10.0.0.1 dtspublic=100.104.0.0/16 office=10.1.0.0/16,10.3.0.0/16 ops=10.4.0.1"))
	expectAction(t, "drift", plan, testRes, actUpdate)
	// Refusals, all at once, nothing sent.
	env.sim.ResetStats()
	msg := w.planErrorOf(t, order(map[string][]string{"default": {"10.0.0.9"}, "Bad-Name": {"10.0.0.1"}, "dtspublic": {"1.2.3.4"}, "empty": {}}, nil))
	for _, want := range []string{"default IP list is set twice", "Invalid IP list name \"Bad-Name\"", "is a cloud service's hidden list", "Empty IP list \"empty\""} {
		if !strings.Contains(msg, want) {
			t.Errorf("plan errors lack %q:\n%s", want, msg)
		}
	}
	if writes := env.writes(); len(writes) != 0 {
		t.Errorf("a refused plan wrote: %v", writes)
	}
	w.destroyStep(t, env)
}

// Issue 42 §2: security_group_ids on a primary and its read-only instance: set at create, drift
// shown and undone, an empty set removes every group, unset leaves them; bad lists refused at plan
// with no write.
func TestSecurityGroupIDsFollowTheConfiguration(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	order := func(primary, ro []string) []oracleResource {
		res := upgradeResources("8.0", "", false)
		if primary != nil {
			res[0].attrs["security_group_ids"] = primary
		}
		if ro != nil {
			res[1].attrs["security_group_ids"] = ro
		}
		return res
	}
	cloudIs := func(addr string, want ...string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			resp, err := env.api.DescribeSecurityGroupConfiguration(context.Background(), w.stateAttr(t, addr, "id"))
			if err != nil {
				return err
			}
			got := resp.IDs()
			slices.Sort(got)
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s groups %v, want %v", addr, got, want)
			}
			return nil
		}
	}
	w.checkedStep(t, "create", order([]string{"sg-app1", "sg-app2"}, []string{"sg-bi"}), &id,
		cloudIs(testRes, "sg-app1", "sg-app2"), cloudIs(testRO, "sg-bi"))
	env.apiCall(t, "ModifySecurityGroupConfiguration", func(ctx context.Context) error {
		return env.api.ModifySecurityGroupConfiguration(ctx, id, []string{"sg-app1", "sg-stray"})
	})()
	plan := w.checkedStep(t, "drift", order([]string{"sg-app1", "sg-app2"}, []string{"sg-bi"}), &id, cloudIs(testRes, "sg-app1", "sg-app2"))
	expectAction(t, "drift", plan, testRes, actUpdate)
	w.checkedStep(t, "remove all, read-only unset", order([]string{}, nil), &id, cloudIs(testRes), cloudIs(testRO, "sg-bi"))
	env.sim.ResetStats()
	var eleven []string
	for i := range 11 {
		eleven = append(eleven, fmt.Sprintf("sg-g%d", i))
	}
	msg := w.planErrorOf(t, order(append(eleven, "default"), nil))
	for _, want := range []string{"Too many security groups", "Invalid security group id \"default\""} {
		if !strings.Contains(msg, want) {
			t.Errorf("plan errors lack %q:\n%s", want, msg)
		}
	}
	if writes := env.writes(); len(writes) != 0 {
		t.Errorf("a refused plan wrote: %v", writes)
	}
	w.destroyStep(t, env)
}
