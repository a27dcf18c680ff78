package rdsservice

import "testing"

// public_connection_string after the apply (oracle, connectivity seeds 1 and 7): a public endpoint that
// public_endpoint never set (allocated before an import, or outside Terraform) stays, and the read-back reports it,
// so the plan promises it too; one Terraform set and the configuration leaves out is released.
func TestPlannedPublicString(t *testing.T) {
	const pub = "orders-pub.mysql.rds.aliyuncs.com"
	cases := []struct {
		name string
		plan EndpointPlan
		want Val[string]
	}{
		{"endpoints not managed", EndpointPlan{Current: endpointsNow(true)}, Null[string]()},
		{"not set by Terraform, left out: it stays", EndpointPlan{Internal: Endpoint{Port: 3307}, Current: endpointsNow(true)}, Known(pub)},
		{"the same with the internal prefix known at apply", EndpointPlan{InternalUnknown: true, Current: endpointsNow(true)}, Known(pub)},
		{"set by Terraform, left out: released", EndpointPlan{Internal: Endpoint{Port: 3307}, PublicManaged: true, Current: endpointsNow(true)}, Null[string]()},
		{"none in the cloud", EndpointPlan{Internal: Endpoint{Port: 3307}, Current: endpointsNow(false)}, Null[string]()},
		{"a create without one", EndpointPlan{Internal: Endpoint{Port: 3307}}, Null[string]()},
		{"changed", EndpointPlan{Public: &Endpoint{"orders-pub-02", 3306}, PublicManaged: true, Current: endpointsNow(true)},
			Known("orders-pub-02.mysql.rds.aliyuncs.com")},
		{"changed, the internal prefix known at apply", EndpointPlan{InternalUnknown: true, Public: &Endpoint{"orders-pub-02", 3306}, Current: endpointsNow(true)},
			Known("orders-pub-02.mysql.rds.aliyuncs.com")},
		{"allocated", EndpointPlan{Public: &Endpoint{"orders-pub", 3306}, Current: endpointsNow(false)}, Known(pub)},
		{"allocated by a create", EndpointPlan{Public: &Endpoint{"orders-pub", 3306}}, Unknown[string]()},
		{"public_endpoint known at apply", EndpointPlan{PublicUnknown: true, Current: endpointsNow(true)}, Unknown[string]()},
	}
	for _, tc := range cases {
		if got := PlannedPublicString(tc.plan); got != tc.want {
			t.Errorf("%s: planned %v, want %v", tc.name, got, tc.want)
		}
		if got := planEndpoints(tc.plan).Endpoints.PublicString; tc.plan.Current != nil && got != tc.want {
			t.Errorf("%s: the decision plans %v, want %v", tc.name, got, tc.want)
		}
	}
}
