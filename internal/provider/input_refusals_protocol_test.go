package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Issue 41 §2: bad input is stopped at plan, all of it at once, with nothing sent.

// mistakesResources is one primary on minor version rds_20201031 with extra attributes.
func mistakesResources(extra map[string]any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 100,
		"instance_name": "mistakes", "target_minor_version": "rds_20201031", "zone_id": "cn-hangzhou-i"}
	for k, v := range extra {
		attrs[k] = v
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// §2.12 with §2.6 and §2.7: four independent mistakes in one configuration (a malformed
// maintenance window, a reserved tag prefix, a minor version that was never released, a zone the
// region does not have) are all refused by one plan, each naming its fix, and nothing is sent.
// The old provider stopped at the first (ValidateConfig), then at the tags, then at the planner:
// three plans; and it let the last two through to the apply.
func TestFourMistakesRefusedInOnePlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	w.checkedStep(t, "create", mistakesResources(nil), &id)
	before := env.mutations()
	text := w.planErrorOf(t, mistakesResources(map[string]any{"maintenance_window": "25:00Z-26:00Z",
		"tags": map[string]string{"aliyun:team": "data"}, "target_minor_version": "rds_20240101", "zone_id": "cn-hangzhou-z"}))
	for _, want := range []string{
		`maintenance_window`,
		`aliyun:`,
		`(?s)Minor version rds_20240101 was never released.*target_minor_version to one of the released versions later than the running one: rds_20230630, rds_20250630`,
		`(?s)"cn-hangzhou-z" is not a zone of this region.*Set zone_id to one of cn-hangzhou-h, cn-hangzhou-i, cn-hangzhou-j, cn-hangzhou-k`,
	} {
		expectErrorText(t, "four mistakes", text, regexp.MustCompile(want))
	}
	if n := env.mutations() - before; n != 0 {
		t.Errorf("the refused plan sent %d mutating requests", n)
	}
	// Each of the two new refusals stands alone too, with the rest of the configuration valid.
	expectErrorText(t, "minor version alone", w.planErrorOf(t, mistakesResources(map[string]any{"target_minor_version": "rds_20240101"})),
		regexp.MustCompile(`Minor version rds_20240101 was never released`))
	expectErrorText(t, "zone alone", w.planErrorOf(t, mistakesResources(map[string]any{"zone_id": "cn-hangzhou-z"})),
		regexp.MustCompile(`"cn-hangzhou-z" is not a zone of this region`))
	if n := env.mutations() - before; n != 0 {
		t.Errorf("the refused plans sent %d mutating requests", n)
	}
	w.destroyStep(t, env)
}

// §2.8: a resource_group_id the account does not have is refused at plan (Resource Manager's
// ListResourceGroups), with nothing sent. When the plan cannot check it (no permission to list
// groups), it says so, and the group change goes first: the cloud's refusal stops the apply
// before the class change and its restart are sent.
func TestResourceGroupCheckedAtPlanAndMovedFirst(t *testing.T) {
	t.Parallel()
	env, cloud, w := refusingWorld(t, testSimOptions())
	var id string
	w.checkedStep(t, "create", mistakesResources(nil), &id)
	before := env.mutations()
	expectErrorText(t, "missing group", w.planErrorOf(t, mistakesResources(map[string]any{"instance_type": "mysql.n2.large.2c", "resource_group_id": "rg-fin"})),
		regexp.MustCompile(`(?s)Resource group rg-fin does not exist.*ListResourceGroups finds no such group`))
	if n := env.mutations() - before; n != 0 {
		t.Errorf("the refused plan sent %d mutating requests", n)
	}
	cloud.mu.Lock()
	cloud.refuse["ListResourceGroups"], cloud.refuse["ModifyResourceGroup"] = true, true
	cloud.mu.Unlock()
	plan, _ := w.applyFailsWith(t, "unchecked group", mistakesResources(map[string]any{"instance_type": "mysql.n2.large.2c", "resource_group_id": "rg-finance"}),
		regexp.MustCompile(`ModifyResourceGroup|Forbidden`))
	expectWarning(t, "unchecked group", plan, testRes, regexp.MustCompile(`Cannot check resource group rg-finance`))
	if n, r := env.requests("ModifyDBInstanceSpec"), env.restarts(id); n != 0 || r != 0 {
		t.Errorf("the apply sent %d ModifyDBInstanceSpec and restarted the instance %d times before the group was refused", n, r)
	}
	cloud.allow()
	w.destroyStep(t, env)
}

// §2.9: a point-in-time clone's "now" is the cloud's, read from the answer to the source's read,
// at plan and at apply: a restore time in the cloud's past is accepted although this machine's
// clock is earlier (here the cloud is two days ahead).
func TestCloneRestoreTimeJudgedByTheCloudsClock(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	env.sim.AdvanceClock(48 * time.Hour)
	restoreTime := time.Now().UTC().Add(24 * time.Hour).Format("2006-01-02T15:04:05Z")
	var id string
	w.checkedStep(t, "clone", restoreResources("mysql.n2.medium.2c", nil, map[string]any{"source_instance_id": src, "restore_time": restoreTime}),
		&id, env.wantRequests("CloneDBInstance", 1))
	w.destroyStep(t, env, src)
}

// seedPrimaryAndReadOnly plants a primary and one read-only instance of it.
func seedPrimaryAndReadOnly(t *testing.T, w *oracleWorld) (primary, ro string) {
	t.Helper()
	primary, err := w.sim.AddInstance(simulator.SeedInstance{ID: "rm-inputs", Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceClass: "mysql.n2.medium.2c", Storage: 100})
	if err != nil {
		t.Fatal(err)
	}
	ro, err = w.sim.AddInstance(simulator.SeedInstance{ID: "rr-inputs", Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceClass: "mysql.n2.medium.2c", Storage: 100, MasterID: primary})
	if err != nil {
		t.Fatal(err)
	}
	return primary, ro
}

// §2.10: rds_backup_now is checked at plan: a read-only instance and a missing id are refused,
// and an invocation that would be refused sends nothing.
func TestBackupNowCheckedAtPlan(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	_, ro := seedPrimaryAndReadOnly(t, w)
	before := sumWrites(w.sim.Stats().Requests)
	if diags := planAction(t, w, "rds_backup_now", map[string]any{"instance_id": ro}); !strings.Contains(errorsText(diags), "is a read-only instance") {
		t.Errorf("plan on a read-only instance: %q, want the read-only refusal", diagSummaries(diags))
	}
	if diags := planAction(t, w, "rds_backup_now", map[string]any{"instance_id": "rm-missing"}); !strings.Contains(errorsText(diags), "rm-missing does not exist") {
		t.Errorf("plan on a missing instance: %q, want the missing-instance refusal", diagSummaries(diags))
	}
	if _, diags := invokeAction(t, w, "rds_backup_now", map[string]any{"instance_id": ro}); !diagsHaveError(diags) {
		t.Errorf("invoke on a read-only instance succeeded: %s", diagSummaries(diags))
	}
	if n := sumWrites(w.sim.Stats().Requests) - before; n != 0 {
		t.Errorf("refused rds_backup_now sent %d requests other than reads (%v)", n, w.sim.Stats().Requests)
	}
}

// listErrors calls ListResource and returns the text of its errors.
func listErrors(t *testing.T, w *oracleWorld, typeName string, attrs map[string]string) string {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	stream, err := server.(tfprotov6.ListResourceServer).ListResource(context.Background(), &tfprotov6.ListResourceRequest{TypeName: typeName,
		Config: listConfig(t, server, typeName, attrs), IncludeResource: true})
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for r := range stream.Results {
		text = append(text, errorsText(r.Diagnostics))
	}
	return strings.Join(text, "\n")
}

// importErrors imports typeName by id and returns the text of its errors.
func importErrors(t *testing.T, w *oracleWorld, typeName, id string) string {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id})
	if err != nil {
		t.Fatal(err)
	}
	return errorsText(resp.Diagnostics)
}

// §2.11: the accounts and databases of a read-only instance are its primary's: listing or
// importing them there is refused, naming the primary, and nothing is written. A malformed
// name_regex is named as such.
func TestAccessOfReadOnlyRefusedAtListAndImport(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	primary, ro := seedPrimaryAndReadOnly(t, w)
	names := regexp.MustCompile(`(?s)` + ro + ` is a read-only instance of ` + primary + `.*instance_id = "` + primary + `"`)
	for _, typeName := range []string{"rds_account", "rds_database"} {
		expectErrorText(t, "list "+typeName, listErrors(t, w, typeName, map[string]string{"instance_id": ro}), names)
		expectErrorText(t, "import "+typeName, importErrors(t, w, typeName, ro+":app"), names)
	}
	// §3.14: the list's regex error names name_regex (the list's diagnostics point at no attribute).
	expectErrorText(t, "name_regex", listErrors(t, w, "rds_account", map[string]string{"name_regex": "("}),
		regexp.MustCompile(`name_regex = "\(" is not a valid regular expression`))
	if n := sumWrites(w.sim.Stats().Requests); n != 0 {
		t.Errorf("refused lists and imports sent %d requests other than reads (%v)", n, w.sim.Stats().Requests)
	}
}

// §3.17: rds_restart's plan names the parameters waiting for a restart (set without one, here
// outside Terraform), which the restart puts into effect.
func TestRestartPlanNamesWaitingParameters(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	primary, _ := seedPrimaryAndReadOnly(t, w)
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.ModifyParameter(context.Background(), &rdsapi.ModifyParameterRequest{DBInstanceID: primary,
		Parameters: map[string]string{"innodb_open_files": "4000"}}); err != nil {
		t.Fatal(err)
	}
	text := warningText(planAction(t, w, "rds_restart", map[string]any{"instance_id": primary}))
	if !strings.Contains(text, "the restart also applies parameters already waiting for one (innodb_open_files = 4000)") {
		t.Errorf("plan of rds_restart: %q, want it to name the waiting parameter", text)
	}
}

// §3.14: an upgrade made outside Terraform leaves the configuration's older engine_version as a
// replacement; the refusal under prevent_restart comes with the version the instance runs and
// the setting that keeps it.
func TestVersionUpgradedOutsideTerraformNamesTheRunningVersion(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	w.checkedStep(t, "create", upgradeResources("5.7", noReadOnly, true), &id)
	ctx := context.Background()
	if _, err := env.api.UpgradeDBInstanceEngineVersion(ctx, &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: id, EngineVersion: "8.0"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.waitRunning(ctx, env.api, id); err != nil {
		t.Fatal(err)
	}
	plan, err := w.planWalk(upgradeResources("5.7", noReadOnly, true))
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.res[testRes]; p == nil || !diagsHaveError(p.diags) ||
		!regexp.MustCompile(`(?s)runs MySQL 8\.0, not 5\.7.*set engine_version = "8\.0"`).MatchString(warningText(p.diags)) {
		t.Errorf("plan after an upgrade outside Terraform: %s", planSummary(plan, upgradeResources("5.7", noReadOnly, true)))
	}
	w.checkedStep(t, "keep", upgradeResources("8.0", noReadOnly, true), &id)
	w.destroyStep(t, env)
}

// §3.14: the refusal of a primary's major upgrade names the upgrade its read-only instance has
// waiting for its maintenance window, and what to do about it.
func TestUpgradeRefusalNamesTheReadOnlyUpgradeWaiting(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	w.checkedStep(t, "create", upgradeResources("5.7", "5.7", false), &id)
	roID := w.stateAttr(t, testRO, "id")
	// A window closed now: the default 18:00Z-22:00Z is open for part of the day, and the cloud then upgrades at once.
	if err := env.api.ModifyDBInstanceMaintainTime(context.Background(), roID, realClockWindow); err != nil {
		t.Fatal(err)
	}
	if _, err := env.api.UpgradeDBInstanceEngineVersion(context.Background(), &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: roID,
		EngineVersion: "8.0", EffectiveTime: rdsapi.EffectiveTimeMaintainTime}); err != nil {
		t.Fatal(err)
	}
	before := env.mutations()
	order := upgradeResources("8.0", "5.7", false)
	expectErrorText(t, "upgrade waiting", w.planErrorOf(t, order),
		regexp.MustCompile(`(?s)Upgrade the read-only instances of .*`+roID+` \(MySQL 5\.7; its own upgrade to 8\.0 waits for its maintenance window`))
	if n := env.mutations() - before; n != 0 {
		t.Errorf("the refused plan sent %d mutating requests", n)
	}
	w.destroyStep(t, env)
}

// §2.12 for rds_readonly_instance: a malformed maintenance window, a reserved tag prefix and a
// rule of the planner (16K atomic write off under a primary that has it on) are refused by one
// plan, with nothing sent.
func TestReadOnlyMistakesRefusedInOnePlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	var id string
	w.checkedStep(t, "create", upgradeResources("8.0", "", false), &id)
	order := upgradeResources("8.0", "", false)
	for k, v := range map[string]any{"maintenance_window": "25:00Z-26:00Z", "tags": map[string]string{"aliyun:team": "data"}, "atomic_write_16k": false} {
		order[1].attrs[k] = v
	}
	before := env.mutations()
	text := w.planErrorOf(t, order)
	for _, want := range []string{`maintenance_window`, `aliyun:`, `16K atomic write cannot be off on a read-only instance whose primary has it on`} {
		expectErrorText(t, "three mistakes", text, regexp.MustCompile(want))
	}
	if n := env.mutations() - before; n != 0 {
		t.Errorf("the refused plan sent %d mutating requests", n)
	}
	w.destroyStep(t, env)
}
