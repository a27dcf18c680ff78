package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// A Startup killed before Terraform recorded rds_db_proxy (X12, rdsservice/proxy_adopt.go): the
// plan of a new proxy adopts the proxy an interrupted create of this configuration started, or
// refuses one nothing names; the create records itself in the journal before Startup is sent.

const proxyKind = "rds_db_proxy"

// startedVerdict is X12 for a new proxy of instance: the problems, and the interrupted entries a
// create resolves.
func (r *dbProxyResource) startedVerdict(ctx context.Context, instance string, config tfsdk.Config) ([]rdsservice.Problem, []rdsservice.JournalEntry, error) {
	px, err := r.data.API.DescribeDBProxy(ctx, instance)
	if err != nil {
		return nil, nil, err
	}
	var entries []rdsservice.JournalEntry
	if key := configKey(proxyKind, config); r.data.Journal != nil && key != "" {
		entries = r.data.Journal.Interrupted(proxyKind, key)
	}
	adopt := rdsservice.AdoptableProxy(instance, entries, time.Now())
	return rdsservice.CheckProxyStarted(instance, px, adopt, proxyKind, r.data.Journal.Dir()), entries, nil
}

// claimProxyCreate decides X12 again at apply and records the create before Startup is sent; nil
// when nothing must be sent (diags say why).
func (r *dbProxyResource) claimProxyCreate(ctx context.Context, instance string, config tfsdk.Config, diags *diag.Diagnostics) *createClaim {
	problems, entries, err := r.startedVerdict(ctx, instance, config)
	if err != nil {
		diags.AddError("Error reading the RDS database proxy", fmt.Sprintf("DescribeDBProxy %s: %v; nothing was started. Apply again.", instance, err))
		return nil
	}
	if addProblems(diags, problems); diags.HasError() {
		return nil
	}
	claim := beginClaim(r.data, proxyKind, configKey(proxyKind, config), rdsservice.OpStartProxy, entries, diags)
	if claim != nil && claim.entry != nil {
		claim.accepted(rdsservice.ProxyJournalID(instance)) // the proxy is named by its instance before it starts
	}
	return claim
}
