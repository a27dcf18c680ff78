package rdsservice

import (
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_db_proxy_endpoint (issue 44 §1): a further endpoint of a primary's proxy, with the settings
// of rds_db_proxy's default endpoint, checked by the same rules (X3-X7, X9: CheckProxyEndpoint,
// changeProblems) and sent by the same executor code (executor_proxy.go). ModifyDBProxyEndpoint
// with DbEndpointOperator Create makes it and Delete removes it (cloud fact P3); the classic SDK's
// answer model of that action holds no endpoint id (P6), so the endpoint is found again by its
// description (DbEndpointAliases), which this provider keeps unique per proxy:
//
//   - X11 an endpoint's description is unique among its proxy's endpoints; a create killed before
//     Terraform recorded the endpoint (an entry of the create journal for this configuration, within
//     AdoptWindow) is adopted when the proxy holds an endpoint of that description that the entry
//     names, or, when the entry has no id (killed before the endpoint was found), any endpoint of
//     that description; otherwise the plan refuses, naming the endpoint and its import id.

// RuleProxyEndpointTaken is X11's refusal.
const RuleProxyEndpointTaken RuleID = "proxy-endpoint-description-taken"

// AttrProxyEndpointDescription is rds_db_proxy_endpoint's description attribute.
const AttrProxyEndpointDescription = "description"

// The operations of an rds_db_proxy_endpoint besides OpProxyEndpoint.
const (
	OpCreateProxyEndpoint = "ModifyDBProxyEndpoint Create"
	OpDeleteProxyEndpoint = "ModifyDBProxyEndpoint Delete"
)

// ProxyEndpointTarget is an rds_db_proxy_endpoint: its endpoint id ("" until it is created) and
// description.
type ProxyEndpointTarget struct {
	ID, Description string
	// Address is its connection_string_prefix and port (proxy_endpoint_address.go).
	Address ProxyEndpointAddress
}

// PlanProxyEndpoint decides an rds_db_proxy_endpoint's apply (req.Endpoint set); current is the
// endpoint as the cloud has it, nil when it does not exist yet.
func PlanProxyEndpoint(req ProxyRequest, current *ProxySpec) ProxyPlan {
	plan := ProxyPlan{Request: req}
	if req.Delete {
		plan.add(OpDeleteProxyEndpoint, WhenNow)
		return plan
	}
	label := "the endpoint " + req.Endpoint.ID + " of the proxy of " + req.InstanceID
	plan.Problems = append(CheckProxyEndpoint(req.Desired, req.Primary), req.Endpoint.Address.addressProblems(label)...)
	plan.Problems = append(plan.Problems, req.Endpoint.Address.prefixProblems(req.InstanceID)...) // proxy_endpoint_prefix.go
	if len(refusals(plan.Problems)) > 0 {
		return plan
	}
	if current == nil {
		plan.add(OpCreateProxyEndpoint, WhenNow)
	} else {
		deferred, ok := plan.changeProblems(*current)
		if !ok {
			return plan
		}
		if endpointChanged(*current, req.Desired) {
			plan.add(OpProxyEndpoint, deferred)
		}
	}
	if req.Endpoint.Address.changes() {
		plan.add(OpProxyEndpointAddress, WhenNow)
	}
	return plan
}

// ProxyEndpointDescribed is the endpoint of the proxy described description other than self (""
// for a new endpoint); nil when there is none.
func ProxyEndpointDescribed(px *rdsapi.DBProxy, description, self string) *rdsapi.DBProxyAddress {
	for i, a := range px.Endpoints {
		if a.Aliases == description && a.EndpointID != self {
			return &px.Endpoints[i]
		}
	}
	return nil
}

// AdoptableProxyEndpoint is X11's adoption: the journal entry of an interrupted create of this
// configuration that made taken, if any.
func AdoptableProxyEndpoint(taken *rdsapi.DBProxyAddress, entries []JournalEntry, now time.Time) *JournalEntry {
	if taken == nil {
		return nil
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; now.Sub(e.Started) <= AdoptWindow && (e.ID == "" || e.ID == taken.EndpointID) {
			return &entries[i]
		}
	}
	return nil
}

// CheckProxyEndpointDescription is X11 at plan and apply: the refusal naming the endpoint that
// holds the description, unless an interrupted create of this configuration made it (the plan
// adopts it, and says so).
func CheckProxyEndpointDescription(instance, description string, taken *rdsapi.DBProxyAddress, adopt *JournalEntry, kind, journal string) []Problem {
	switch {
	case taken == nil:
		return nil
	case adopt != nil:
		return []Problem{Raise(RuleCreateAdopted, taken.EndpointID, kind, taken.EndpointID, journal, adopt.Started.Format(time.RFC3339))}
	}
	return []Problem{Raise(RuleProxyEndpointTaken, description, description, instance, taken.EndpointID)}
}
