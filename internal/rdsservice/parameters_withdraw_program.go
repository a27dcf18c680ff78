package rdsservice

import "slices"

// withdrawFirst sends the instance's own withdrawals (a managed value set back to the one it runs, which withdraws
// the value waiting for a restart) now, ahead of every operation of an update in place: any restart before them (SSL
// turned off and on around an endpoint change, a spec order) would run the waiting value, and the value set back
// would then wait for a restart the plan does not name (sweep seed 33, issue 39). The rest of the parameters keep
// their place in update.
func (b *programBuilder) withdrawFirst(label string) {
	p := b.d.Parameters
	first := ParameterDecision{ParameterPlan: ParameterPlan{Send: map[string]string{}}} // what waits after the apply is the decision's, once
	rest := p
	rest.Send = map[string]string{}
	for name, v := range p.Send {
		if slices.Contains(p.Withdrawn, name) && !slices.Contains(p.GroupNames, name) {
			first.Send[name] = v
			continue
		}
		rest.Send[name] = v
	}
	if len(first.Send) == 0 {
		return
	}
	first.Online, first.Withdrawn = sortedKeys(first.Send), sortedKeys(first.Send)
	rest.Online = slices.DeleteFunc(slices.Clone(p.Online), func(name string) bool { _, ok := first.Send[name]; return ok })
	rest.Withdrawn = slices.DeleteFunc(slices.Clone(p.Withdrawn), func(name string) bool { _, ok := first.Send[name]; return ok })
	b.add(Operation{Instance: label, Action: OpModifyParameter, When: WhenNow, Parameters: &first})
	b.d.Parameters = rest
}
