package rdsservice

import (
	"maps"
	"slices"
)

// X10 (issue 44 §2): a read-only instance this run releases while the proxy still weights it is a
// plan error naming both. Terraform plans the two in either order (neither references the other
// when the weight is keyed by a literal id), so whichever plan comes second finds the first in the
// run's Ledger: the proxy's plan records its weights and looks for released instances, the
// read-only instance's destroy plan records the release and looks for the proxy's weight.

// RuleProxyWeightReleased is X10's row.
const RuleProxyWeightReleased RuleID = "proxy-weight-released"

// ProxyWeightsReleased records the read-only instances the proxy's plan weights, and refuses those
// this run releases.
func ProxyWeightsReleased(l *Ledger, primary string, weights map[string]int64) []Problem {
	var keys []string
	for _, key := range slices.Sorted(maps.Keys(weights)) {
		if key != ProxyPrimaryKey {
			keys = append(keys, key)
		}
	}
	l.RecordProxyWeights(primary, keys)
	var problems []Problem
	for _, key := range keys {
		if l.Released(key) {
			problems = append(problems, Raise(RuleProxyWeightReleased, key, key, primary))
		}
	}
	return problems
}

// ReleasedWhileWeighted is X10 at the destroy plan of read-only instance readOnly of primary
// (after RecordReleased): the proxy's plan of this run still weights it.
func ReleasedWhileWeighted(l *Ledger, primary, readOnly string) []Problem {
	if !l.ProxyWeights(primary, readOnly) {
		return nil
	}
	return []Problem{Raise(RuleProxyWeightReleased, readOnly, readOnly, primary)}
}
