package provider

// Actions at the plugin protocol: PlanAction as `terraform plan -invoke=...` calls it, then
// InvokeAction, against the simulator on the oracle's clock (no real waiting).

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// actionConfig is an action block's configuration of the action's schema.
func actionConfig(t testing.TB, server tfprotov6.ProviderServer, typeName string, attrs map[string]any) *tfprotov6.DynamicValue {
	t.Helper()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema, ok := resp.ActionSchemas[typeName]
	if !ok {
		t.Fatalf("no action %s", typeName)
	}
	typ := schema.Schema.ValueType().(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, attrs[name])
	}
	return dynamic(typ, tftypes.NewValue(typ, vals))
}

// planAction runs PlanAction and returns its diagnostics.
func planAction(t *testing.T, w *oracleWorld, typeName string, attrs map[string]any) []*tfprotov6.Diagnostic {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.(tfprotov6.ActionServer).PlanAction(context.Background(), &tfprotov6.PlanActionRequest{
		ActionType: typeName, Config: actionConfig(t, server, typeName, attrs)})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// invokeAction runs InvokeAction and returns its progress messages and final diagnostics.
func invokeAction(t testing.TB, w *oracleWorld, typeName string, attrs map[string]any) ([]string, []*tfprotov6.Diagnostic) {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	stream, err := server.(tfprotov6.ActionServer).InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{
		ActionType: typeName, Config: actionConfig(t, server, typeName, attrs)})
	if err != nil {
		t.Fatal(err)
	}
	var progress []string
	var diags []*tfprotov6.Diagnostic
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			diags = e.Diagnostics
		}
	}
	return progress, diags
}

func diagSummaries(ds []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// rds_restart warns in the plan naming the instance and its downtime, is refused under
// prevent_restart with nothing sent, and restarts the instance exactly once when invoked.
func TestActionRestart(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	if _, err := w.sim.AddInstance(seedOf(movedPrimary)); err != nil {
		t.Fatal(err)
	}
	diags := planAction(t, w, "rds_restart", map[string]any{"instance_id": movedPrimary})
	text := diagSummaries(diags)
	if diagsHaveError(diags) || !strings.Contains(text, "This apply restarts RDS instance "+movedPrimary) ||
		!strings.Contains(text, "rds_restart restarts it now") || !strings.Contains(text, "expected downtime") {
		t.Fatalf("plan of rds_restart: %s", text)
	}

	diags = planAction(t, w, "rds_restart", map[string]any{"instance_id": movedPrimary, "prevent_restart": true})
	if !diagsHaveError(diags) || !strings.Contains(diagSummaries(diags), "prevent_restart refuses this plan") {
		t.Fatalf("plan of rds_restart with prevent_restart: %s", diagSummaries(diags))
	}
	_, diags = invokeAction(t, w, "rds_restart", map[string]any{"instance_id": movedPrimary, "prevent_restart": true})
	if !diagsHaveError(diags) || w.sim.Stats().Requests["RestartDBInstance"] != 0 {
		t.Fatalf("invoke with prevent_restart: %s, %d restarts sent", diagSummaries(diags), w.sim.Stats().Requests["RestartDBInstance"])
	}

	progress, diags := invokeAction(t, w, "rds_restart", map[string]any{"instance_id": movedPrimary})
	if diagsHaveError(diags) {
		t.Fatalf("invoke rds_restart: %s", diagSummaries(diags))
	}
	if got := w.sim.Stats().Restarts[movedPrimary]; got != 1 {
		t.Errorf("rds_restart restarted %s %d times, want 1", movedPrimary, got)
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	attr, err := api.DescribeDBInstanceAttribute(context.Background(), movedPrimary)
	if err != nil || attr.DBInstanceStatus != "Running" {
		t.Errorf("after rds_restart the instance is %v (%v), want Running", attr, err)
	}
	if len(progress) < 2 || !strings.Contains(progress[len(progress)-1], "restarted") {
		t.Errorf("progress messages: %q", progress)
	}
}

// rds_backup_now makes one backup set and restarts nothing.
func TestActionBackupNow(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	if _, err := w.sim.AddInstance(seedOf(movedPrimary)); err != nil {
		t.Fatal(err)
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		resp, err := api.DescribeBackups(context.Background(), &rdsapi.DescribeBackupsRequest{DBInstanceID: movedPrimary})
		if err != nil {
			t.Fatal(err)
		}
		return len(resp.Items.Backup)
	}
	before := count()
	if diags := planAction(t, w, "rds_backup_now", map[string]any{"instance_id": movedPrimary}); len(diags) != 0 {
		t.Errorf("plan of rds_backup_now: %s, want nothing to say", diagSummaries(diags))
	}
	progress, diags := invokeAction(t, w, "rds_backup_now", map[string]any{"instance_id": movedPrimary})
	if diagsHaveError(diags) {
		t.Fatalf("invoke rds_backup_now: %s", diagSummaries(diags))
	}
	if after := count(); after != before+1 {
		t.Errorf("backup sets: %d before, %d after, want one more", before, after)
	}
	if n := w.sim.Stats().Restarts[movedPrimary]; n != 0 {
		t.Errorf("rds_backup_now restarted the instance %d times", n)
	}
	if len(progress) == 0 || !strings.Contains(progress[len(progress)-1], "is ready") {
		t.Errorf("progress messages: %q", progress)
	}
}

// rds_switchover names the node in the plan, is refused under prevent_restart and where there is
// no secondary node, and makes the secondary the primary without a restart.
func TestActionSwitchover(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	basic := seedOf("rm-switchbasic")
	basic.Category = "Basic"
	readonly := seedOf("rr-switchreader")
	readonly.MasterID = movedPrimary
	for _, seed := range []simulatorSeed{seedOf(movedPrimary), basic, readonly} {
		if _, err := w.sim.AddInstance(seed); err != nil {
			t.Fatal(err)
		}
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	nodes := func() (master, slave string) {
		ha, err := api.DescribeDBInstanceHAConfig(context.Background(), movedPrimary)
		if err != nil {
			t.Fatal(err)
		}
		return nodeID(ha.Node(rdsapi.NodeTypeMaster)), nodeID(ha.Node(rdsapi.NodeTypeSlave))
	}
	master, slave := nodes()
	if master == "" || slave == "" || master == slave {
		t.Fatalf("nodes of an HA instance: master %q, slave %q", master, slave)
	}

	text := diagSummaries(planAction(t, w, "rds_switchover", map[string]any{"instance_id": movedPrimary}))
	if !strings.Contains(text, "This apply switches "+movedPrimary+" over to its secondary node") || !strings.Contains(text, "node "+slave) {
		t.Fatalf("plan of rds_switchover: %s", text)
	}
	for _, tc := range []struct {
		attrs map[string]any
		want  string
	}{
		{map[string]any{"instance_id": movedPrimary, "prevent_restart": true}, "prevent_restart refuses this plan: it switches " + movedPrimary + " over"},
		{map[string]any{"instance_id": "rm-switchbasic"}, "rm-switchbasic has no secondary node to switch over to"},
		{map[string]any{"instance_id": "rr-switchreader"}, "is a read-only instance"},
	} {
		diags := planAction(t, w, "rds_switchover", tc.attrs)
		if !diagsHaveError(diags) || !strings.Contains(diagSummaries(diags), tc.want) {
			t.Errorf("plan of rds_switchover %v: %s, want an error saying %q", tc.attrs, diagSummaries(diags), tc.want)
		}
		if _, diags := invokeAction(t, w, "rds_switchover", tc.attrs); !diagsHaveError(diags) {
			t.Errorf("invoke of rds_switchover %v: no error", tc.attrs)
		}
	}
	if n := w.sim.Stats().Requests["SwitchDBInstanceHA"]; n != 0 {
		t.Fatalf("refused switchovers sent %d SwitchDBInstanceHA", n)
	}

	if _, diags := invokeAction(t, w, "rds_switchover", map[string]any{"instance_id": movedPrimary}); diagsHaveError(diags) {
		t.Fatalf("invoke rds_switchover: %s", diagSummaries(diags))
	}
	if m, s := nodes(); m != slave || s != master {
		t.Errorf("after the switchover: master %s, slave %s; want master %s, slave %s", m, s, slave, master)
	}
	if n := w.sim.Stats().Restarts[movedPrimary]; n != 0 {
		t.Errorf("the switchover counted %d restarts", n)
	}
}

type simulatorSeed = simulator.SeedInstance

func nodeID(n *rdsapi.HANode) string {
	if n == nil {
		return ""
	}
	return string(n.NodeID)
}

// rds_apply_pending warns when nothing waits, names the waiting spec change and its restart,
// honours prevent_restart, and runs the change now: the task is gone and the class is the target.
func TestActionApplyPending(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	if _, err := w.sim.AddInstance(seedOf(movedPrimary)); err != nil {
		t.Fatal(err)
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	text := diagSummaries(planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": movedPrimary}))
	if !strings.Contains(text, "Nothing waits for the maintenance window of "+movedPrimary) {
		t.Fatalf("plan with nothing pending: %s", text)
	}
	if err := api.ModifyDBInstanceMaintainTime(ctx, movedPrimary, oracleWindow); err != nil {
		t.Fatal(err)
	}
	if _, err := api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: movedPrimary,
		DBInstanceClass: "mysql.n2.large.2c", EffectiveTime: "MaintainTime"}); err != nil {
		t.Fatal(err)
	}
	diags := planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": movedPrimary})
	text = diagSummaries(diags)
	if diagsHaveError(diags) || !strings.Contains(text, "This apply restarts RDS instance "+movedPrimary) || !strings.Contains(text, "mysql.n2.large.2c") {
		t.Fatalf("plan with a pending class change: %s", text)
	}
	if diags := planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": movedPrimary, "prevent_restart": true}); !diagsHaveError(diags) {
		t.Errorf("plan with prevent_restart: %s, want the refusal", diagSummaries(diags))
	}
	if _, diags := invokeAction(t, w, "rds_apply_pending", map[string]any{"instance_id": movedPrimary}); diagsHaveError(diags) {
		t.Fatalf("invoke rds_apply_pending: %s", diagSummaries(diags))
	}
	attr, err := api.DescribeDBInstanceAttribute(ctx, movedPrimary)
	if err != nil || attr.DBInstanceClass != "mysql.n2.large.2c" || attr.DBInstanceStatus != "Running" {
		t.Fatalf("after rds_apply_pending: %+v (%v), want mysql.n2.large.2c and Running", attr, err)
	}
	if n := w.sim.Stats().Restarts[movedPrimary]; n != 1 {
		t.Errorf("rds_apply_pending restarted %s %d times, want 1", movedPrimary, n)
	}
	text = diagSummaries(planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": movedPrimary}))
	if !strings.Contains(text, "Nothing waits") {
		t.Errorf("after rds_apply_pending the change still waits: %s", text)
	}
}

// Issue 41, item 4: rds_renew on a subscription that expired (LockByExpiration) names the purchase
// and the new end in the plan, renews it once when invoked (the lock lifts); a period the API does
// not take and a pay-as-you-go instance are refused at plan, and nothing is sent.
func TestActionRenew(t *testing.T) {
	w := newOracleHarness(t).newWorld()
	if _, err := w.sim.AddInstance(seedOf(movedPrimary)); err != nil {
		t.Fatal(err)
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, refused := range []struct {
		period int64
		want   string
	}{{10, "cannot renew for 10 month(s)"}, {1, "renews subscription instances only: " + movedPrimary + " is pay-as-you-go"}} {
		diags := planAction(t, w, "rds_renew", map[string]any{"instance_id": movedPrimary, "period": refused.period})
		if !diagsHaveError(diags) || !strings.Contains(diagSummaries(diags), refused.want) {
			t.Fatalf("plan of rds_renew, period %d: %s; want %q", refused.period, diagSummaries(diags), refused.want)
		}
	}
	if _, err := api.TransformDBInstancePayType(ctx, &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: movedPrimary,
		PayType: rdsapi.PayTypePrepaid, Subscription: &rdsapi.Subscription{Period: "Month", UsedTime: 1}}); err != nil {
		t.Fatal(err)
	}
	w.sim.AdvanceClock(40 * 24 * time.Hour)
	if attr, err := api.DescribeDBInstanceAttribute(ctx, movedPrimary); err != nil || attr.LockMode != "LockByExpiration" {
		t.Fatalf("not expired: %+v %v", attr, err)
	}
	diags := planAction(t, w, "rds_renew", map[string]any{"instance_id": movedPrimary, "period": int64(3)})
	if diagsHaveError(diags) || !strings.Contains(diagSummaries(diags), "rds_renew buys 3 more month(s) of "+movedPrimary+"'s subscription") {
		t.Fatalf("plan of rds_renew: %s", diagSummaries(diags))
	}
	_, diags = invokeAction(t, w, "rds_renew", map[string]any{"instance_id": movedPrimary, "period": int64(3)})
	if diagsHaveError(diags) || w.sim.Stats().Requests["RenewInstance"] != 1 {
		t.Fatalf("invoke rds_renew: %s, %d RenewInstance sent", diagSummaries(diags), w.sim.Stats().Requests["RenewInstance"])
	}
	if attr, err := api.DescribeDBInstanceAttribute(ctx, movedPrimary); err != nil || attr.LockMode == "LockByExpiration" {
		t.Fatalf("still locked after the renewal: %+v %v", attr, err)
	}
}
