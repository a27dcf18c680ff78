package rdsservice

import (
	"context"
	"net"
	"strconv"
	"strings"
	"unicode"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Endpoints (issue 42 §1): connection_string_prefix and port change the internal endpoint in place
// (ModifyDBInstanceConnectionString); public_endpoint allocates, changes and releases the public one. Every
// connection string that stops answering is named in the plan, and prevent_endpoint_change refuses such plans.
// The limits are the API's (internal/simulator/README.md, "Endpoints").

// Operations of the endpoints.
const (
	OpModifyConnectionString = "ModifyDBInstanceConnectionString"
	OpAllocatePublic         = "AllocateInstancePublicConnection"
	OpReleasePublic          = "ReleaseInstancePublicConnection"
)

// Attributes the endpoint rules point at.
const (
	AttrConnectionPrefix      = "connection_string_prefix"
	AttrPort                  = "port"
	AttrPublicEndpoint        = "public_endpoint"
	AttrPreventEndpointChange = "prevent_endpoint_change"
)

const (
	RuleEndpointPrefix        RuleID = "endpoint-prefix"
	RuleEndpointPort          RuleID = "endpoint-port"
	RuleEndpointLastOne       RuleID = "endpoint-last-one"
	RuleEndpointTaken         RuleID = "endpoint-prefix-taken"
	RuleEndpointStops         RuleID = "endpoint-stops-resolving"
	RuleEndpointChangeRefused RuleID = "prevent-endpoint-change-refuses"
)

// The API's limits: a prefix of 5-40 characters to allocate, 8-64 to modify; ports 1000-5999.
const (
	AllocPrefixMin, AllocPrefixMax   = 5, 40
	ModifyPrefixMin, ModifyPrefixMax = 8, 64
	EndpointPortMin, EndpointPortMax = 1000, 5999
	prefixForbidden                  = "~!#%^&*=+|{};:'\",<>/?"
)

// Endpoint is one endpoint as configured: "" and 0 keep the current prefix and port.
type Endpoint struct {
	Prefix string
	Port   int64
}

// NetEndpoint is one endpoint as DescribeDBInstanceNetInfo lists it.
type NetEndpoint struct {
	ConnectionString string
	Port             int64
}

// Prefix is the connection string up to its first dot.
func (n NetEndpoint) Prefix() string {
	prefix, _, _ := strings.Cut(n.ConnectionString, ".")
	return prefix
}

// Address is "connection string:port".
func (n NetEndpoint) Address() string {
	return net.JoinHostPort(n.ConnectionString, strconv.FormatInt(n.Port, 10))
}

// With is the endpoint the configuration makes of this one: its prefix and port where they are set.
func (n NetEndpoint) With(e Endpoint) NetEndpoint {
	out := n
	if e.Prefix != "" {
		_, suffix, _ := strings.Cut(n.ConnectionString, ".")
		out.ConnectionString = strings.ToLower(e.Prefix) + "." + suffix
	}
	if e.Port != 0 {
		out.Port = e.Port
	}
	return out
}

// EndpointFacts are an instance's endpoints now; Internal is nil for an instance with none (the classic network's
// public-only case).
type EndpointFacts struct {
	Internal, Public *NetEndpoint
	// ReadWriteSplitting are the read/write-splitting endpoints, which these attributes never change.
	ReadWriteSplitting []NetEndpoint
}

// EndpointFactsOf reads DescribeDBInstanceNetInfo's answer.
func EndpointFactsOf(info *rdsapi.DescribeDBInstanceNetInfoResponse) EndpointFacts {
	var out EndpointFacts
	for _, public := range []bool{false, true} {
		n, ok := info.Endpoint(public)
		if !ok {
			continue
		}
		port, _ := strconv.ParseInt(string(n.Port), 10, 64)
		ep := &NetEndpoint{ConnectionString: n.ConnectionString, Port: port}
		if public {
			out.Public = ep
		} else {
			out.Internal = ep
		}
	}
	for _, n := range info.ReadWriteSplitting() {
		port, _ := strconv.ParseInt(string(n.Port), 10, 64)
		out.ReadWriteSplitting = append(out.ReadWriteSplitting, NetEndpoint{ConnectionString: n.ConnectionString, Port: port})
	}
	return out
}

// EndpointPlan is what the planner knows of an instance's endpoints.
type EndpointPlan struct {
	// Internal is connection_string_prefix and port as configured; InternalUnknown: known only at apply.
	Internal        Endpoint
	InternalUnknown bool
	// Public is public_endpoint (nil: left out); PublicManaged: the state has it, so leaving it out releases it.
	Public        *Endpoint
	PublicUnknown bool
	PublicManaged bool
	// PreventChange is prevent_endpoint_change.
	PreventChange bool
	// Current is the endpoints now: nil for a create, and where no endpoint attribute is configured.
	Current *EndpointFacts
	// Taken maps the lower-case prefixes of the region's internal endpoints to their instances; read only where a
	// configured prefix changes (TakenPrefixes).
	Taken map[string]string
}

// ChangesPrefix reports whether the plan gives an endpoint a new prefix (so that Taken must be read).
func (p EndpointPlan) ChangesPrefix() bool {
	var internal, public *NetEndpoint
	if p.Current != nil {
		internal, public = p.Current.Internal, p.Current.Public
	}
	return (!p.InternalUnknown && changesPrefix(internal, p.Internal)) || (p.Public != nil && !p.PublicUnknown && changesPrefix(public, *p.Public))
}

// TakenPrefixes lists the prefixes of the region's internal endpoints, by instance.
func TakenPrefixes(ctx context.Context, api rdsapi.API, region string) (map[string]string, error) {
	items, err := ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{RegionID: region})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, item := range items {
		if item.ConnectionString != "" {
			out[strings.ToLower(NetEndpoint{ConnectionString: item.ConnectionString}.Prefix())] = item.DBInstanceID
		}
	}
	return out, nil
}

// takenProblems refuses a new prefix another instance's endpoint has.
func takenProblems(in PlanInput, attribute string, current *NetEndpoint, want Endpoint) []Problem {
	holder := in.Desired.Endpoints.Taken[strings.ToLower(want.Prefix)]
	if !changesPrefix(current, want) || holder == "" || (in.Prior != nil && holder == in.Prior.ID) {
		return nil
	}
	p := problem(RuleEndpointTaken, want.Prefix, attribute, want.Prefix, holder)
	p.Attribute = attribute
	return []Problem{p}
}

// Managed reports whether any endpoint attribute is configured (or public_endpoint was).
func (p EndpointPlan) Managed() bool {
	return p.Internal != (Endpoint{}) || p.InternalUnknown || p.Public != nil || p.PublicUnknown || p.PublicManaged
}

// releases reports whether the plan releases the public endpoint.
func (p EndpointPlan) releases() bool {
	return p.Public == nil && !p.PublicUnknown && p.PublicManaged && p.Current != nil && p.Current.Public != nil
}

// EndpointsPlanned are an instance's endpoints after the apply, for the plan's computed values. Managed: an
// endpoint attribute is configured; Known: the endpoints are known at plan (else only after the apply).
type EndpointsPlanned struct {
	Managed, Known bool
	Internal       *NetEndpoint
	// PublicString is public_connection_string (PlannedPublicString).
	PublicString Val[string]
}

// checkEndpoints raises the rules of the configured endpoints, then names the strings that stop resolving.
func checkEndpoints(in PlanInput, d *Decision) {
	e := in.Desired.Endpoints
	d.Endpoints.Managed = e.Managed()
	d.Endpoints.Internal, _, d.Endpoints.Known = PlannedEndpoints(e)
	d.Endpoints.PublicString = PlannedPublicString(e)
	var current, currentPublic *NetEndpoint
	if e.Current != nil {
		current, currentPublic = e.Current.Internal, e.Current.Public
	}
	if !e.InternalUnknown && changesPrefix(current, e.Internal) {
		d.add(prefixProblems(AttrConnectionPrefix, e.Internal.Prefix, ModifyPrefixMin, ModifyPrefixMax)...)
		d.add(takenProblems(in, AttrConnectionPrefix, current, e.Internal)...)
	}
	if !e.InternalUnknown && e.Internal.Port != 0 {
		d.add(portProblems(AttrPort, e.Internal.Port)...)
	}
	if e.Public != nil && !e.PublicUnknown {
		low, high := AllocPrefixMin, AllocPrefixMax
		if currentPublic != nil {
			low, high = ModifyPrefixMin, ModifyPrefixMax
		}
		if changesPrefix(currentPublic, *e.Public) {
			d.add(prefixProblems(AttrPublicEndpoint, e.Public.Prefix, low, high)...)
			d.add(takenProblems(in, AttrPublicEndpoint, currentPublic, *e.Public)...)
		}
		d.add(portProblems(AttrPublicEndpoint, e.Public.Port)...)
	}
	d.add(readWriteSplittingProblems(in.Label, e)...)
	if e.releases() && current == nil {
		d.add(problem(RuleEndpointLastOne, currentPublic.ConnectionString, in.Label, currentPublic.Address()))
	}
	if d.HasErrors() {
		return
	}
	planSSLAroundEndpoint(in, d)
	for _, lost := range LostEndpoints(in.Label, e, d.Action == ActionReplace) {
		id := RuleEndpointStops
		if e.PreventChange {
			id = RuleEndpointChangeRefused
		}
		d.add(problem(id, lost.Old, lost.Old, lost.New, in.Label, lost.Cause))
	}
}

// changesPrefix reports whether a configured prefix differs from the endpoint's (one to allocate always does).
func changesPrefix(current *NetEndpoint, want Endpoint) bool {
	return want.Prefix != "" && (current == nil || !strings.EqualFold(current.Prefix(), want.Prefix))
}

func prefixProblems(attribute, prefix string, low, high int) []Problem {
	ok := len(prefix) >= low && len(prefix) <= high && !strings.ContainsAny(prefix, prefixForbidden)
	for _, r := range prefix {
		ok = ok && r < unicode.MaxASCII && !unicode.IsSpace(r) && !unicode.IsControl(r)
	}
	if ok {
		return nil
	}
	p := problem(RuleEndpointPrefix, prefix, attribute, prefix, low, high)
	p.Attribute = attribute
	return []Problem{p}
}

func portProblems(attribute string, port int64) []Problem {
	if port >= EndpointPortMin && port <= EndpointPortMax {
		return nil
	}
	p := problem(RuleEndpointPort, strconv.FormatInt(port, 10), attribute, port)
	p.Attribute = attribute
	return []Problem{p}
}

// LostEndpoint is a connection string and port that stops answering: New is what replaces it.
type LostEndpoint struct {
	Old, New, Cause string
}

// LostEndpoints are the addresses of the instance that stop answering after the apply: a changed prefix or port, a
// released public endpoint, and every endpoint of a replaced instance.
func LostEndpoints(label string, e EndpointPlan, replaced bool) []LostEndpoint {
	if e.Current == nil {
		return nil
	}
	var out []LostEndpoint
	if replaced {
		for _, n := range []*NetEndpoint{e.Current.Internal, e.Current.Public} {
			if n != nil {
				out = append(out, LostEndpoint{Old: n.Address(), New: "the replacement's endpoint (known after apply)", Cause: "the instance is replaced"})
			}
		}
		return out
	}
	if n := e.Current.Internal; n != nil && !e.InternalUnknown && n.With(e.Internal) != *n {
		out = append(out, LostEndpoint{Old: n.Address(), New: n.With(e.Internal).Address(), Cause: OpModifyConnectionString})
	}
	if n := e.Current.Public; n != nil && e.Public != nil && !e.PublicUnknown && n.With(*e.Public) != *n {
		out = append(out, LostEndpoint{Old: n.Address(), New: n.With(*e.Public).Address(), Cause: OpModifyConnectionString})
	}
	if e.releases() {
		out = append(out, LostEndpoint{Old: e.Current.Public.Address(), New: "no public endpoint", Cause: OpReleasePublic})
	}
	return out
}

// PlannedEndpoints are the internal and public endpoints after the apply; ok is false where they are known only
// then (a create, a value known at apply, facts not read). A public endpoint left out is nil.
func PlannedEndpoints(e EndpointPlan) (internal, public *NetEndpoint, ok bool) {
	if e.Current == nil || e.InternalUnknown || e.PublicUnknown {
		return nil, nil, false
	}
	if n := e.Current.Internal; n != nil {
		planned := n.With(e.Internal)
		internal = &planned
	}
	switch {
	case e.Public == nil:
		return internal, nil, true
	case e.Current.Public != nil:
		planned := e.Current.Public.With(*e.Public)
		return internal, &planned, true
	case internal != nil:
		// A new public endpoint's string is the prefix with the internal one's domain.
		_, suffix, _ := strings.Cut(internal.ConnectionString, ".")
		return internal, &NetEndpoint{ConnectionString: strings.ToLower(e.Public.Prefix) + "." + suffix, Port: e.Public.Port}, true
	}
	return internal, nil, false
}

// EndpointChange is what an endpoint operation sends; Want is nil while the configuration is known only at apply.
type EndpointChange struct {
	Public bool
	Want   *Endpoint
}

func endpointOr(e *Endpoint) Endpoint {
	if e == nil {
		return Endpoint{}
	}
	return *e
}

func endpointChange(public bool, want Endpoint, unknown bool) *EndpointChange {
	if unknown {
		return &EndpointChange{Public: public}
	}
	return &EndpointChange{Public: public, Want: &want}
}
