package rdsservice

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Creates an interrupted apply left behind (issue 29). The journal names them; this file decides,
// for a resource about to be created, what to do with them, the same way at plan and at apply:
// adopt the one object an interrupted create of this configuration made, resend its request with
// its ClientToken when it never got an answer (the cloud then returns that object instead of
// making another), or refuse, naming what it left and the import block. Never a second create
// next to the first.

// Interrupted is the journal's verdict on one configuration about to be created.
type Interrupted struct {
	// Adopt is the one object an interrupted create made (entry Entry); Resend is set instead when
	// that create never got an answer and its object cannot be looked up by anything but its token.
	Adopt  string
	Resend bool
	Entry  *JournalEntry
	// Orphans and Unanswered (creates that may have made one), with Reason, cannot be adopted; the
	// create must not run.
	Orphans, Unanswered []string
	Reason              string
	// Resolved are the entries this verdict accounts for, forgotten once the create returns.
	Resolved []JournalEntry
	// Twins: other interrupted creates of this configuration are left for this resource's twins.
	Twins bool
}

// InterruptedQuery names the configuration (Kind, Key) a resource is about to create; Planned is
// the id the plan showed (at apply; "" when it showed none).
type InterruptedQuery struct {
	Kind, Key, Planned string
	AtApply            bool
}

// InterruptedInstances looks at the interrupted instance creates of q's configuration: each
// entry's instance is the one the cloud accepted (its id), or the one carrying its token tag. The
// resource takes the one no twin took (ClaimInterrupted). The verdict resolves that one and the
// entries that left nothing.
func (j *CreateJournal) InterruptedInstances(ctx context.Context, api rdsapi.API, region string, q InterruptedQuery, now time.Time) (Interrupted, error) {
	var pending []PendingCreate
	var v Interrupted
	for _, e := range j.Interrupted(q.Kind, q.Key) {
		id, err := interruptedInstance(ctx, api, region, e)
		if err != nil {
			return Interrupted{}, err
		}
		if id != "" || (e.ID == "" && e.Action != OpCreate) {
			pending = append(pending, PendingCreate{Entry: e, ID: id})
		} else {
			v.Resolved = append(v.Resolved, e)
		}
	}
	i, reason := j.ClaimInterrupted(pending, q.Planned, q.AtApply, now)
	switch {
	case reason != "":
		v.refuse(pending, reason)
	case i >= 0:
		e := pending[i].Entry
		v.Entry, v.Adopt, v.Resend, v.Twins = &e, pending[i].ID, pending[i].ID == "", len(pending) > 1
		v.Resolved = append(v.Resolved, e)
	}
	return v, nil
}

// interruptedInstance is the live instance an entry's create made ("" when there is none or it
// cannot be looked up: a clone or read-only instance whose create got no answer carries no tag).
func interruptedInstance(ctx context.Context, api rdsapi.API, region string, e JournalEntry) (string, error) {
	id := e.ID
	if id == "" && e.Action == OpCreate {
		items, err := ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{
			RegionID: region, Tags: []rdsapi.Tag{{Key: CreateTokenTagKey, Value: e.Token}}})
		if err != nil || len(items) == 0 {
			return "", err
		}
		id = items[0].DBInstanceID
	}
	if id == "" {
		return "", nil
	}
	attr, err := api.DescribeDBInstanceAttribute(ctx, id)
	switch {
	case rdsapi.IsNotFound(err):
		return "", nil
	case err != nil:
		return "", err
	case attr.DBInstanceStatus == StatusDeleting:
		return "", nil
	}
	return id, nil
}

// DecideInterrupted takes over exactly one pending create, young enough; anything else is refused.
// Objects without twins (backup jobs) are decided this way.
func DecideInterrupted(pending []PendingCreate, now time.Time) Interrupted {
	var v Interrupted
	switch {
	case len(pending) == 0:
		return v
	case len(pending) > 1:
		v.refuse(pending, fmt.Sprintf("%d interrupted creates have this configuration and nothing tells which one is this resource's", len(pending)))
	case now.Sub(pending[0].Entry.Started) > AdoptWindow:
		v.refuse(pending, fmt.Sprintf("it was created at %s, more than %s ago: someone may have taken it over meanwhile",
			pending[0].Entry.Started.Format(time.RFC3339), AdoptWindow))
	default:
		e := pending[0].Entry
		v.Entry, v.Adopt, v.Resend = &e, pending[0].ID, pending[0].ID == ""
	}
	return v
}

// refuse makes v a refusal for reason, naming every pending create's object or token.
func (v *Interrupted) refuse(pending []PendingCreate, reason string) {
	v.Reason = reason
	for _, p := range pending {
		if p.ID != "" {
			v.Orphans = append(v.Orphans, p.ID)
		} else {
			v.Unanswered = append(v.Unanswered, fmt.Sprintf("an unanswered %s (ClientToken %s)", p.Entry.Action, p.Entry.Token))
		}
	}
}

// Problems shows the verdict on a create of kind in a plan (or refuses an apply): the adoption,
// the resend, or the orphans with their import blocks. dir is the journal's directory.
func (v Interrupted) Problems(kind, dir string) []Problem {
	switch {
	case v.Reason != "":
		return []Problem{Raise(RuleCreateOrphan, "", kind, strings.Join(append(v.Orphans, v.Unanswered...), ", "), dir, v.Reason, importBlocks(kind, v.Orphans))}
	case v.Adopt != "" && v.Twins:
		return []Problem{Raise(RuleCreateAdoptedTwin, v.Adopt, kind, v.Adopt, dir, v.Entry.Started.Format(time.RFC3339))}
	case v.Adopt != "":
		return []Problem{Raise(RuleCreateAdopted, v.Adopt, kind, v.Adopt, dir, v.Entry.Started.Format(time.RFC3339))}
	case v.Resend:
		return []Problem{Raise(RuleCreateResent, "", v.Entry.Action, dir, v.Entry.Started.Format(time.RFC3339), v.Entry.Token)}
	}
	return nil
}

// BackupProblems shows the verdict on an rds_backup of instanceID: the adopted job, or the jobs
// it cannot choose between.
func (v Interrupted) BackupProblems(instanceID, dir string) []Problem {
	switch {
	case v.Reason != "":
		return []Problem{Raise(RuleBackupCreateOrphan, "", instanceID, "backup jobs "+strings.Join(v.Orphans, ", "), dir, v.Reason)}
	case v.Adopt != "":
		return []Problem{Raise(RuleCreateAdopted, v.Adopt, "rds_backup", "backup job "+v.Adopt+" of "+instanceID, dir, v.Entry.Started.Format(time.RFC3339))}
	}
	return nil
}

func importBlocks(kind string, ids []string) string {
	blocks := make([]string, 0, len(ids))
	for _, id := range ids {
		blocks = append(blocks, fmt.Sprintf("import {\n  to = %s.NAME\n  id = %q\n}", kind, id))
	}
	return strings.Join(blocks, "\n")
}
