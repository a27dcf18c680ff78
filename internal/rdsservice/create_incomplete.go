package rdsservice

import (
	"encoding/json"
	"slices"
	"strings"
)

// A creation that stops after the instance is usable ends successfully with a warning, and the
// resource's private state keeps a note of it (provider/partial_create.go records it). The plans
// that follow read the note here: while no refresh has read the instance the plan cannot show
// what remains; once one has, the plan names the changes that complete the creation.

// CreateIncomplete is the private-state note of a creation that stopped after the instance was
// Running.
type CreateIncomplete struct {
	Step  string `json:"step"`
	Error string `json:"error"`
	// Attributes are those whose planned value the instance did not have when the Create ended.
	Attributes []string `json:"attributes"`
	// Refreshed is set by the first refresh after the Create: until then the state holds the
	// planned values, so a plan cannot show what remains.
	Refreshed bool `json:"refreshed,omitempty"`
}

// CreateIncompleteOf is the note raw holds; nil when raw is empty or unreadable.
func CreateIncompleteOf(raw []byte) *CreateIncomplete {
	if len(raw) == 0 {
		return nil
	}
	var note CreateIncomplete
	if json.Unmarshal(raw, &note) != nil {
		return nil
	}
	return &note
}

// UnrefreshedCreate warns, at the start of instance id's plan, when the state still holds the
// planned values of a creation that stopped early (note raw) because no refresh has read the
// instance since (-refresh=false): such a plan cannot show the remaining change.
func UnrefreshedCreate(id string, raw []byte) []Problem {
	note := CreateIncompleteOf(raw)
	if note == nil || note.Refreshed {
		return nil
	}
	remaining := "unknown (they could not be read)"
	if len(note.Attributes) > 0 {
		remaining = strings.Join(note.Attributes, ", ")
	}
	return []Problem{Raise(RuleCreateUnrefreshed, id, id, note.Step, note.Error, remaining)}
}

// CompletingCreate names, in instance id's plan, the changes that complete a creation that
// stopped early (note raw, refreshed since): the note's attributes whose planned value differs
// from the state's.
func CompletingCreate(id string, raw []byte, plan, state AttrValue) []Problem {
	note := CreateIncompleteOf(raw)
	if note == nil || !note.Refreshed {
		return nil
	}
	remaining := DifferingAttributes(plan, state, note.Attributes)
	if len(remaining) == 0 {
		return nil
	}
	return []Problem{Raise(RuleCreateCompleting, id, id, note.Step, note.Error, strings.Join(remaining, ", "))}
}

// DifferingAttributes lists, in the order of names, the attributes of objects a and b whose
// values differ.
func DifferingAttributes(a, b AttrValue, names []string) []string {
	var out []string
	for _, name := range names {
		if !a.Get(name).Equal(b.Get(name)) {
			out = append(out, name)
		}
	}
	return out
}

// UnsetAttributes lists, sorted, the top-level attributes the configuration config leaves unset
// (null): the plan records them so that the apply rebuilds the configuration it was decided from.
func UnsetAttributes(config AttrValue) []string {
	unset := []string{}
	for name, v := range config.Attributes() {
		if v.IsNull() {
			unset = append(unset, name)
		}
	}
	slices.Sort(unset)
	return unset
}
