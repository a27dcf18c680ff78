package rdsservice

import "slices"

// Which attribute changes replace a resource, decided once (issue 40 item 2). The table names, per
// resource type, every attribute whose change can force a new object and when it does; the
// provider builds its schema's unconditional RequiresReplace modifiers from it (a test checks the
// schema and the table agree) and sets the conditional ones on the plan from [Replaced].

// ReplaceWhen says when a change of an attribute replaces the resource.
type ReplaceWhen int

const (
	// ReplaceAlways: every change (an unknown planned value counts).
	ReplaceAlways ReplaceWhen = iota + 1
	// ReplaceIfConfigured: a change while the attribute is set in the configuration.
	ReplaceIfConfigured
	// ReplaceUnlessInPlace: a change the cloud cannot make in place (inPlacePaths).
	ReplaceUnlessInPlace
)

// Resource types of the table.
const (
	ResourceInstance         = "rds_instance"
	ResourceReadOnlyInstance = "rds_readonly_instance"
)

// replacementTable: resource type -> attribute -> when its change replaces the resource.
var replacementTable = map[string]map[string]ReplaceWhen{
	ResourceInstance: {
		AttrEngine: ReplaceAlways, AttrRestoreFrom: ReplaceAlways, "vpc_id": ReplaceIfConfigured,
		AttrEngineVersion: ReplaceUnlessInPlace, AttrCategory: ReplaceUnlessInPlace,
		AttrZoneID: ReplaceUnlessInPlace, AttrZoneIDSlaveA: ReplaceUnlessInPlace, AttrZoneIDSlaveB: ReplaceUnlessInPlace,
		AttrVSwitchID: ReplaceUnlessInPlace,
	},
	ResourceReadOnlyInstance: {
		AttrMasterInstanceID: ReplaceAlways, AttrZoneID: ReplaceAlways, AttrVSwitchID: ReplaceAlways,
		AttrEngineVersion: ReplaceUnlessInPlace,
	},
	"rds_account":           {AttrInstanceID: ReplaceAlways, AttrName: ReplaceAlways, AttrType: ReplaceAlways},
	"rds_database":          {AttrInstanceID: ReplaceAlways, AttrName: ReplaceAlways, AttrCharacterSet: ReplaceAlways},
	"rds_account_privilege": {AttrInstanceID: ReplaceAlways, AttrAccountName: ReplaceAlways, AttrPrivilege: ReplaceAlways},
	"rds_backup": {AttrInstanceID: ReplaceAlways, AttrBackupMethod: ReplaceAlways, AttrBackupStrategy: ReplaceAlways,
		AttrBackupDBNames: ReplaceAlways},
	"rds_backup_policy":     {AttrInstanceID: ReplaceAlways},
	"rds_db_proxy":          {AttrInstanceID: ReplaceAlways, AttrVSwitchID: ReplaceAlways},
	"rds_db_proxy_endpoint": {AttrInstanceID: ReplaceAlways},
	"rds_parameter_group": {AttrEngine: ReplaceAlways, AttrEngineVersion: ReplaceAlways,
		"resource_group_id": ReplaceAlways},
}

// Replacement is when a change of resource's attribute replaces it; 0 when it never does.
func Replacement(resource, attribute string) ReplaceWhen {
	return replacementTable[resource][attribute]
}

// ReplacingAttributes lists resource's attributes of the table with when each replaces it.
func ReplacingAttributes(resource string) map[string]ReplaceWhen {
	out := map[string]ReplaceWhen{}
	for name, when := range replacementTable[resource] {
		out[name] = when
	}
	return out
}

// ReplaceValue is one attribute's values: prior state and plan (a value that is not a string is
// known as its rendering), and whether the configuration sets it.
type ReplaceValue struct {
	Prior, Planned Val[string]
	Configured     bool
}

// changed: the planned value is unknown or differs from the prior one.
func (v ReplaceValue) changed() bool {
	return v.Planned.IsUnknown() || v.Prior != v.Planned
}

// ReplaceInput is what decides a replacement of an existing object of Resource.
type ReplaceInput struct {
	Resource string
	ID       string
	// Values holds the table's attributes of Resource.
	Values map[string]ReplaceValue
	// Engine is the prior engine ("" for rds_readonly_instance: MySQL).
	Engine string
	// RunningVersion and RunningCategory are what the instance runs while a change to the prior
	// (requested) values waits for the maintenance window; "" when none waits.
	RunningVersion, RunningCategory string
}

// Replaced lists, sorted, the attributes forcing a replacement of in.Resource's object, and the
// refusals the decision raises (a version change while an upgrade waits for the window).
func Replaced(in ReplaceInput) ([]string, []Problem) {
	var out []string
	var problems []Problem
	for name, when := range replacementTable[in.Resource] {
		v := in.Values[name]
		if !v.changed() {
			continue
		}
		switch when {
		case ReplaceAlways:
			out = append(out, name)
		case ReplaceIfConfigured:
			if v.Configured {
				out = append(out, name)
			}
		case ReplaceUnlessInPlace:
			replace, p := inPlacePaths[name](in, v)
			if replace {
				out = append(out, name)
			}
			problems = append(problems, p...)
		}
	}
	slices.Sort(out)
	return out, problems
}

// inPlacePaths: per attribute the table marks ReplaceUnlessInPlace, whether a change of it (v
// changed) finds no path in place.
var inPlacePaths = map[string]func(ReplaceInput, ReplaceValue) (bool, []Problem){
	AttrEngineVersion: versionReplaces,
	AttrCategory:      editionReplaces,
	AttrZoneID:        zoneReplaces, AttrZoneIDSlaveA: zoneReplaces, AttrZoneIDSlaveB: zoneReplaces, AttrVSwitchID: zoneReplaces,
}

// versionReplaces: a MySQL major version upgrade is made in place (upgrade_rules.go); a lower
// version or another engine's change replaces. Another change while an upgrade waits for the
// window is refused: no API call withdraws the scheduled upgrade.
func versionReplaces(in ReplaceInput, v ReplaceValue) (bool, []Problem) {
	if v.Planned.IsUnknown() || !v.Prior.IsKnown() {
		return true, nil
	}
	prior, planned := v.Prior.Value(), v.Planned.Value()
	if in.RunningVersion != "" && in.RunningVersion != prior {
		return false, []Problem{Raise(RuleUpgradePending, planned, in.ID, in.RunningVersion, prior, planned)}
	}
	engine := in.Engine
	if engine == "" {
		engine = EngineMySQL
	}
	return !IsEngineUpgrade(engine, prior, planned), nil
}

// editionReplaces: Basic -> HighAvailability of MySQL is made in place (edition_rules.go), and so
// is setting category back to the edition the instance runs while its upgrade waits for the
// window (the spec order for the window then cancels it); every other change replaces.
func editionReplaces(in ReplaceInput, v ReplaceValue) (bool, []Problem) {
	if v.Planned.IsUnknown() || !v.Prior.IsKnown() {
		return true, nil
	}
	if in.RunningCategory != "" && v.Planned.Is(in.RunningCategory) {
		return false, nil
	}
	return !IsEditionUpgrade(in.Engine, v.Prior.Value(), v.Planned.Value()), nil
}

// zoneReplaces: a known placement moves in place (zone_rules.go); one known only at apply
// replaces, the plan being unable to check the move.
func zoneReplaces(_ ReplaceInput, v ReplaceValue) (bool, []Problem) {
	return v.Planned.IsUnknown() && !v.Prior.IsNull(), nil
}

// SetOnPlan lists the attributes of replace (Replaced) that the plan must name as forcing the
// replacement itself: those replacing unless the planner finds an in-place path (the schema's
// modifiers name the others).
func SetOnPlan(resource string, replace []string) []string {
	var out []string
	for _, name := range replace {
		if Replacement(resource, name) == ReplaceUnlessInPlace {
			out = append(out, name)
		}
	}
	return out
}
