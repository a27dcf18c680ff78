package rdsservice

import "fmt"

// ReplaceInputOf is what decides a replacement of an existing object of resource, read from the
// plan, the prior state and the configuration as Terraform sends them; running is the spec the
// instance runs while a change waits for the maintenance window (nil when none waits).
func ReplaceInputOf(resource string, plan, state, config AttrValue, running *SpecValues) ReplaceInput {
	in := ReplaceInput{Resource: resource, ID: state.Get("id").String(), Engine: state.Get(AttrEngine).String(),
		Values: map[string]ReplaceValue{}}
	for name := range replacementTable[resource] {
		in.Values[name] = ReplaceValue{Prior: replaceValueOf(state.Get(name)), Planned: replaceValueOf(plan.Get(name)),
			Configured: !config.Get(name).IsNull()}
	}
	if running != nil {
		in.RunningVersion, in.RunningCategory = running.EngineVersion, running.Category
	}
	return in
}

// replaceValueOf is v as [ReplaceValue] compares it: a string as it is, an object or a list known
// as its rendering (equal values render equally, unknown parts included).
func replaceValueOf(v AttrValue) Val[string] {
	switch {
	case v.IsUnknown():
		return Unknown[string]()
	case v.IsNull():
		return Null[string]()
	case v.attrs != nil || v.elems != nil:
		return Known(fmt.Sprintf("%#v", v))
	}
	return Known(v.str)
}
