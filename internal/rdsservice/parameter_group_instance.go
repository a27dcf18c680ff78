package rdsservice

import (
	"maps"
	"slices"
	"strings"
)

// P8, an instance's parameter_group_id. The group's parameters are the instance's desired values
// under its own `parameters`: a name in both takes the instance's own value (the instance's map
// wins, and the plan says so, RuleParamGroupOverridden). The group goes out at creation as
// CreateDBInstance's DBParamGroupId (its values run from the start, nothing restarts), and in
// place as ModifyParameter's ParameterGroupId, before the instance's own values so that they
// override it, whenever the group is new to the instance or one of its values is not what the
// instance runs. CreateReadOnlyDBInstance has no DBParamGroupId: a new read-only instance gets
// its group by ModifyParameter right after creation, as its own parameters. Its restart-needing values restart the instance like the instance's own (P5):
// at once or in the maintenance window per apply_restarts, shared with a spec change's restart,
// named in the plan.

// GroupParameters is the parameter group an instance uses, as the plan read it.
type GroupParameters struct {
	ID string
	// PriorID is the group the state holds ("" for none, or a new instance).
	PriorID string
	// Values are the group's parameters; nil when not known yet (a group created by the same run).
	Values map[string]string
}

// withGroup is the instance's desired values with its group's under its own (P8); overridden
// lists the names in both whose values differ.
func withGroup(own map[string]string, g *GroupParameters) (all map[string]string, overridden []string) {
	if g == nil {
		return own, nil
	}
	all = maps.Clone(g.Values)
	if all == nil {
		all = map[string]string{}
	}
	delete(all, DoublewriteParameter) // P4: never in a group (G3), never sent
	for name, v := range own {
		if gv, ok := all[name]; ok && gv != v {
			overridden = append(overridden, name)
		}
		all[name] = v
	}
	slices.Sort(overridden)
	return all, overridden
}

// planGroup marks the parameter plan for sending the group in place (P8) and warns of the values
// the instance's own parameters override.
func planGroup(in PlanInput, d *Decision, plan *ParameterPlan) {
	g := in.Desired.Parameters.Group
	if g == nil {
		return
	}
	_, overridden := withGroup(in.Desired.Parameters.Values, g)
	if in.Prior != nil || in.Role == RoleReadOnly {
		for name := range plan.Send {
			if _, own := in.Desired.Parameters.Values[name]; !own {
				plan.GroupNames = append(plan.GroupNames, name)
			}
		}
		slices.Sort(plan.GroupNames)
		if len(plan.GroupNames) > 0 || g.ID != g.PriorID {
			plan.GroupID = g.ID
		}
	}
	if plan.GroupID != "" {
		// The group call sets the values the instance overrides too: they are sent again after it.
		for _, name := range overridden {
			if _, sent := plan.Send[name]; !sent {
				plan.Send[name] = in.Desired.Parameters.Values[name]
				plan.Online = append(plan.Online, name)
			}
		}
	}
	if len(plan.Send) == 0 && plan.GroupID == "" {
		return
	}
	for _, name := range overridden {
		d.add(problem(RuleParamGroupOverridden, in.Desired.Parameters.Values[name], name, in.Desired.Parameters.Values[name], g.Values[name], g.ID).
			At(parameterAttribute(name)))
	}
}

// groupGoesAtCreate tells whether the instance's group goes out with its creation (CreateDBInstance's
// DBParamGroupId, P8): its values run from the start, so none of them, known or not, restarts it.
func groupGoesAtCreate(in PlanInput) bool {
	return in.Prior == nil && in.Role == RolePrimary && in.Desired.Parameters.Group != nil
}

// groupRunningAtCreate is what a new primary runs: its group's values from the start (P8).
func groupRunningAtCreate(in PlanInput, running map[string]string) map[string]string {
	g := in.Desired.Parameters.Group
	if !groupGoesAtCreate(in) {
		return running
	}
	out := maps.Clone(running)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, g.Values)
	return out
}

// GroupApplied tells whether an instance is configured with its group (P8): every value of the
// group that the instance's own parameters leave to it runs, or waits for a restart (the group
// applied in the maintenance window).
func GroupApplied(group, running, pending, own map[string]string) bool {
	for name, want := range group {
		if _, overridden := own[name]; overridden || name == DoublewriteParameter {
			continue
		}
		got, waits := pending[name]
		if !waits {
			got = running[name]
		}
		if !strings.EqualFold(strings.TrimSpace(got), strings.TrimSpace(want)) {
			return false
		}
	}
	return true
}

// GroupValuesApplied are the values of a group an instance runs (P8): the group's parameters its
// own do not override, innodb_doublewrite left out (G3); nil while the group is not known.
func GroupValuesApplied(group, own map[string]string) map[string]string {
	if group == nil {
		return nil
	}
	out := make(map[string]string, len(group))
	for name, v := range group {
		if _, overridden := own[name]; !overridden && name != DoublewriteParameter {
			out[name] = v
		}
	}
	return out
}

// groupValuesAfter is parameter_group_values after the apply: the values of the group (as this
// run's plan of the group leaves it, or as the cloud has it) that the instance runs; unknown while
// the group's parameters are, nil without a group.
func groupValuesAfter(dp DesiredParameters) (map[string]string, bool) {
	if dp.Group == nil {
		return nil, true
	}
	if dp.Group.Values == nil || len(dp.UnknownValues) > 0 || dp.Unknown {
		return nil, false
	}
	return GroupValuesApplied(dp.Group.Values, dp.Values), true
}
