package provider

import (
	"slices"
	"testing"
)

// comboOf is the combination with the given factors' levels, every other factor at its first
// level ("not used").
func comboOf(t *testing.T, levels map[string]string) []int {
	t.Helper()
	c := make([]int, len(comboFactors))
	for factor, level := range levels {
		f := comboFactorIndex(factor)
		if f < 0 || !slices.Contains(comboFactors[f].levels, level) {
			t.Fatalf("no factor %q with level %q", factor, level)
		}
		c[f] = slices.Index(comboFactors[f].levels, level)
	}
	return c
}

// Combinations the oracle once found in disagreement (issue 23, where SSL meets deferred
// changes), pinned so that each runs in every `make test` whatever the seed samples. Each must
// agree with the cloud, and end as the fix decided: refused at plan with the cloud refusing too,
// or applied with the restarts the plan named.
func TestOraclePinnedCombinations(t *testing.T) {
	t.Parallel()
	roWindow := map[string]string{"topology": "primary + read-only", "apply_restarts": "in_maintenance_window"}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range []map[string]string{roWindow, extra} {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	h := newOracleHarness(t)
	for _, tc := range []struct {
		name   string
		levels map[string]string
		want   oracleOutcomeKind
		// nothingWaits: the later run leaves nothing for the window (it ran now, or was withdrawn).
		nothingWaits bool
	}{
		// The primary's storage growth goes now, online; the read-only instance's deferred class
		// change then carries less storage than its primary's, which the cloud refuses.
		{"read-only spec change below the primary's growth", with(map[string]string{"class": "read-only", "storage": "primary grows"}), outcomeRefusalProbed, false},
		{"the same with an SSL change", with(map[string]string{"class": "read-only", "storage": "primary grows", "data protection": "ssl on"}), outcomeRefusalProbed, false},
		// Seed 20261206 (issue 39 §3): the primary's storage known only at apply; the read-only
		// instance's plan names the refusal as possible, and the apply refuses it there.
		{"read-only spec change, the primary's storage known only at apply", with(map[string]string{"class": "read-only", "storage": "primary grows",
			"mechanism": "storage known at apply"}), outcomeWarnedFailure, false},
		// The read-only instance follows its primary's deferred toggle in the window; that restart
		// applies its own deferred parameter: one restart, not two.
		{"read-only parameter beside its primary's deferred toggle", with(map[string]string{"16K": "on", "parameters": "restart-needing on the read-only"}), outcomeApplied, false},
		{"the same after a task scheduled outside Terraform, with SSL", with(map[string]string{"16K": "on", "class": "primary", "storage": "read-only grows",
			"parameters": "restart-needing on both", "fact": "imported with a scheduled task", "data protection": "ssl on"}), outcomeApplied, false},
		// The primary's zone move waits for the window beside the read-only instance's deferred
		// class change: the window restarts the read-only instance and the move, which needs it
		// Running, fails there. Refused at plan (zone-move-read-only-window).
		{"read-only restart in its primary's zone-move window", with(map[string]string{"class": "read-only", "parameters": "restart-needing on the read-only",
			"replace": "zone move"}), outcomeGuard, false},
		// Seed 20261201 (issue 39 §4): the primary is locked (disk quota) and ends its subscription,
		// which the plan warns fails; the cloud takes its spec change (the read-only instance restarts
		// once, following its 16K toggle) and refuses the billing change, so Terraform never runs the
		// read-only instance's own restarting parameter change: one of its two named restarts happens.
		{"a locked primary's warned failure stops its read-only instance's own change", map[string]string{"base": "5.7 general_essd arm",
			"topology": "primary + read-only", "16K": "on", "class": "primary", "parameters": "restart-needing on both", "fact": "disk-quota lock",
			"storage autoscaling": "on, the cloud grew the disk", "billing": "ended in place"}, outcomeWarnedFailure, false},
		// Later runs (seed 20261206, issue 39 §4). maintenance_window moved to one open now: the cloud
		// runs what waits at once; the plan names those restarts during the apply, which waits for
		// them and reads parameters_pending (emptied) and the new minor version back.
		{"window opened now runs the waiting toggle during the apply", map[string]string{"apply_restarts": "in_maintenance_window", "16K": "on",
			"later run": "window opened now"}, outcomeApplied, true},
		{"window opened now applies the waiting parameters", with(map[string]string{"class": "primary", "parameters": "restart-needing on both",
			"later run": "window opened now"}), outcomeApplied, true},
		// Seed 20261202: the read-only instance follows its primary's toggle during the apply; at its final plan
		// the primary is on already, and it must still plan the flag on (it kept it off until a refresh).
		{"window opened now turns the read-only instance on with its primary", with(map[string]string{"16K": "on", "class": "primary",
			"later run": "window opened now"}), outcomeApplied, true},
		{"window opened now runs the waiting minor upgrade of both", with(map[string]string{"minor version": "upgrade", "later run": "window opened now"}), outcomeApplied, true},
		// A restart-needing parameter deferred beside a waiting minor upgrade takes effect with its
		// switchover: one restart, not two.
		{"more work for a window with a minor upgrade", with(map[string]string{"minor version": "upgrade", "later run": "more work for the window"}), outcomeApplied, false},
		// The read-only instances restart with their primary's waiting minor upgrade: one added
		// before the window, and one whose plan moved the window.
		{"a read-only instance added before its primary's minor upgrade", with(map[string]string{"minor version": "upgrade", "later run": "read-only added"}), outcomeApplied, false},
		{"a read-only instance behind a minor upgrade moved with the window", with(map[string]string{"minor version": "upgrade", "later run": "window moved"}), outcomeApplied, false},
		// Seeds 20261202 and 20261206: the read-only instance's own class change and its follow of the primary's
		// toggle wait for their windows; a later run that leaves both instances unchanged (here it adds another
		// read-only instance) named the read-only instance's own task only. Both restarts are named.
		{"an unchanged read-only instance follows its primary's waiting toggle beside its own task", with(map[string]string{"16K": "on",
			"class": "read-only", "later run": "read-only added"}), outcomeApplied, false},
		{"the same after a task scheduled outside Terraform", with(map[string]string{"16K": "on", "class": "read-only", "fact": "scheduled task",
			"later run": "read-only added"}), outcomeApplied, false},
		// The same with the read-only instance's own restart-needing parameters: the follow applies them, one restart.
		{"an unchanged read-only instance follows its primary's waiting toggle beside its waiting parameters", with(map[string]string{"16K": "on",
			"storage": "read-only grows", "parameters": "restart-needing on the read-only", "later run": "read-only added"}), outcomeApplied, false},
		// Seed 20261202: rds_apply_pending on the primary turns its read-only instance on now; the read-only
		// instance's own class change still waits for its window (the oracle counted both as done by the action).
		{"rds_apply_pending beside a read-only instance's own waiting change", with(map[string]string{"16K": "on", "class": "read-only",
			"later run": "rds_apply_pending"}), outcomeApplied, false},
		// Every waiting parameter value set back: the cloud cancels the task, nothing restarts.
		{"a waiting parameter set back", with(map[string]string{"parameters": "restart-needing on the read-only", "later run": "change reverted"}), outcomeApplied, true},
		// Proxy factor seed 3 (issue 39 §2): the disk grew at once beside a toggle deferred to the window and
		// autoscaling turned on; all set back before the window. Autoscaling off below the disk is refused (the
		// state would say 100 GB over a 150 GB disk); kept on, storage is a floor, the window's order leaves the
		// disk and cancels the toggle, and scheduled_change is planned null.
		{"a grown disk set back as autoscaling turns off", map[string]string{"apply_restarts": "in_maintenance_window", "16K": "on",
			"storage": "primary grows", "storage autoscaling": "turned on", "later run": "change reverted"}, outcomeGuard, false},
		{"a grown disk set back under autoscaling", map[string]string{"apply_restarts": "in_maintenance_window", "16K": "on",
			"storage": "primary grows", "storage autoscaling": "on", "later run": "change reverted"}, outcomeApplied, true},
		// Sweep seed 7 and the parameter group factor's seed 1 (issue 39 §2): a class change and the group's
		// restart-needing value wait for the window, then both are set back. The own-spec order cancels the class
		// change; the group's value the instance leaves keeps waiting, and the window's restart for it is named.
		{"a class change and a group's waiting value set back", map[string]string{"apply_restarts": "in_maintenance_window", "class": "primary",
			"parameter group": "changed in place", "later run": "change reverted"}, outcomeApplied, false},
		{"the same after a task scheduled outside Terraform (sweep seed 7)", map[string]string{"base": "8.0 cloud_ssd x86", "apply_restarts": "in_maintenance_window",
			"class": "primary", "fact": "scheduled task", "data protection": "ssl on", "storage autoscaling": "turned on", "parameter group": "changed in place",
			"later run": "change reverted"}, outcomeApplied, false},
		// Found for the mechanism level's later-run entry (issue 39 §4): the class is the one a task scheduled outside
		// Terraform makes, left to it, beside a restart-needing parameter deferred to its window; the change set back
		// cancelled nothing, as scheduled_change listed the parameter alone under the task's id. The window's restart
		// now names the class change too, so the revert cancels both, as with autoscaling turned on (sweep seed 7, above).
		{"a scheduled task's class kept beside a deferred parameter, then set back", map[string]string{"base": "8.0 cloud_ssd x86",
			"apply_restarts": "in_maintenance_window", "class": "primary", "parameters": "restart-needing", "fact": "scheduled task",
			"later run": "change reverted"}, outcomeApplied, true},
		// A waiting minor upgrade set back: refused at plan, no API call withdraws it (excused by rule id).
		{"a waiting minor upgrade set back", with(map[string]string{"minor version": "upgrade", "later run": "change reverted"}), outcomeGuard, false},
		// Connectivity seeds 1 and 7 (issue 42): an import leaves the public endpoint unmanaged, so leaving
		// public_endpoint out keeps it; the plan promises its public_connection_string, as the refresh reads it.
		{"a public endpoint the import left unmanaged stays", map[string]string{"fact": "imported with a scheduled task", "connectivity": "public released"},
			outcomeApplied, true},
		// The parameter group factor (issue 45 §2, seed 1): a group applied in place in the window beside the
		// instance's own online value (the apply waited for the group's online value under its own name, never
		// sent, until its deadline), and a new primary with prevent_restart whose group is created in the same
		// run (refused as a possible restart, though DBParamGroupId restarts nothing).
		{"a group applied in place in the window beside an online value", with(map[string]string{"parameters": "online", "parameter group": "changed in place"}),
			outcomeApplied, false},
		{"prevent_restart on a new primary whose group is created with it", map[string]string{"guard": "prevent_restart on the primary",
			"parameter group": "applied at create"}, outcomeApplied, true},
		// The database proxy (issue 44 §4): its weights changed in the window beside the weighted read-only instance's
		// class change; a read-only instance added and weighted (its id known at apply), and one released with its
		// weight; prevent_restart refusing a read/write mode change; max_prepared_stmt_count changed on the read-only
		// instance while the primary's parameters are ignored, refused (X8, excused by rule id).
		{"proxy weights in the window beside a read-only class change", with(map[string]string{"class": "read-only", "proxy": "weights changed"}), outcomeApplied, false},
		{"a read-only instance added and weighted", map[string]string{"topology": "primary + read-only", "proxy": "read-only added and weighted"}, outcomeApplied, true},
		{"a weighted read-only instance released with its weight", map[string]string{"topology": "primary + read-only", "proxy": "read-only released, weight removed"}, outcomeApplied, true},
		// Sweep seed 24 (issue 44): the class changes wait for the window behind a proxy without persistent connections;
		// a later run moves the window to one open now and the cloud runs them at once, dropping the connections
		// through the proxy: the later plans name those drops during the apply (they said "in the maintenance window").
		{"window opened now runs class changes behind a new proxy", with(map[string]string{"class": "both", "proxy": "created",
			"later run": "window opened now"}), outcomeApplied, true},
		{"window opened now runs the read-only class change behind the proxy", with(map[string]string{"class": "read-only", "proxy": "weights changed",
			"later run": "window opened now"}), outcomeApplied, true},
		{"a proxy mode change under prevent_restart", map[string]string{"guard": "prevent_restart on the primary", "proxy": "read_write_mode changed"}, outcomeGuard, false},
		{"max_prepared_stmt_count beside the primary's ignored parameters", map[string]string{"topology": "primary + read-only",
			"mechanism": "ignore_changes on 16K and parameters, changed outside", "proxy": "max_prepared_stmt_count on every instance"}, outcomeGuard, false},
		// Sweep seed 4: an endpoint change with SSL on turns SSL off and on around it (two restarts now);
		// restart-needing parameters deferred to the window must be sent after that dance, or its
		// restarts apply them while the state still lists them in parameters_pending.
		{"parameters deferred beside an endpoint change with SSL on", map[string]string{"apply_restarts": "in_maintenance_window",
			"parameters": "restart-needing", "data protection": "ssl on", "connectivity": "prefix and port changed"}, outcomeApplied, false},
		// Seed 20261202 (its "later run=read-only added" sample): a value waiting for a restart, set outside
		// Terraform, is applied by that dance's restarts while a toggle waits for the window; the plan kept it in
		// parameters_pending.
		{"a value pending a restart beside an endpoint change with SSL on and a deferred toggle", map[string]string{"apply_restarts": "in_maintenance_window",
			"16K": "on", "parameters": "online", "fact": "parameter pending a restart", "data protection": "ssl on", "connectivity": "prefix and port changed"}, outcomeApplied, false},
		// Proxy factor seed 5 (issue 39): a primary locked by disk quota grows its storage and is bought in place;
		// the growth lifts the lock minutes later, and the purchase waits for that (it was refused under the lock).
		{"a purchase beside the growth that lifts a disk-quota lock", map[string]string{"fact": "disk-quota lock", "storage": "primary grows",
			"billing": "bought in place"}, outcomeApplied, true},
		// Proxy factor seed 1 (issue 39): a later run's wait was answered InvalidTimeStamp.Expired once the scenario's
		// waits passed 15 minutes while the client signed with the wall clock; it signs with the scenario's clock.
		{"a later run after long waits, the change set back", map[string]string{"base": "8.0 cloud_ssd x86", "apply_restarts": "in_maintenance_window",
			"storage": "primary grows", "parameters": "restart-needing", "fact": "scheduled task", "data protection": "ssl and tde on",
			"storage autoscaling": "on, the cloud grew the disk", "billing": "prepaid", "later run": "change reverted"}, outcomeApplied, true},
		// Parameter group factor seed 1 (issue 39 §2, found before the SSL-dance fix): the primary's own restart-needing
		// value deferred, a value waiting for a restart set outside, SSL on beside an endpoint change (restarts now) and
		// the group removed: parameters_pending no longer keeps the value the dance's restart applied.
		{"a value pending a restart beside the SSL dance, the group removed", map[string]string{"apply_restarts": "in_maintenance_window",
			"parameters": "restart-needing", "fact": "parameter pending a restart", "data protection": "ssl on",
			"connectivity": "prefix and port changed", "parameter group": "removed"}, outcomeApplied, false},
		// Sweep seed 33 (issue 39): the deferred value set back in a later run that also sets the endpoint back with SSL
		// on: the dance's restarts ran the waiting value before the withdrawal was sent, which then waited for a
		// restart until the apply's 30-minute deadline. The withdrawal goes before any restart.
		{"a waiting parameter set back beside an endpoint change with SSL on", map[string]string{"apply_restarts": "in_maintenance_window",
			"parameters": "restart-needing", "data protection": "ssl on", "connectivity": "prefix and port changed",
			"later run": "change reverted"}, outcomeApplied, true},
		// Sweep seed 63 (issue 39 §4): the group's restart-needing value waits for the window, and the later run sets the
		// endpoint back with SSL on: the dance's first restart runs the value. The plan sent it again after the dance and
		// named its restart in the window, which made none; it is no longer sent, nor its restart named.
		{"a group value waiting for the window, then the endpoint set back with SSL on", map[string]string{"apply_restarts": "in_maintenance_window",
			"data protection": "ssl on", "connectivity": "prefix and port changed", "parameter group": "changed together with its instances",
			"later run": "change reverted"}, outcomeApplied, true},
		// Seed 20261206 (the "ignore_changes on the class" entry, issue 39, reduced): the data aged eight days runs the
		// cloud's clock ahead; the apply's final plan of the primary, its provider's first call, took the local clock and
		// deferred the toggle to a window the cloud had passed, so the read-only instance followed it now, unnamed, and
		// the state kept a stale scheduled_change. The plan's clock is taken after its reads (rdsservice).
		{"a toggle deferred while the cloud's clock runs days ahead", with(map[string]string{"16K": "on", "tags": "added",
			"cross-region backup": "on"}), outcomeApplied, false},
	} {
		sc := comboScenario(comboOf(t, tc.levels))
		outcomes := h.runScenario(sc)
		last := outcomes[len(outcomes)-1]
		for _, o := range outcomes {
			for _, d := range o.disagreements {
				t.Errorf("%s: DISAGREEMENT [%s]\n    repro: %s", tc.name, d.class, d.repro)
			}
		}
		if last.kind != tc.want || !last.compared {
			t.Errorf("%s: ended %q (kind %d, compared %t), want kind %d", tc.name, last.category, last.kind, last.compared, tc.want)
		}
		if tc.want == outcomeApplied && sc.proxy != "" && !last.proxy {
			t.Errorf("%s: the proxy was not compared with the cloud", tc.name)
		}
		if tc.want == outcomeApplied && !tc.nothingWaits && (last.restartChecks == 0 || !last.atWindow) {
			t.Errorf("%s: restarts compared %d, at the window %t: want both", tc.name, last.restartChecks, last.atWindow)
		}
	}
}

// Terraform's mechanisms (issue 39 §4, seed 20261206, RDS_ORACLE_ONLY="mechanism="), pinned: each ends as
// its fix decided, with no disagreement.
func TestOraclePinnedMechanisms(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	for _, tc := range []struct {
		name   string
		levels map[string]string
		want   oracleOutcomeKind
	}{
		// A replacement under ignore_changes: core plans the new instance from the configuration as
		// written, and so does the final plan; the restart of the 16K toggle after creation is named.
		// Sweep seed 52 (also with no mechanism): a 16K toggle deferred to the window with the read-only instance
		// following it, then set back in a later run. The order that sets it back replaces the task, and the
		// unchanged read-only instance's follow was still promised; the primary's plan now names it withdrawn.
		{"a waiting 16K toggle set back while its read-only instance follows", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "16K": "on", "class": "primary", "later run": "change reverted"}, outcomeApplied},
		{"the same beside a class known only at apply and a task scheduled outside", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "16K": "on", "class": "primary", "storage": "read-only grows", "parameters": "online",
			"fact": "scheduled task", "data protection": "ssl on", "later run": "change reverted", "mechanism": "instance_type known at apply"}, outcomeApplied},
		// Sweep seed 63: a read-only instance created (for the proxy to weight) beside its primary's atomic_write_16k known
		// only at apply, turned on there. The plan promised the primary's current false for the new instance, and the
		// final plan changed it to true (Terraform refuses such a final plan); it is now known only at apply.
		{"a read-only instance created beside a primary's 16K known only at apply", map[string]string{"topology": "primary + read-only",
			"16K": "on", "storage": "read-only grows", "proxy": "read-only added and weighted", "mechanism": "16K known at apply"}, outcomeApplied},
		// Sweep seed 63 (found with a saved plan; no mechanism needed): the primary's toggle and restart-needing parameters
		// on both deferred, then all set back. The read-only instance's task lists its follow of the toggle beside its
		// values, which kept the task from counting as withdrawn: its plan named a restart the window did not make.
		{"a toggle and parameters on both set back before the window", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "16K": "on", "parameters": "restart-needing on both", "later run": "change reverted"}, outcomeApplied},
		// Sweep seed 68: the cross-region backup policy changed on an instance locked because its disk is full. The
		// cloud refuses it, and the plan passed unwarned (its lock warning counted only the other policy calls).
		{"a cross-region retention shortened on a locked instance", map[string]string{"fact": "disk-quota lock",
			"cross-region backup": "retention shortened"}, outcomeWarnedFailure},
		{"a replacement under ignore_changes on 16K and parameters", map[string]string{"16K": "on", "parameters": "restart-needing",
			"replace": "edition downgrade", "mechanism": "ignore_changes on 16K and parameters, changed outside"}, outcomeApplied},
		// atomic_write_16k known only at apply beside an edition upgrade: the possible refusal the plan
		// names is the one the apply makes (edition-upgrade-16k).
		{"16K known only at apply beside an edition upgrade", map[string]string{"16K": "on", "replace": "edition upgrade",
			"mechanism": "16K known at apply"}, outcomeWarnedFailure},
		// 16K turned on beside an edition upgrade while the class is known only at apply: refused at
		// plan, whatever the class.
		{"16K on beside an edition upgrade, the class known only at apply", map[string]string{"16K": "on", "replace": "edition upgrade",
			"mechanism": "instance_type known at apply"}, outcomeRefusalProbed},
		// The read-only instance replaced with its primary, whose storage is known only at apply: the
		// plan names the refusal as possible, and the apply's final check makes it.
		{"read-only replaced with a primary whose storage is known only at apply", map[string]string{"topology": "primary + read-only",
			"storage": "primary grows", "replace": "engine_version", "mechanism": "storage known at apply"}, outcomeWarnedFailure},
		// The primary's atomic_write_16k known only at apply, its change deferred to the window: the
		// read-only instance follows it there. Its plan names that restart as possible, and its
		// prevent_restart refuses it.
		{"prevent_restart on a read-only instance behind a deferred 16K known only at apply", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "16K": "on", "class": "primary", "guard": "prevent_restart on the read-only",
			"mechanism": "16K known at apply"}, outcomeGuard},
		// Seed 20261206: the class changed outside to another architecture under ignore_changes, parameters
		// deferred, then the configuration set back without the lifecycle block: the class change back waits for
		// the window, and the state kept the requested class beside the running architecture the refresh read.
		// The short oracle's seed 20261206: a saved plan applied after a task scheduled outside Terraform makes the
		// configured class, beside a zone move. The task was kept and the move sent, two switchovers in the window the
		// plan named as one; the class now counts as a change beside the move, refused as before (zone-move-alone).
		// Found by reading the code (issue 39 §4), on no seed yet: the class known only at apply (or the storage, beside
		// the class) resolves to the one a task scheduled outside Terraform makes, with apply_restarts = immediately.
		// The final plan equals the state and plans nothing, but the apply still ordered the class now, so the task
		// was gone and the state kept scheduled_change. The apply now sends nothing when the final plan changes
		// nothing, and the plan names the order's restart, and the task's in its window, as possible.
		{"a class known only at apply that a scheduled task makes", map[string]string{"class": "primary", "fact": "scheduled task",
			"mechanism": "instance_type known at apply"}, outcomeApplied},
		// The same task kept across a later run: the window moved, the change set back, or rds_apply_pending.
		{"a class known only at apply that a scheduled task makes, then the window moved", map[string]string{"class": "primary",
			"fact": "scheduled task", "later run": "window moved", "mechanism": "instance_type known at apply"}, outcomeApplied},
		{"a class known only at apply that a scheduled task makes, then set back", map[string]string{"class": "primary",
			"fact": "scheduled task", "later run": "change reverted", "mechanism": "instance_type known at apply"}, outcomeApplied},
		{"a class known only at apply that a scheduled task makes, then rds_apply_pending", map[string]string{"class": "primary",
			"fact": "scheduled task", "later run": "rds_apply_pending", "mechanism": "instance_type known at apply"}, outcomeApplied},
		{"the class a scheduled task makes beside a storage known only at apply", map[string]string{"class": "primary",
			"fact": "scheduled task", "mechanism": "storage known at apply"}, outcomeApplied},
		// Sweep seed 52: a parameter task set back in a later run, beside a value set outside Terraform that waited for a
		// restart before it: the cloud cancels the task, and the value waits on without it; the plan named the task's
		// restart in the window (the value waiting from before counted as the task's).
		{"a parameter task set back beside a value waiting from before", map[string]string{"topology": "primary + read-only", "apply_restarts": "in_maintenance_window", "class": "read-only",
			"parameters": "restart-needing on both", "fact": "parameter pending a restart", "later run": "change reverted", "mechanism": "instance_type known at apply"}, outcomeApplied},
		// Sweep seed 53: an instance imported with a class change waiting, storage autoscaling on and the disk grown by the
		// cloud, the window moved in a later run. The task was kept for the class it makes, and the state went on naming
		// the floor and a task the refresh no longer found; the order now carries the class, as before.
		{"a task imported beside a grown disk, then its window moved", map[string]string{"base": "8.0 cloud_ssd x86", "topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "class": "both", "storage": "read-only grows", "guard": "rename",
			"fact": "imported with a scheduled task", "data protection": "ssl on", "tags": "changed and removed", "minor version": "older target",
			"storage autoscaling": "on, the cloud grew the disk", "billing": "renewal changed", "access": "changed", "later run": "window moved",
			"mechanism": "ignore_changes on 16K and parameters, changed outside", "connectivity": "access lists changed",
			"proxy": "read-only added and weighted", "cross-region backup": "retention shortened"}, outcomeApplied},
		{"a zone move beside a task that makes the configured class", map[string]string{"apply_restarts": "in_maintenance_window",
			"class": "primary", "fact": "scheduled task", "replace": "zone move", "storage autoscaling": "turned on",
			"mechanism": "saved plan, the cloud moved on"}, outcomeGuard},
		{"a class of another architecture set back before the window", map[string]string{"apply_restarts": "in_maintenance_window",
			"parameters": "restart-needing", "later run": "change reverted", "mechanism": "ignore_changes on the class, changed outside"}, outcomeApplied},
		// Seed 20261206 (also without a mechanism): the read-only instance's parameters (here its group's, applied
		// in place) and its follow of the primary's toggle were deferred to one window, which restarts it once;
		// a later run that leaves it unchanged named two restarts, its task's and the follow.
		{"an unchanged read-only instance whose waiting parameters its follow applies", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "16K": "on", "storage": "read-only grows", "parameter group": "changed in place",
			"later run": "read-only added", "mechanism": "ignore_changes on the class, changed outside"}, outcomeApplied},
		// Seed 20261202: a class change deferred after a saved plan, the disk grown now and by autoscaling, then
		// the change set back: the order for the window keeps the disk and cancels the task, and the plan says
		// scheduled_change ends (it kept the task, comparing the configured storage with the disk before it).
		{"a change set back after a saved plan while autoscaling grew the disk", map[string]string{"apply_restarts": "in_maintenance_window",
			"class": "primary", "storage": "primary grows", "storage autoscaling": "on, the cloud grew the disk", "later run": "change reverted",
			"mechanism": "saved plan, the cloud moved on"}, outcomeApplied},
		// The same without the guard: the read-only instance's possible follow restart is named in the
		// primary's window, where the cloud makes it (it was named during the apply: unnamed at the window).
		{"a read-only instance behind a deferred 16K known only at apply", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "16K": "on", "class": "primary", "mechanism": "16K known at apply"}, outcomeApplied},
		// A parameter waiting for a restart beside a class known only at apply: a restart during the apply
		// applies it, so parameters_pending is planned unknown (it was planned as the waiting value).
		{"a parameter waiting for a restart beside a class known only at apply", map[string]string{"class": "primary", "parameters": "online",
			"fact": "parameter pending a restart", "mechanism": "instance_type known at apply"}, outcomeApplied},
		// A zone move beside a class known only at apply: the plan names the refusal the apply makes when
		// the class changes there (alone-refusal-possible-known-at-apply; the plan passed unwarned).
		{"a zone move beside a class known only at apply", map[string]string{"class": "primary", "replace": "zone move",
			"mechanism": "instance_type known at apply"}, outcomeWarnedFailure},
		// A class known only at apply, deferred to the window beside a task scheduled outside Terraform, then
		// rds_apply_pending: the class change's possible restart is named in the window (it was named during
		// the apply, and the window restarted the primary unnamed).
		{"a class known only at apply in the window beside a scheduled task", map[string]string{"base": "8.0 cloud_ssd x86", "apply_restarts": "in_maintenance_window",
			"class": "primary", "storage": "primary grows", "parameters": "online", "fact": "imported with a scheduled task", "data protection": "ssl on",
			"later run": "rds_apply_pending", "mechanism": "instance_type known at apply"}, outcomeApplied},
		// Storage known only at apply beside a task scheduled outside Terraform: a growth is a spec order now that
		// replaces the task, so the task's restart in the window is possible (the plan named it certain, and
		// after rds_apply_pending the window made none).
		{"storage known only at apply beside a scheduled task, then rds_apply_pending", map[string]string{"storage": "primary grows",
			"fact": "scheduled task", "later run": "rds_apply_pending", "mechanism": "storage known at apply"}, outcomeApplied},
		// The primary's atomic_write_16k known only at apply, changed during the apply: the read-only instance that
		// inherits it may be turned on with it, so its atomic_write_16k is planned unknown (it was planned false,
		// and the state after the apply said false while the cloud had turned it on).
		{"a read-only instance inheriting a 16K known only at apply", map[string]string{"topology": "primary + read-only", "16K": "on",
			"mechanism": "16K known at apply"}, outcomeApplied},
		// An instance on cloud_ssd replaced (engine_version) while its atomic_write_16k is known only at apply: true is
		// refused by the apply's final plan for the new instance's storage type, so the plan names that refusal as
		// possible (it passed unwarned; found trying seed 3's replacement beside a minor version upgrade).
		{"a replacement on cloud_ssd whose 16K is known only at apply", map[string]string{"base": "8.0 cloud_ssd x86", "16K": "on",
			"replace": "engine_version", "mechanism": "16K known at apply"}, outcomeWarnedFailure},
		// Seed 20261202: a read-only instance added (and weighted behind the proxy) in the run whose primary's storage,
		// known only at apply, grows above it: the apply's final plan refuses it, so the plan names that refusal as
		// possible (it passed unwarned).
		{"a read-only instance added beside its primary's storage known only at apply", map[string]string{"topology": "primary + read-only",
			"storage": "primary grows", "proxy": "read-only added and weighted", "mechanism": "storage known at apply"}, outcomeWarnedFailure},
		// Seed 20261206: a class known only at apply that is the class of a task scheduled outside Terraform, in its
		// window: Terraform's final plan keeps the task as the state records it, and the apply sends no order (it
		// replaced the task with a copy, so the state named a task the cloud no longer had).
		{"a class known only at apply that a scheduled task already makes", map[string]string{"apply_restarts": "in_maintenance_window",
			"class": "primary", "fact": "scheduled task", "mechanism": "instance_type known at apply"}, outcomeApplied},
		// Seeds 20261202 and 20261206 (the later-run entry of this level): a task scheduled outside Terraform waits for the
		// window while the class (or storage) is known only at apply and resolves to the instance's own: the final plan's
		// order for the window cancels the task, so its restart is possible (it was named certain, and the window made
		// none, also after rds_apply_pending).
		{"a class known only at apply that keeps the spec a scheduled task changes, then rds_apply_pending", map[string]string{"base": "8.0 cloud_ssd x86",
			"apply_restarts": "in_maintenance_window", "fact": "scheduled task", "later run": "rds_apply_pending", "mechanism": "instance_type known at apply"}, outcomeApplied},
		{"a storage known only at apply that keeps the spec a scheduled task changes", map[string]string{"base": "8.0 cloud_ssd x86",
			"apply_restarts": "in_maintenance_window", "fact": "scheduled task", "mechanism": "storage known at apply"}, outcomeApplied},
		// The same class with storage autoscaling on (the open part of this level's later-run entry): the apply ordered
		// a copy of the task for the window that the final plan (unchanged) did not name, so the state kept the old task
		// id and the refresh dropped it; then the change set back, also after the cloud grew the disk.
		{"a class known only at apply that a scheduled task already makes, autoscaling on, then set back", map[string]string{
			"apply_restarts": "in_maintenance_window", "class": "primary", "fact": "scheduled task", "storage autoscaling": "on",
			"later run": "change reverted", "mechanism": "instance_type known at apply"}, outcomeApplied},
		{"the same after the cloud grew the disk", map[string]string{"apply_restarts": "in_maintenance_window", "class": "primary",
			"fact": "scheduled task", "storage autoscaling": "on, the cloud grew the disk", "later run": "change reverted",
			"mechanism": "instance_type known at apply"}, outcomeApplied},
		// Seeds 20261202, 20261206 and 3: the class known only at apply is the one a task scheduled outside Terraform makes,
		// with apply_restarts = immediately, behind a proxy without persistent connections: the order sent now replaces the
		// task and switches the primary over during the apply; the plan names that possible drop now (it named the window).
		{"a class known only at apply beside a scheduled task behind the proxy", map[string]string{"class": "primary",
			"fact": "imported with a scheduled task", "proxy": "read_write_mode changed", "mechanism": "instance_type known at apply"}, outcomeApplied},
		// Sweep seed 40: the primary's class known only at apply, its order waiting for the window, behind a proxy
		// without persistent connections: the possible drop is named for the window (it was named during this apply,
		// and the window's switchover was counted unnamed).
		{"a class known only at apply waiting for the window behind the proxy", map[string]string{"topology": "primary + read-only",
			"apply_restarts": "in_maintenance_window", "class": "primary", "proxy": "read-only released, weight removed",
			"mechanism": "instance_type known at apply"}, outcomeApplied},
		// Parameter group factor, sweep seed 63 (also with 16K known at apply): the group's restart-needing value and the
		// instance's own wait for the window beside SSL and TDE turned on; a later run sets the instance back with SSL on
		// around an endpoint change. The group's value still waits with the value the apply sends again, and the SSL
		// restarts run it first: the plan kept it in parameters_pending and named the window's restart for it.
		{"a group's waiting value run by the SSL restarts of a later run that sets the rest back", map[string]string{"apply_restarts": "in_maintenance_window",
			"parameters": "restart-needing", "data protection": "ssl and tde on", "later run": "change reverted", "connectivity": "prefix and port changed",
			"parameter group": "changed together with its instances"}, outcomeApplied},
		// Sweep seed 154: a read-only instance added (behind the proxy) with prevent_restart beside a primary whose 16K,
		// known only at apply, turns on in its window: the new instance follows it there. The plan passed and the final
		// plan refused; the possible follow is now named for the primary's window, and the guard refuses it at plan.
		{"a new read-only instance guarded beside a primary whose 16K known at apply waits for the window", map[string]string{
			"topology": "primary + read-only", "apply_restarts": "in_maintenance_window", "16K": "on", "guard": "prevent_restart on the read-only",
			"mechanism": "16K known at apply", "proxy": "read-only added and weighted"}, outcomeGuard},
		// Sweep seed 157 (also with storage known at apply): a class change and restart-needing parameters deferred beside a
		// value set outside Terraform that waited for a restart before them, then all set back: the cloud cancels both tasks
		// and the value waits on for any restart; the plan named the window's restart for it.
		{"a class change and parameters set back beside a value waiting from before", map[string]string{"apply_restarts": "in_maintenance_window",
			"class": "primary", "parameters": "restart-needing", "fact": "parameter pending a restart", "later run": "change reverted"}, outcomeApplied},
	} {
		outcomes := h.runScenario(comboScenario(comboOf(t, tc.levels)))
		last := outcomes[len(outcomes)-1]
		for _, o := range outcomes {
			for _, d := range o.disagreements {
				t.Errorf("%s: DISAGREEMENT [%s]\n    repro: %s", tc.name, d.class, d.repro)
			}
		}
		if last.kind != tc.want || !last.compared {
			t.Errorf("%s: ended %q (kind %d, compared %t), want kind %d", tc.name, last.category, last.kind, last.compared, tc.want)
		}
		if level := tc.levels["later run"]; level != "" && tc.want == outcomeApplied && !last.later {
			t.Errorf("%s: the later run (%s) was not compared (%q)", tc.name, level, last.category)
		}
	}
}

// A short run whose sample falls below a floor tops it up from the reserve, running only what can add to
// the short floor: here an empty sample, with floors of three applied scenarios and one applied combination.
func TestOracleTopUpMeetsShortFloors(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	tally := &oracleTally{byCategory: map[string]int{}, classes: map[string][]string{}}
	floors := oracleFloors{applied: 3, combined: 1}
	tally.topUp(t, h, oracleReserve(20261206, nil), floors)
	if !floorsMet(tally.floorRows(floors)) || tally.run > 30 {
		t.Errorf("after the top-up: %d run, %d applied, %d combinations applied; want the floors met within 30", tally.run, tally.applied, tally.combined)
	}
	for c, repros := range tally.classes {
		t.Errorf("DISAGREEMENT [%s] %s", c, repros[0])
	}
}
