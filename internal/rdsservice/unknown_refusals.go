package rdsservice

import "strings"

// Refusals that depend on a value known only at apply (issue 39 §3): the plan cannot refuse a
// value it does not know, so it names the refusal the apply would make as possible (a warning
// naming what the apply checks there), before any resource of the run changes.

// name16KRefusalPossible: with atomic_write_16k known only at apply, true would be refused on
// this instance (or with this change): the plan names that refusal.
func (u *updatePlan) name16KRefusalPossible() {
	if !u.c.AtomicWrite.IsUnknown() || !u.changeKnown || u.cur.Enabled && !u.classChanged && !u.typeChanged {
		return
	}
	var refusals []string
	for _, p := range CheckToggle(u.cur, true, u.change) {
		if p.Rule == Rule16KBasicEdition && u.upgradesEdition() {
			p = problem(RuleEditionUpgrade16K, "true", u.in.Label) // as planEditionUpgrade refuses a known true
		}
		if p.Severity == SeverityError {
			refusals = append(refusals, p.Summary)
		}
	}
	if len(refusals) > 0 {
		u.d.add(problem(Rule16KRefusalPossibleUnknown, "", u.in.Label, strings.Join(refusals, "; ")))
	}
}
