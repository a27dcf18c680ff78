package rdsservice

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A later run's plan that names the restart of a spec change waiting for the window from an earlier
// run names the connections its switchover drops through a proxy without persistent connections:
// during this apply when the moved window is open now, else when the task runs. A waiting toggle or
// parameters switch nothing over, and a follow of the primary's task is the primary's.
func TestProxySpecChangeOfAWaitingTask(t *testing.T) {
	class := `instance_type changes from "mysql.n2.medium.1" to "mysql.n4.large.2c"`
	moved := "in the maintenance window 09:00Z-10:00Z (task t-1 moves there with maintenance_window)"
	cases := []struct {
		name    string
		restart Restart
		within  string
		reads   int
	}{
		{"the window opened now", Restart{Task: "t-1", Reasons: []string{class + "; storage changes from 100 GB to 150 GB", "maintenance_window is open now"}}, "during this apply", 1},
		{"the window moved", Restart{Task: "t-1", When: moved, Reasons: []string{class}}, moved, 1},
		{"a storage type change", Restart{Task: "t-1", Reasons: []string{`storage_type changes from "cloud_ssd" to "cloud_essd"`}}, "during this apply", 1},
		{"a waiting toggle", Restart{Task: "t-1", Reasons: []string{"atomic_write_16k changes from false to true"}}, "", 0},
		{"waiting parameters", Restart{Task: "t-1", Reasons: []string{"parameter innodb_read_io_threads is set to 8"}}, "", 0},
		{"the primary's task", Restart{Task: "t-1", ByPrimary: true, Reasons: []string{class}}, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := &proxyAPI{proxy: &rdsapi.DBProxy{Started: true}}
			c.restart.InstanceID = "rr-1"
			var ledger Ledger
			got := ProxySpecChange(context.Background(), Env{API: api, Ledger: &ledger}, "rr-1", "rr-1", "rm-1", Decision{Restarts: []Restart{c.restart}})
			if named := c.within != ""; (len(got) == 1) != named || api.reads != c.reads {
				t.Fatalf("problems %+v, proxy reads %d; want named %t, reads %d", got, api.reads, named, c.reads)
			}
			if c.within != "" && (got[0].Rule != RuleProxySpecDropsConnections || !strings.Contains(got[0].Detail, "rr-1 switches it over "+c.within)) {
				t.Fatalf("problem %+v, want the drop %s", got[0], c.within)
			}
			if when := ledger.specChange("rr-1"); when != c.within {
				t.Fatalf("ledger records %q, want %q", when, c.within)
			}
		})
	}
}

// An unchanged instance whose class change waits for the window records it, so that a proxy created
// (or its persistent connections turned off) in the same run names the drop the window's switchover makes.
func TestProxyStartNamesAnUnchangedInstancesWaitingTask(t *testing.T) {
	var ledger Ledger
	pending := &PendingChange{TaskID: "t-1", Window: "02:00Z-03:00Z", StartsAt: "2026-12-07T02:00Z",
		Changes: []string{`instance_type changes from "mysql.n2.medium.1" to "mysql.n4.large.2c"`}}
	PlanUnchangedInstance(&ledger, UnchangedInstance{Role: RoleReadOnly, ID: "rr-1", PrimaryID: "rm-1", Pending: pending})
	got := ProxyStartSpecChanges(&ledger, proxyRequest(), nil)
	if len(got) != 1 || !strings.Contains(got[0].Detail, "The spec change of rr-1 switches it over in the maintenance window 02:00Z-03:00Z") {
		t.Fatalf("a new proxy beside a read-only instance's waiting class change: %+v", got)
	}
}

// rds_apply_pending runs a waiting class change now behind a started proxy without persistent
// connections: its plan names the drop, and the simulator counts that switchover; with
// prevent_restart the action is refused and nothing else is named.
func TestApplyPendingNamesTheProxyDrop(t *testing.T) {
	ctx, e, id := pendingClassEnv(t, func(ctx context.Context, e *matrixEnv, id string) {
		if err := e.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: id, Service: rdsapi.ProxyStartup, InstanceType: "common",
			InstanceNum: 2, PersistentConnections: "Disabled"}); err != nil {
			t.Fatal(err)
		}
		if err := (&executor{api: e.api, w: e.waiter}).waitProxy(ctx, id, true); err != nil { // a starting proxy serves no client yet
			t.Fatal(err)
		}
	})
	if p, err := PlanAction(ctx, e.api, ActionRequest{Kind: OpApplyPendingNow, Name: "rds_apply_pending", InstanceID: id, PreventRestart: true}); err != nil || len(p.Notes) != 0 {
		t.Fatalf("refused action: notes %+v, %v", p.Notes, err)
	}
	p, err := PlanAction(ctx, e.api, ActionRequest{Kind: OpApplyPendingNow, Name: "rds_apply_pending", InstanceID: id})
	if err != nil || len(p.Notes) != 1 || p.Notes[0].Rule != RuleProxySpecDropsConnections || !strings.Contains(p.Notes[0].Detail, "switches it over during this apply") {
		t.Fatalf("rds_apply_pending behind the proxy: notes %+v, %v", p.Notes, err)
	}
	e.sim.ResetStats()
	if out := ExecuteAction(ctx, e.api, e.waiter, p); out.Err != nil {
		t.Fatal(out.Err)
	}
	if drops := e.sim.Stats().ProxyDrops[id]; drops != 1 {
		t.Fatalf("the simulator counted %d drops, the plan named one", drops)
	}
}

// A later run that moves the window to one open now orders the waiting spec change again for that
// window, and the cloud runs it right away (runWindowNow): the drop is named during this apply, a
// possible one too; a window that is not open leaves it in the window.
func TestProxySpecChangeOrderedForAWindowOpenNow(t *testing.T) {
	class := "mysql.n4.large.2c"
	openNow := Program{Operations: []Operation{{Instance: "rm-1", Action: OpWaitWindowTasks, When: WhenNow}}}
	cases := []struct {
		name   string
		dec    Decision
		within string
	}{
		{"open now", Decision{Deferred: true, Order: SpecOrder{InstanceClass: &class}, Restarts: []Restart{{InstanceID: "rm-1"}}, Program: openNow},
			"rm-1 switches it over during this apply,"},
		{"known only at apply, open now", Decision{Deferred: true, MayRestart: []string{AttrInstanceType}, Program: openNow},
			"rm-1 switches it over during this apply if instance_type (known only at apply) changes"},
		{"not open", Decision{Deferred: true, Order: SpecOrder{InstanceClass: &class}, Restarts: []Restart{{InstanceID: "rm-1", When: "in the maintenance window 02:00Z-03:00Z"}}},
			"rm-1 switches it over in the maintenance window 02:00Z-03:00Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := &proxyAPI{proxy: &rdsapi.DBProxy{Started: true}}
			got := ProxySpecChange(context.Background(), Env{API: api}, "rm-1", "rm-1", "rm-1", c.dec)
			if len(got) != 1 || !strings.Contains(got[0].Detail, c.within) {
				t.Fatalf("problems %+v, want %q", got, c.within)
			}
		})
	}
}
