package rdsservice

import (
	"maps"
	"regexp"
	"sort"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_parameter_group's rules. A group is a template of parameter values kept in the cloud and
// applied to instances; its parameters are checked with the instance `parameters` rules (P1-P3 in
// parameters.go, the same rows and messages), against the default template of the group's
// engine version, and:
//
//   - G1 the name is 8-64 letters, digits, periods and underscores, starting with a letter
//     (CreateParameterGroup API reference);
//   - G2 the group holds at least one parameter (CreateParameterGroup and ModifyParameterGroup
//     require Parameters);
//   - G3 innodb_doublewrite is not in a group: the cloud sets it on each instance from its 16K
//     atomic write (P4), which a group shared by instances cannot follow;
//   - G4 the engine is MySQL (the provider's engine);
//   - G5 the group is exactly its configuration: ModifyParameterGroup is sent with
//     ModifyMode=Individual, so a parameter removed from the configuration is removed from the group;
//   - G6 `restarts` is true when a parameter of the group needs a restart (the template's
//     ForceRestart), so applying the group restarts an instance whose value it changes.

// EngineMySQL is the engine a parameter group is for (G4).
const EngineMySQL = "MySQL"

// ParameterGroupSpec is a group as configured, or as DescribeParameterGroup reads it.
type ParameterGroupSpec struct {
	Name, Description, Engine, EngineVersion, ResourceGroupID string
	Parameters                                                map[string]string
}

// ParameterGroupFromAPI reads DescribeParameterGroup's answer; the engine is spelt as the provider
// spells it.
func ParameterGroupFromAPI(g *rdsapi.ParameterGroup) ParameterGroupSpec {
	engine := g.Engine
	if strings.EqualFold(engine, EngineMySQL) {
		engine = EngineMySQL
	}
	return ParameterGroupSpec{Name: g.Name, Description: g.Description, Engine: engine, EngineVersion: g.EngineVersion,
		Parameters: maps.Clone(g.Parameters)}
}

var parameterGroupName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._]{7,63}$`)

// CheckParameterGroup applies G1-G4 and P1-P3 to a configured group; unknownNames are entries
// whose value is known only at apply. nameKnown is false while the name is not known yet.
func CheckParameterGroup(spec ParameterGroupSpec, unknownNames map[string]bool, nameKnown bool, t ParameterTemplate) []Problem {
	var problems []Problem
	if nameKnown && !parameterGroupName.MatchString(spec.Name) {
		problems = append(problems, Raise(RuleParamGroupName, spec.Name, spec.Name))
	}
	if spec.Engine != "" && spec.Engine != EngineMySQL {
		problems = append(problems, Raise(RuleParamGroupEngine, spec.Engine, spec.Engine))
	}
	if len(spec.Parameters)+len(unknownNames) == 0 {
		problems = append(problems, Raise(RuleParamGroupEmpty, ""))
	}
	checked := maps.Clone(spec.Parameters)
	if v, ok := checked[DoublewriteParameter]; ok {
		problems = append(problems, Raise(RuleParamGroupDoublewrite, v, v).At(parameterAttribute(DoublewriteParameter)))
		delete(checked, DoublewriteParameter)
	}
	if len(t.Parameters) == 0 {
		return problems // the template is not known: the names and values are checked when it is
	}
	return append(problems, CheckParameters(checked, unknownNames, t, Unknown[bool]())...)
}

// ParameterGroupRestarts is G6: the group's parameters whose change needs a restart, sorted.
func ParameterGroupRestarts(params map[string]string, t ParameterTemplate) []string {
	var names []string
	for name := range params {
		if t.Restarts(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// SameGroupParameters tells whether two parameter maps hold the same values, spelt either way
// (ON and on are one value of a set); a group read back in the cloud's spelling is no change.
func SameGroupParameters(a, b map[string]string, t ParameterTemplate) bool {
	if len(a) != len(b) {
		return false
	}
	for name, x := range a {
		y, ok := b[name]
		if !ok || !SameParameterValue(t.Parameters[name], x, y) {
			return false
		}
	}
	return true
}

// parameterGroupChanged tells whether ModifyParameterGroup must be sent to take current to desired.
func parameterGroupChanged(current, desired ParameterGroupSpec, t ParameterTemplate) bool {
	return current.Name != desired.Name || current.Description != desired.Description || !SameGroupParameters(current.Parameters, desired.Parameters, t)
}
