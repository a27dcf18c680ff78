package rdsservice

import (
	"slices"
	"strings"
)

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

// refuse16KWhateverTheChange: atomic_write_16k turned on while the class or storage type is known only at
// apply skips the toggle's checks, which need the change; rule 3's Basic-edition refusal needs none (an
// existing Basic-edition instance never turns it on, whatever its class), so the plan refuses it as the
// apply would (planEditionUpgrade then names the edition upgrade's order).
func (u *updatePlan) refuse16KWhateverTheChange() {
	if u.changeKnown || !u.flagChanged || !u.flag.Value() || u.d.FollowsPrimary || u.cur.Enabled || toggleEdition(u.cur) {
		return
	}
	u.d.add(problem(Rule16KBasicEdition, u.cur.Category, u.cur.Category))
}

// aloneMayBeRefused: a change that goes in an apply of its own (a zone move, a major version
// upgrade) planned beside spec attributes known only at apply, which the apply refuses (refusal)
// if they change there: the plan names that refusal.
func aloneMayBeRefused(in PlanInput, d *Decision, refusal Problem, attribute string) {
	c := in.Desired
	var unknown []string
	for _, a := range []struct {
		name    string
		unknown bool
	}{{AttrInstanceType, c.InstanceClass.IsUnknown()}, {AttrStorage, c.Storage.IsUnknown()}, {AttrStorageType, c.StorageType.IsUnknown()},
		{AttrAtomicWrite, c.AtomicWrite.IsUnknown()}, {AttrBufferPoolExtension, c.BufferPoolExtension.IsUnknown()}, {AttrParameters, len(c.Parameters.UnknownValues) > 0}} {
		if a.unknown {
			unknown = append(unknown, a.name)
		}
	}
	if len(unknown) > 0 && !slices.ContainsFunc(d.Problems, func(p Problem) bool { return p.Rule == RuleAloneRefusalPossibleUnknown }) {
		d.add(problem(RuleAloneRefusalPossibleUnknown, "", in.Label, strings.Join(unknown, ", "), refusal.Summary).At(attribute))
	}
}
