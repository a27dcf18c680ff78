package rdsservice

import "strings"

// RuleEndpointReadWriteSplitting refuses a configured prefix that names the instance's read/write-splitting
// endpoint (issue 42 §1): connection_string_prefix and public_endpoint change the instance's own endpoints
// (ConnectionStringType Normal) with ModifyDBInstanceConnectionString; the read/write-splitting one only
// ModifyReadWriteSplittingConnection changes, and its prefix is taken for the others.
const RuleEndpointReadWriteSplitting RuleID = "endpoint-read-write-splitting"

// readWriteSplittingProblems are the configured prefixes that are the prefix of a read/write-splitting endpoint.
func readWriteSplittingProblems(label string, e EndpointPlan) []Problem {
	if e.Current == nil || len(e.Current.ReadWriteSplitting) == 0 {
		return nil
	}
	var out []Problem
	check := func(attribute string, current *NetEndpoint, want Endpoint) {
		if !changesPrefix(current, want) {
			return
		}
		for _, rw := range e.Current.ReadWriteSplitting {
			if strings.EqualFold(rw.Prefix(), want.Prefix) {
				p := problem(RuleEndpointReadWriteSplitting, want.Prefix, attribute, want.Prefix, rw.Address(), label)
				p.Attribute = attribute
				out = append(out, p)
			}
		}
	}
	if !e.InternalUnknown {
		check(AttrConnectionPrefix, e.Current.Internal, e.Internal)
	}
	if e.Public != nil && !e.PublicUnknown {
		check(AttrPublicEndpoint, e.Current.Public, *e.Public)
	}
	return out
}
