package rdsservice

import (
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// A killed Startup (issue 44 §4). The proxy of a primary is named by the instance's id, so a
// Startup killed before Terraform recorded rds_db_proxy leaves a proxy the next plan can find: the
// plan of a new rds_db_proxy reads DescribeDBProxy, and
//
//   - X12 a proxy already started is adopted when the create journal holds an interrupted create
//     of this configuration for this instance (within AdoptWindow): the plan says so, and the apply
//     waits until it runs (OpAwaitProxy) and then configures it as it would a proxy it had
//     changed; without such an entry the plan refuses, naming the proxy and the import command.

// RuleProxyAlreadyStarted is X12's refusal.
const RuleProxyAlreadyStarted RuleID = "proxy-already-started"

// OpAwaitProxy waits for a proxy an interrupted Startup left Creating.
const OpAwaitProxy = "DescribeDBProxy until Running"

// ProxyJournalID is the object id the journal records for the proxy of instance: not the
// instance's own id, whose refresh forgets the instance's entries.
func ProxyJournalID(instance string) string { return instance + ":proxy" }

// AdoptableProxy is X12's adoption: the latest interrupted create of this configuration for
// instance, within AdoptWindow; nil when there is none.
func AdoptableProxy(instance string, entries []JournalEntry, now time.Time) *JournalEntry {
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.ID == ProxyJournalID(instance) && now.Sub(e.Started) <= AdoptWindow {
			return &entries[i]
		}
	}
	return nil
}

// CheckProxyStarted is X12 for a new rds_db_proxy of instance whose proxy reads back px.
func CheckProxyStarted(instance string, px *rdsapi.DBProxy, adopt *JournalEntry, kind, journal string) []Problem {
	switch {
	case px == nil || !px.Started:
		return nil
	case adopt != nil:
		return []Problem{Raise(RuleCreateAdopted, instance, kind, "the database proxy of "+instance, journal, adopt.Started.Format(time.RFC3339))}
	}
	return []Problem{Raise(RuleProxyAlreadyStarted, instance, instance, px.Status)}
}
