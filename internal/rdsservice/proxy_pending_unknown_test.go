package rdsservice

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A class change waiting for the window (scheduled outside Terraform) while instance_type is known only at
// apply, behind a started proxy without persistent connections (issue 39 §4, mechanism "instance_type known at
// apply", seeds 20261202, 20261206 and 3): with apply_restarts = immediately the order that may go now replaces
// the task and switches the instance over during this apply, so the plan names that drop as possible now (it
// named the task's window); with the possible order waiting for the window too, the task's window stands.
func TestProxyDropOfAWaitingTaskBesideAnUnknownClass(t *testing.T) {
	task := Restart{InstanceID: "rm-1", Task: "t-1", Possible: true, When: "in the maintenance window 02:00Z-03:00Z (starts 2026-12-01T02:00:00Z; task t-1, scheduled before this plan)",
		Reasons: []string{`instance_type changes from "mysql.n2.medium.2c" to "mysql.n2.large.2c"`}}
	for _, c := range []struct {
		name, mayWhen, want string
	}{
		{"apply_restarts = immediately", "", "switches it over during this apply if instance_type (known only at apply) changes, and"},
		{"apply_restarts = in_maintenance_window", "in the maintenance window 02:00Z-03:00Z (next: 2026-12-01T02:00Z)", "switches it over " + task.When},
	} {
		api := &proxyAPI{proxy: &rdsapi.DBProxy{Started: true}}
		dec := Decision{Restarts: []Restart{task}, MayRestart: []string{AttrInstanceType}, MayRestartWhen: c.mayWhen}
		got := ProxySpecChange(context.Background(), Env{API: api}, "rm-1", "rm-1", "rm-1", dec)
		if len(got) != 1 || !strings.Contains(got[0].Detail, c.want) {
			t.Errorf("%s: %+v, want the drop named %q", c.name, got, c.want)
		}
	}
}
