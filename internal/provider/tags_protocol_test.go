package provider

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// taggedResources is taggedConfig at the protocol (tags nil: unset; default_tags are the world's).
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
		w.checkedStep(t, name, order, &id, checks...)
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

// taggedStep is a terraform step under the provider's default_tags (nil: unset): the apply's plan
// must be planned, and the state's tags_all must be tagsAll (nil: null) before the checks run;
// with drift set, the checks change the cloud and the plan after the apply must show an update
// (ExpectNonEmptyPlan), else it must be empty.
func (w *oracleWorld) taggedStep(t *testing.T, name string, defaults, tags, tagsAll map[string]string, planned oracleAction,
	drift bool, checks ...resource.TestCheckFunc,
) {
	t.Helper()
	w.defaultTags = defaults
	order := taggedResources(tags)
	plan, err := w.planWalk(order)
	if err != nil || plan.errAt != "" {
		t.Fatalf("%s: plan: %v %s", name, err, plan.errMsg)
	}
	if a := plan.res[testRes].action; a != planned {
		t.Errorf("%s: planned %s, want %s", name, a, planned)
	}
	res, err := w.applyWalk(order, plan)
	if err != nil || res.errAt != "" || len(res.inconsistent) > 0 {
		t.Fatalf("%s: apply: %v %s %v", name, err, res.errMsg, res.inconsistent)
	}
	w.checkTagsAll(t, name, tagsAll)
	for _, c := range checks {
		if err := c(nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	again, err := w.planWalk(order)
	if err != nil || again.errAt != "" {
		t.Fatalf("%s: plan after apply: %v %s", name, err, again.errMsg)
	}
	if a := again.res[testRes].action; (a != actNoop) != drift {
		t.Errorf("%s: plan after apply %s, want a non-empty plan: %v", name, a, drift)
	}
}

// checkTagsAll asserts the state's tags_all (want nil: null).
func (w *oracleWorld) checkTagsAll(t *testing.T, name string, want map[string]string) {
	t.Helper()
	if v := attrOf(w.state[testRes], "tags_all"); want == nil {
		if !v.IsNull() {
			t.Errorf("%s: tags_all %s, want null", name, shortValue(v))
		}
		return
	}
	if got := w.stringMapAttr(t, testRes, "tags_all"); !maps.Equal(got, want) {
		t.Errorf("%s: tags_all %v, want %v", name, got, want)
	}
}

// Default tags against resource tags: a resource tag equal to a default, an override, import, a
// changed default, tags changed outside Terraform; every apply but the drift's is followed by an
// empty plan, and the create-token tag stays. The steps and checks of a terraform test, played at
// the plugin protocol with default_tags in the provider configuration.
func TestTags_defaultsResourceTagsAndDriftConverge(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	defaults := map[string]string{"env": "dev", "team": "db"}
	first := map[string]string{"env": "dev", "team": "db", "app": "a"}
	// A resource tag with a default's key and value: no perpetual diff; the plan holds tags_all.
	w.defaultTags = defaults
	plan, err := w.planWalk(taggedResources(map[string]string{"env": "dev", "app": "a"}))
	if err != nil || plan.errAt != "" {
		t.Fatalf("create: plan: %v %s", err, plan.errMsg)
	}
	if got := stringMapOf(t, "planned tags_all", attrOf(plan.res[testRes].planned, "tags_all")); !maps.Equal(got, first) {
		t.Errorf("create: planned tags_all %v, want %v", got, first)
	}
	w.taggedStep(t, "create", defaults, map[string]string{"env": "dev", "app": "a"}, first, actCreate, false,
		func(*terraform.State) error { id = w.stateAttr(t, testRes, "id"); return nil },
		env.checkOneCreate(), env.checkCloudTags(&id, first),
		func(*terraform.State) error {
			if n := env.requests("TagResources"); n != 0 {
				return fmt.Errorf("CreateDBInstance carries the tags; %d TagResources", n)
			}
			return nil
		})
	// The resource overrides a default.
	override := map[string]string{"env": "prod", "app": "a"}
	prod := map[string]string{"env": "prod", "team": "db", "app": "a"}
	w.taggedStep(t, "override", defaults, override, prod, actUpdate, false, env.checkCloudTags(&id, prod), env.checkCounts(&id, 0, 0))
	w.importVerify(t, testRes)
	// A default changes: only tags_all changes, in place; then tags change outside Terraform (a tag
	// added, a default's value changed, a resource tag removed).
	newDefaults := map[string]string{"env": "dev", "team": "dba"}
	dba := map[string]string{"env": "prod", "team": "dba", "app": "a"}
	w.taggedStep(t, "default changes", newDefaults, override, dba, actUpdate, true, env.checkCloudTags(&id, dba),
		env.changeTagsOutside(&id, map[string]string{"x": "1", "team": "other"}, "app"))
	// The drift shows once, and the apply converges.
	w.taggedStep(t, "converge", newDefaults, override, dba, actUpdate, false, env.checkCloudTags(&id, dba))
	// Every tag and default gone: only the provider's own tag is left.
	w.taggedStep(t, "untagged", nil, nil, nil, actUpdate, false, env.checkCloudTags(&id, map[string]string{}))
	if _, err := w.applyStep(nil); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if err := env.checkDestroyed()(nil); err != nil {
		t.Error(err)
	}
}

// The tag reads of one refresh of a tagged fleet: at most one ListTagResources per instance, and
// fewer where refreshes overlap (rdsservice.TagReader). The refresh reads the instances
// concurrently, as Terraform's does; how many reads overlap depends on timing, so the count is
// logged and only the bound is asserted. The steps and checks of a terraform test, played at the
// plugin protocol (TestAccTags_invalidRefusedAtPlanWithoutWrites keeps the family's terraform test).
func TestTags_refreshReadsAtMostOneTagCallPerInstance(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const n = 12
	var fleet []oracleResource
	for i := range n {
		fleet = append(fleet, oracleResource{addr: fmt.Sprintf("rds_instance.fleet[%d]", i), attrs: map[string]any{
			"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
			"instance_name": fmt.Sprintf("fleet-%d", i), "tags": map[string]string{"fleet": "yes"}}})
	}
	if _, err := w.applyStep(fleet); err != nil {
		t.Fatalf("create: %v", err)
	}
	before := maps.Clone(env.sim.Stats().Requests)
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.refreshAtOnce(server, fleet); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	after := env.sim.Stats().Requests
	tags, attrs := after["ListTagResources"]-before["ListTagResources"], after["DescribeDBInstanceAttribute"]-before["DescribeDBInstanceAttribute"]
	t.Logf("refresh of %d tagged instances: %d DescribeDBInstanceAttribute, %d ListTagResources", n, attrs, tags)
	if attrs != n || tags < 1 || tags > n {
		t.Errorf("%d attribute reads and %d tag reads for %d instances", attrs, tags, n)
	}
	w.destroyStep(t, env)
}

// taggedPairResources is a tagged primary in group and a read-only instance of it tagged roTags
// (the provider's default_tags are the world's).
func taggedPairResources(group string, roTags map[string]string) []oracleResource {
	order := taggedResources(map[string]string{"app": "a"})
	order[0].attrs["resource_group_id"] = group
	return append(order, oracleResource{addr: "rds_readonly_instance.ro", attrs: map[string]any{
		"master_instance_id": oracleRef{testRes, "id"}, "instance_type": "mysqlro.n2.medium.1c", "storage": 20, "tags": roTags}})
}

// A read-only instance is tagged right after its create (CreateReadOnlyDBInstance takes no tags);
// resource_group_id moves in place; neither restarts anything. The steps and checks of a terraform
// test, played at the plugin protocol (TestAccTags_invalidRefusedAtPlanWithoutWrites keeps the
// family's terraform test).
func TestTags_readOnlyInstanceAndResourceGroup(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	const ro = "rds_readonly_instance.ro"
	var id, roID string
	w.defaultTags = map[string]string{"owner": "platform"}
	read := map[string]string{"tier": "read"}
	w.checkedStep(t, "create", taggedPairResources("rg-first", read), &id, env.checkCloudTags(&id, map[string]string{"owner": "platform", "app": "a"}),
		func(*terraform.State) error {
			roID = w.stateAttr(t, ro, "id")
			if got, want := w.stringMapAttr(t, ro, "tags_all"), map[string]string{"owner": "platform", "tier": "read"}; !maps.Equal(got, want) {
				return fmt.Errorf("%s tags_all %v, want %v", ro, got, want)
			}
			got, err := env.cloudTags(roID)
			if err != nil {
				return err
			}
			if want := map[string]string{"owner": "platform", "tier": "read"}; !maps.Equal(got, want) {
				return fmt.Errorf("read-only instance tags %v, want %v", got, want)
			}
			if n := env.requests("TagResources"); n != 1 {
				return fmt.Errorf("%d TagResources, want 1 (the read-only instance's, after its create)", n)
			}
			return nil
		})
	plan := w.checkedStep(t, "group", taggedPairResources("rg-second", read), &id, w.stateIs(testRes, "resource_group_id", "rg-second"),
		func(*terraform.State) error {
			attr, err := env.api.DescribeDBInstanceAttribute(context.Background(), id)
			if err != nil {
				return err
			}
			if attr.ResourceGroupID != "rg-second" || env.requests("ModifyResourceGroup") != 1 || env.restarts(id) != 0 {
				return fmt.Errorf("group %s, %d ModifyResourceGroup, %d restarts", attr.ResourceGroupID, env.requests("ModifyResourceGroup"), env.restarts(id))
			}
			return nil
		})
	expectAction(t, "group", plan, testRes, actUpdate)
	expectAction(t, "group", plan, ro, actNoop)
	w.destroyStep(t, env)
}

// refreshAtOnce is a refresh whose ReadResource calls run concurrently, one per resource in order
// (Terraform refreshes up to -parallelism resources at once); the state takes the new values.
func (w *oracleWorld) refreshAtOnce(server tfprotov6.ProviderServer, order []oracleResource) error {
	states := make([]tftypes.Value, len(order))
	privs := make([][]byte, len(order))
	errs := make([]error, len(order))
	var wg sync.WaitGroup
	for i, r := range order {
		typ := w.h.objType(r.typeName())
		req := &tfprotov6.ReadResourceRequest{TypeName: r.typeName(), CurrentState: dynamic(typ, w.state[r.addr]), Private: w.priv[r.addr]}
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := server.ReadResource(context.Background(), req)
			if err != nil {
				errs[i] = fmt.Errorf("refresh %s: %v", r.addr, err)
				return
			}
			if diagsHaveError(resp.Diagnostics) {
				errs[i] = fmt.Errorf("refresh %s: %s", r.addr, firstError(resp.Diagnostics))
				return
			}
			states[i], errs[i] = resp.NewState.Unmarshal(typ)
			privs[i] = resp.Private
		}()
	}
	wg.Wait()
	for i, r := range order {
		if errs[i] != nil {
			return errs[i]
		}
		w.state[r.addr], w.priv[r.addr] = states[i], privs[i]
	}
	return nil
}
