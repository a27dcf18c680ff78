package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Creates an interrupted apply left behind (issue 29). The journal (rdsservice.CreateJournal)
// names them; this file decides, for a resource about to be created, what to do with them, the
// same way at plan and at apply: adopt the one object an interrupted create of this configuration
// made, resend its request with its ClientToken when it never got an answer (the cloud then
// returns that object instead of making another), or refuse, naming what it left and the import
// block. Never a second create next to the first.

// openJournal opens the journal of the working directory the provider runs in.
func openJournal() *rdsservice.CreateJournal {
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	return rdsservice.OpenCreateJournal(dir, os.Getenv)
}

// interrupted is what the journal says about one configuration.
type interrupted struct {
	// Adopt is the one object an interrupted create made (entry Entry); Resend is set instead when
	// that create never got an answer and its object cannot be looked up by anything but its token.
	Adopt  string
	Resend bool
	Entry  *rdsservice.JournalEntry
	// Orphans and Unanswered (creates that may have made one), with Reason, cannot be adopted; the
	// create must not run.
	Orphans, Unanswered []string
	Reason              string
	// Resolved are the entries this verdict accounts for, forgotten once the create returns.
	Resolved []rdsservice.JournalEntry
	// Twins: other interrupted creates of this configuration are left for this resource's twins.
	Twins bool
}

// Actions of the journal's instance entries.
const (
	actionCreate   = "CreateDBInstance"
	actionClone    = "CloneDBInstance"
	actionDdr      = "CreateDdrInstance"
	actionReadOnly = "CreateReadOnlyDBInstance"
)

// pendingCreate is an interrupted create whose object may exist: id is the live instance, or ""
// when the create never got an answer and only a resend of its token can find it.
type pendingCreate struct {
	entry rdsservice.JournalEntry
	id    string
}

// interruptedInstances looks at the interrupted creates of kind with this configuration key: each
// entry's instance is the one the cloud accepted (its id), or the one carrying its token tag. The
// resource takes the one no twin took (rdsservice.ClaimInterrupted); planned is the plan's id at
// apply. It resolves that one and the entries that left nothing.
func interruptedInstances(ctx context.Context, data *ProviderData, kind, key, planned string, atApply bool) (interrupted, error) {
	entries := data.Journal.Interrupted(kind, key)
	var pending []rdsservice.PendingCreate
	var v interrupted
	for _, e := range entries {
		id, err := instanceOf(ctx, data, e)
		if err != nil {
			return interrupted{}, err
		}
		if id != "" || (e.ID == "" && e.Action != actionCreate) {
			pending = append(pending, rdsservice.PendingCreate{Entry: e, ID: id})
		} else {
			v.Resolved = append(v.Resolved, e)
		}
	}
	i, reason := data.Journal.ClaimInterrupted(pending, planned, atApply, time.Now())
	switch {
	case reason != "":
		v.Reason = reason
		for _, p := range pending {
			if p.ID != "" {
				v.Orphans = append(v.Orphans, p.ID)
			} else {
				v.Unanswered = append(v.Unanswered, fmt.Sprintf("an unanswered %s (ClientToken %s)", p.Entry.Action, p.Entry.Token))
			}
		}
	case i >= 0:
		e := pending[i].Entry
		v.Entry, v.Adopt, v.Resend, v.Twins = &e, pending[i].ID, pending[i].ID == "", len(pending) > 1
		v.Resolved = append(v.Resolved, e)
	}
	return v, nil
}

// instanceOf is the live instance an entry's create made ("" when there is none or it cannot be
// looked up: a clone or read-only instance whose create got no answer carries no tag).
func instanceOf(ctx context.Context, data *ProviderData, e rdsservice.JournalEntry) (string, error) {
	id := e.ID
	if id == "" && e.Action == actionCreate {
		items, err := rdsservice.ListAllDBInstances(ctx, data.API, &rdsapi.DescribeDBInstancesRequest{
			RegionID: data.Region, Tags: []rdsapi.Tag{{Key: rdsservice.CreateTokenTagKey, Value: e.Token}}})
		if err != nil || len(items) == 0 {
			return "", err
		}
		id = items[0].DBInstanceID
	}
	if id == "" {
		return "", nil
	}
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, id)
	switch {
	case rdsapi.IsNotFound(err):
		return "", nil
	case err != nil:
		return "", err
	case attr.DBInstanceStatus == rdsservice.StatusDeleting:
		return "", nil
	}
	return id, nil
}

// decideInterrupted takes over exactly one pending create, young enough; anything else is refused.
func decideInterrupted(pending []pendingCreate) interrupted {
	var v interrupted
	switch {
	case len(pending) == 0:
		return v
	case len(pending) > 1:
		v.Reason = fmt.Sprintf("%d interrupted creates have this configuration and nothing tells which one is this resource's", len(pending))
	case time.Since(pending[0].entry.Started) > rdsservice.AdoptWindow:
		v.Reason = fmt.Sprintf("it was created at %s, more than %s ago: someone may have taken it over meanwhile",
			pending[0].entry.Started.Format(time.RFC3339), rdsservice.AdoptWindow)
	default:
		e := pending[0].entry
		v.Entry, v.Adopt, v.Resend = &e, pending[0].id, pending[0].id == ""
		return v
	}
	for _, p := range pending {
		if p.id != "" {
			v.Orphans = append(v.Orphans, p.id)
		} else {
			v.Unanswered = append(v.Unanswered, fmt.Sprintf("an unanswered %s (ClientToken %s)", p.entry.Action, p.entry.Token))
		}
	}
	return v
}

// report shows the verdict in a plan (or refuses an apply): the adoption, the resend, or the
// orphans with their import blocks.
func (v interrupted) report(kind string, journal *rdsservice.CreateJournal, diags *diag.Diagnostics) {
	switch {
	case v.Reason != "":
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleCreateOrphan, "", kind, strings.Join(append(v.Orphans, v.Unanswered...), ", "),
			journal.Dir(), v.Reason, importBlocks(kind, v.Orphans))})
	case v.Adopt != "" && v.Twins:
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleCreateAdoptedTwin, v.Adopt, kind, v.Adopt, journal.Dir(),
			v.Entry.Started.Format(time.RFC3339))})
	case v.Adopt != "":
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleCreateAdopted, v.Adopt, kind, v.Adopt, journal.Dir(),
			v.Entry.Started.Format(time.RFC3339))})
	case v.Resend:
		addProblems(diags, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleCreateResent, "", v.Entry.Action, journal.Dir(),
			v.Entry.Started.Format(time.RFC3339), v.Entry.Token)})
	}
}

func importBlocks(kind string, ids []string) string {
	blocks := make([]string, 0, len(ids))
	for _, id := range ids {
		blocks = append(blocks, fmt.Sprintf("import {\n  to = %s.NAME\n  id = %q\n}", kind, id))
	}
	return strings.Join(blocks, "\n")
}

// configKey is the journal's key of a configuration with every value known ("" otherwise: an
// unknown value cannot be compared with an earlier run's).
func configKey(kind string, config tfsdk.Config) string {
	if config.Raw.IsNull() || !config.Raw.IsFullyKnown() {
		return ""
	}
	return rdsservice.CreateKey(kind, config.Raw.String())
}

// planInterruptedCreate shows, in the plan of a new instance, what an interrupted apply left for
// it. The id stays unknown even when the plan adopts: identical twins take the interrupted creates
// in the order they plan, which Terraform's final plan at apply (another process) may not repeat,
// and a known id that changed there would be an inconsistent final plan.
func planInterruptedCreate(ctx context.Context, data *ProviderData, kind string, config tfsdk.Config, diags *diag.Diagnostics) {
	key := configKey(kind, config)
	if data == nil || data.Journal == nil || key == "" {
		return
	}
	v, err := interruptedInstances(ctx, data, kind, key, "", false)
	if err != nil {
		diags.AddError("Error looking for an instance an interrupted apply created",
			fmt.Sprintf("The journal %s names an interrupted create of this %s, and reading it failed: %v. Plan again.", data.Journal.Dir(), kind, err))
		return
	}
	v.report(kind, data.Journal, diags)
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
	v, err := interruptedInstances(ctx, data, kind, key, planned.ValueString(), true)
	if err != nil {
		diags.AddError("Error looking for an instance an interrupted apply created", fmt.Sprintf("%v; nothing was created. Apply again.", err))
		return nil
	}
	if v.Reason != "" {
		v.report(kind, data.Journal, diags)
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

// claimAccessCreate records the create of an account or a database (object) before it is sent.
func claimAccessCreate(data *ProviderData, kind, key, object, action string, diags *diag.Diagnostics) *createClaim {
	claim := &createClaim{journal: data.Journal}
	if data.Journal == nil || key == "" {
		return claim
	}
	entry, err := data.Journal.Begin(kind, key, action, "")
	if err != nil {
		diags.AddError("Error writing the create journal", fmt.Sprintf("%s: %v; nothing was created. Check that the directory is writable and apply again.", data.Journal.Dir(), err))
		return nil
	}
	claim.entry, claim.resolved = entry, data.Journal.Interrupted(kind, key)
	claim.accepted(object)
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
