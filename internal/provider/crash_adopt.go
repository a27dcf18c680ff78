package provider

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Creates an interrupted apply left behind (issue 29): the journal (rdsservice.CreateJournal)
// names them and rdsservice decides what a create does with them (create_interrupted.go, and at
// plan create_interrupted_plan.go); this file claims the creates at apply and reports the verdict.

// openJournal opens the journal of the working directory the provider runs in.
func openJournal() *rdsservice.CreateJournal {
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	return rdsservice.OpenCreateJournal(dir, os.Getenv)
}

// Actions of the journal's instance entries.
const (
	actionCreate   = "CreateDBInstance"
	actionClone    = "CloneDBInstance"
	actionDdr      = "CreateDdrInstance"
	actionReadOnly = "CreateReadOnlyDBInstance"
)

// configKey is the journal's key of a configuration (rdsservice.InterruptedKey: "" while a value
// is unknown).
func configKey(kind string, config tfsdk.Config) string {
	return rdsservice.InterruptedKey(kind, attrValueOf(config.Raw), config.Raw.String())
}

// createClaim is one create in the journal: its entry, and the interrupted ones it resolves.
type createClaim struct {
	journal  *rdsservice.CreateJournal
	entry    *rdsservice.JournalEntry
	resolved []rdsservice.JournalEntry
}

// claimInstanceCreate decides again, at apply, what the plan showed (planned is the plan's id),
// and records the create before it is sent: c gets the instance to take over or the token to
// send. nil when the create must not run (diags say why).
func claimInstanceCreate(ctx context.Context, data *ProviderData, config tfsdk.Config, planned types.String, c *rdsservice.CreateRequest,
	diags *diag.Diagnostics) *createClaim {
	kind, action, token := instanceCreateOf(c)
	if *token == "" {
		*token = rdsapi.NewClientToken()
	}
	claim := &createClaim{journal: data.Journal}
	key := configKey(kind, config)
	if data.Journal == nil || key == "" {
		return claim
	}
	q := rdsservice.InterruptedQuery{Kind: kind, Key: key, Planned: planned.ValueString(), AtApply: true}
	v, err := data.Journal.InterruptedInstances(ctx, data.API, data.Region, q, time.Now())
	if err != nil {
		diags.AddError("Error looking for an instance an interrupted apply created", fmt.Sprintf("%v; nothing was created. Apply again.", err))
		return nil
	}
	if v.Reason != "" {
		addProblems(diags, v.Problems(kind, data.Journal.Dir()))
		return nil
	}
	c.AdoptID = v.Adopt
	if v.Resend {
		*token = v.Entry.Token
	}
	entry, err := data.Journal.Begin(kind, key, action, *token)
	if err != nil {
		diags.AddError("Error writing the create journal", fmt.Sprintf("%s: %v; nothing was created. Check that the directory is writable and apply again.", data.Journal.Dir(), err))
		return nil
	}
	claim.entry, claim.resolved = entry, v.Resolved
	if c.AdoptID != "" {
		tflog.Info(ctx, "taking over an instance an interrupted apply created", map[string]any{"id": c.AdoptID})
		claim.accepted(c.AdoptID)
	}
	return claim
}

// instanceCreateOf names the resource type, the action and the token field of a create.
func instanceCreateOf(c *rdsservice.CreateRequest) (kind, action string, token *string) {
	switch {
	case c.ReadOnly != nil:
		return "rds_readonly_instance", actionReadOnly, &c.ReadOnly.ClientToken
	case c.Clone != nil:
		return "rds_instance", actionClone, &c.Clone.ClientToken
	case c.Ddr != nil:
		return "rds_instance", actionDdr, &c.Ddr.ClientToken
	}
	return "rds_instance", actionCreate, &c.Instance.ClientToken
}

// accepted records the id the cloud gave the create. A failed write loses little: the entry
// without its id still finds a primary by its tag, and a clone's request is resent with its token.
func (c *createClaim) accepted(id string) { _ = c.journal.Accepted(c.entry, id) }

// done ends the claim when Create returns; recorded says Terraform got an object's id, which then
// accounts for the interrupted creates it resolved.
func (c *createClaim) done(recorded bool) {
	c.journal.Done(c.entry, recorded)
	if recorded {
		c.journal.Forget(c.resolved)
	}
}

// Accounts and databases carry no tag, but their names are unique per instance, so the object an
// interrupted create made is simply the one of that name: its entry names it from the start. The
// plan adopts it (instead of refusing it as someone else's, rules account-exists and
// database-exists) when the journal holds an interrupted create of this configuration for it, young
// enough; the create then meets Duplicate, which it already takes as its own (an account gets the
// configured password).

// accessKey is the journal's key of an account or a database (never its password), from the
// planned values: Create sees the same plan as the ModifyPlan that adopts, unknown values included.
func accessKey(kind string, parts ...types.String) string {
	values := make([]string, 0, len(parts))
	for _, p := range parts {
		values = append(values, p.String())
	}
	return rdsservice.CreateKey(kind, values...)
}

// adoptingAccess reports whether an interrupted create of this configuration made object; the
// plan says so.
func adoptingAccess(data *ProviderData, kind, key, object string, stage checkStage, diags *diag.Diagnostics) bool {
	if data.Journal == nil || key == "" {
		return false
	}
	entries := data.Journal.Interrupted(kind, key)
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.ID != object || time.Since(e.Started) > rdsservice.AdoptWindow {
			continue
		}
		if stage == atPlan {
			addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleCreateAdopted, object, kind, object, data.Journal.Dir(),
				e.Started.Format(time.RFC3339))})
		}
		return true
	}
	return false
}

// beginClaim records kind's create of the configuration key (the API action) before it is sent,
// resolving the interrupted entries; without a journal or a key the claim records nothing. Nil,
// with the error, when the journal cannot be written: nothing must be sent.
func beginClaim(data *ProviderData, kind, key, action string, resolved []rdsservice.JournalEntry, diags *diag.Diagnostics) *createClaim {
	claim := &createClaim{journal: data.Journal}
	if data.Journal == nil || key == "" {
		return claim
	}
	entry, err := data.Journal.Begin(kind, key, action, "")
	if err != nil {
		diags.AddError("Error writing the create journal", fmt.Sprintf("%s: %v; nothing was sent (%s). Check that the directory is writable and apply again.", data.Journal.Dir(), err, action))
		return nil
	}
	claim.entry, claim.resolved = entry, resolved
	return claim
}

// claimAccessCreate records the create of an account or a database (object) before it is sent.
func claimAccessCreate(data *ProviderData, kind, key, object, action string, diags *diag.Diagnostics) *createClaim {
	var resolved []rdsservice.JournalEntry
	if data.Journal != nil && key != "" {
		resolved = data.Journal.Interrupted(kind, key)
	}
	claim := beginClaim(data, kind, key, action, resolved, diags)
	if claim != nil && claim.entry != nil {
		claim.accepted(object)
	}
	return claim
}

// journalKey is the account's configuration as the journal keys it (the password left out).
func (m accountModel) journalKey() string {
	return accessKey("rds_account", m.InstanceID, m.Name, m.Type, m.Description)
}

// journalKey is the database's configuration as the journal keys it.
func (m databaseModel) journalKey() string {
	return accessKey("rds_database", m.InstanceID, m.Name, m.CharacterSet, m.Description)
}
