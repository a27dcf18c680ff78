package provider

import (
	"strings"
	"testing"
)

// Issue 39 §2: later runs meet what waits for the maintenance window. One test per reported
// defect, at the plugin protocol with the simulator on the oracle's clock; each decision is a row
// of rdsservice.PendingBehaviours (the guide "Changes waiting for the maintenance window").

// Item 9: rds_apply_pending on a primary whose toggle waits for the window, with a read-only
// instance announced to follow it there: the action's plan names both restarts, and the invoke
// makes exactly those (the read-only instance follows now).
func TestPendingLater_applyPendingNamesTheFollower(t *testing.T) {
	t.Parallel()
	w := auditPendingToggle(t)
	primary, ro := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
	text := diagSummaries(planAction(t, w, "rds_apply_pending", map[string]any{"instance_id": primary}))
	if !strings.Contains(text, primary) || !strings.Contains(text, ro+" (read-only instance)") {
		t.Fatalf("plan of rds_apply_pending names %q, want both %s and its read-only instance %s", text, primary, ro)
	}
	before := w.sim.Stats().Restarts[ro]
	if _, diags := invokeAction(t, w, "rds_apply_pending", map[string]any{"instance_id": primary}); diagsHaveError(diags) {
		t.Fatalf("invoke: %s", diagSummaries(diags))
	}
	if got := w.sim.Stats().Restarts[ro] - before; got != 1 {
		t.Errorf("the read-only instance restarted %d times during the invoke, want the 1 the plan named", got)
	}
}
