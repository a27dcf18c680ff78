package provider

// The oracle's edition levels (issue 25 §4): the "replace" factor (the day-2 change of the
// primary) gains "edition upgrade" (Basic -> HighAvailability in place, with a High-availability
// class) and "edition downgrade" (HighAvailability -> Basic, a replacement). A Basic-edition
// primary has no read-only instances, no storage autoscaling (High-availability only) and is not
// the instance a spec change scheduled behind Terraform's back upgrades, so those levels are "not
// used" with them; every other factor meets them. TDE, which needs the High-availability edition,
// is turned on before the apply's spec order, so with either level it is refused on the Basic
// instance (security_rules_test.go); the probe compares spec orders, so "tde on" is left out here.
// A minor version upgrade does not wait for the window beside a deferred spec change (the same
// policy as for a class change: oracle_minor_version_test.go).

import "slices"

// comboEditionLevels are the "replace" factor's edition levels.
var comboEditionLevels = []string{"edition upgrade", "edition downgrade"}

// comboNormalizeEdition maps an edition combination to the one it really is.
func comboNormalizeEdition(c []int) {
	if !slices.Contains(comboEditionLevels, comboLevel(c, "replace")) {
		return
	}
	c[comboFactorIndex("base")] = 0 // 8.0 cloud_essd x86: the Basic edition has x86 classes only
	c[comboFactorIndex("topology")] = 0
	c[comboFactorIndex("storage autoscaling")] = 0
	if slices.Contains([]string{"scheduled task", "imported with a scheduled task"}, comboLevel(c, "fact")) {
		c[comboFactorIndex("fact")] = 0
	}
	switch comboLevel(c, "data protection") {
	case "tde on":
		c[comboFactorIndex("data protection")] = 0
	case "ssl and tde on":
		c[comboFactorIndex("data protection")] = slices.Index(comboFactors[comboFactorIndex("data protection")].levels, "ssl on")
	}
	if comboLevel(c, "minor version") == "upgrade" && comboLevel(c, "apply_restarts") == "in_maintenance_window" {
		c[comboFactorIndex("minor version")] = 0
	}
}

// comboEdition sets the primary's edition before and after: Basic with its Basic class before an
// upgrade (the class after is the base's High-availability one, or the class factor's), Basic
// after a downgrade.
func comboEdition(level string, pb, pa map[string]any) {
	basic := oracleClasses["Basic/x86"]
	switch level {
	case "edition upgrade":
		pb["category"], pb["instance_type"] = "Basic", basic[0]
	case "edition downgrade":
		pa["category"], pa["instance_type"] = "Basic", basic[0]
	}
}
