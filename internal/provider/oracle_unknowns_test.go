package provider

// Possible restarts at the maintenance window (issue 39 §3): a restart that depends on a value known only at apply
// comes when the final plan places it, in the window with apply_restarts = in_maintenance_window, or in the primary's
// window for a read-only instance that may follow its primary's deferred toggle. The plan names it with that time
// (Decision.MayRestartWhen), and the window may make it: at the window the cloud makes between the restarts deferred
// and those plus the possible ones, and an instance restarted there only as possible is named. A task waiting for the
// window that a spec order known only at apply may replace restarts there possibly (Restart.Possible).

// notePossibleAtWindow adds the possible restarts the plan placed in the window to the world's, by id: a possibility
// named by an earlier run of the world may still come at the window.
func (w *oracleWorld) notePossibleAtWindow(plan *oraclePlan, order []oracleResource) {
	later := map[string]int{}
	for _, r := range order {
		p, ok := plan.res[r.addr]
		if !ok {
			continue
		}
		for _, d := range p.decisions {
			if len(d.MayRestart) > 0 && d.MayRestartWhen != "" {
				later[plannedKey(p, r.addr)] = 1
			}
			for _, rs := range d.Program.Restarts() {
				if rs.Possible && rs.When != "" {
					later[restartKey(rs, plannedKey(p, r.addr))] = 1
				}
			}
		}
	}
	if len(later) == 0 {
		return
	}
	if w.mayAtWindow == nil {
		w.mayAtWindow = map[string]int{}
	}
	for id, n := range w.byID(later) {
		w.mayAtWindow[id] = max(w.mayAtWindow[id], n)
	}
}
