package rdsservice

import (
	"slices"
	"testing"
)

// A prefix of the read/write-splitting endpoint is refused at plan on either attribute, with every refusal at
// once; another prefix, and an instance without such an endpoint, plan as before.
func TestEndpointReadWriteSplittingRefused(t *testing.T) {
	withRW := func() *EndpointFacts {
		f := endpointsNow(false)
		f.ReadWriteSplitting = []NetEndpoint{{ConnectionString: "orders-rw.mysql.rds.aliyuncs.com", Port: 3306}}
		return f
	}
	both := EndpointPlan{Internal: Endpoint{Prefix: "orders-rw"}, Public: &Endpoint{"ORDERS-RW", 3306}, Current: withRW()}
	d := planEndpoints(both)
	var attrs []string
	for _, p := range d.Errors() {
		if p.Rule == RuleEndpointReadWriteSplitting {
			attrs = append(attrs, p.Attribute)
		}
	}
	slices.Sort(attrs)
	if !slices.Equal(attrs, []string{AttrConnectionPrefix, AttrPublicEndpoint}) {
		t.Fatalf("refused on %v, want both attributes; problems %v", attrs, ruleIDs(d.Problems))
	}
	for name, e := range map[string]EndpointPlan{
		"another prefix":            {Internal: Endpoint{Prefix: "orders-db-01"}, Public: &Endpoint{"orders-pub", 3306}, Current: withRW()},
		"no such endpoint":          {Internal: Endpoint{Prefix: "orders-rw"}, Current: endpointsNow(false)},
		"the prefix known at apply": {InternalUnknown: true, Current: withRW()},
	} {
		if got := planEndpoints(e); hasRule(got.Problems, RuleEndpointReadWriteSplitting) {
			t.Errorf("%s: refused %v", name, ruleIDs(got.Problems))
		}
	}
}
