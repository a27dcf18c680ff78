package rdsservice

import (
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Names of parameter groups, and a killed create of one:
//
//   - G7 a group's name is unique in its region. The cloud accepts two groups of one name (no
//     refusal is documented), but CreateParameterGroup has no ClientToken, so the name is what
//     identifies the group an interrupted create made; and rds_parameter_groups' name filter then
//     finds one group. Checked at plan with DescribeParameterGroups, for a new group and a rename.
//   - G8 a create killed before Terraform recorded the group (an entry of the create journal for
//     this configuration, within AdoptWindow) is adopted when the region holds a group of its name
//     that the entry names (the id the cloud answered) or, when the answer was lost, one created
//     since the entry was written; the apply then makes it match the configuration (G5).

// GroupNamed is the group of the region named name other than self ("" for a new group); nil
// when there is none.
func GroupNamed(groups []rdsapi.ParameterGroup, name, self string) *rdsapi.ParameterGroup {
	for i := range groups {
		if groups[i].Name == name && groups[i].ID != self {
			return &groups[i]
		}
	}
	return nil
}

// AdoptableGroup is G8: the journal entry of an interrupted create of this configuration that
// made taken, if any (a group whose creation time is not answered is never taken for a lost answer's).
func AdoptableGroup(taken *rdsapi.ParameterGroup, entries []JournalEntry, now time.Time) *JournalEntry {
	if taken == nil {
		return nil
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if now.Sub(e.Started) > AdoptWindow {
			continue
		}
		if e.ID == taken.ID || (e.ID == "" && !taken.Created.Before(e.Started.Truncate(time.Second))) {
			return &entries[i]
		}
	}
	return nil
}

// CheckGroupName is G7 at plan: the refusal naming the group that holds the name, unless an
// interrupted create of this configuration made it (G8: the plan adopts it, and says so).
func CheckGroupName(name, region string, taken *rdsapi.ParameterGroup, adopt *JournalEntry, kind, journal string) []Problem {
	switch {
	case taken == nil:
		return nil
	case adopt != nil:
		return []Problem{Raise(RuleCreateAdopted, taken.ID, kind, taken.ID, journal, adopt.Started.Format(time.RFC3339))}
	}
	return []Problem{Raise(RuleParamGroupNameTaken, name, name, region, taken.ID)}
}
