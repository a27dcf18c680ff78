package provider

import "slices"

// The oracle's minor version factor (issue 25 §2): an upgrade of target_minor_version (one
// operation with its switchover, read-only instances restarting with it), an older target than the
// running one (nothing is sent), and auto_upgrade_minor_version set to Manual (no restart). The
// instances are Manual wherever they run an older version than the latest, so that the cloud's own
// upgrade in a maintenance window the run reaches is never an unplanned restart.

// comboMinorVersion sets target_minor_version and auto_upgrade_minor_version of the primary.
func comboMinorVersion(level string, pb, pa map[string]any) {
	manual := func(m map[string]any, target string) {
		m["target_minor_version"], m["auto_upgrade_minor_version"] = target, "Manual"
	}
	switch level {
	case "upgrade":
		manual(pb, "rds_20201031")
		manual(pa, "rds_20230630")
	case "older target":
		manual(pb, "rds_20230630")
		manual(pa, "rds_20201031")
	case "set to Manual":
		pa["auto_upgrade_minor_version"] = "Manual"
	}
}

// comboNormalizeMinor: the upgrade goes alone with a major version upgrade and, deferred, with the
// other restart-needing changes for the window (minor_version_rules.go: minor-version-alone, the
// provider's own rule), so those levels are "not used" there; a scheduled task already waits for
// that window too.
func comboNormalizeMinor(c []int) {
	if comboLevel(c, "minor version") != "upgrade" {
		return
	}
	if comboLevel(c, "replace") == "engine_version upgrade" {
		c[comboFactorIndex("minor version")] = 0
		return
	}
	if comboLevel(c, "apply_restarts") != "in_maintenance_window" {
		return
	}
	for _, f := range []string{"16K", "class", "storage", "parameters"} {
		c[comboFactorIndex(f)] = 0
	}
	if slices.Contains([]string{"scheduled task", "imported with a scheduled task", "parameter pending a restart"}, comboLevel(c, "fact")) {
		c[comboFactorIndex("fact")] = 0
	}
}
