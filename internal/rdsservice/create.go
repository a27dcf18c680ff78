package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Creates whose outcome is unknown (issue 12). CreateDBInstance, CreateReadOnlyDBInstance and
// CloneDBInstance carry a ClientToken: the cloud answers a resend with the same token with the
// instance the first request made. So a create is resent, with the same token, on throttling,
// transient errors, busy answers and lost answers until the operation's deadline (ctx), never
// for a fixed count. When the deadline passes (or the apply is interrupted) without an answer,
// the instance the request may have made is looked up before reporting, so that a billed
// instance is recorded in state instead of being orphaned.

// CreateTokenTagKey is the tag every CreateDBInstance carries; its value is the request's
// ClientToken. DescribeDBInstances filters by tag (Tag.N.key / Tag.N.value), which makes the
// instance of one request findable even when no answer ever arrived.
const CreateTokenTagKey = "terraform-provider-rds-create-token"

// lookupBudget bounds the search for the instance of a create whose outcome is unknown. It runs
// after the create's own deadline or cancellation, so it has its own short budget.
const lookupBudget = 2 * time.Minute

// UnknownOutcomeError is returned when a create got no answer before its deadline or an
// interruption. Found is the instance the request made, when the lookup found it; the caller
// records it in state (tainted). Candidates lists instances that may be it when the lookup
// cannot tell them apart.
type UnknownOutcomeError struct {
	Action     string
	Token      string
	Found      *rdsapi.DBInstanceSummary
	Candidates []rdsapi.DBInstanceSummary
	// LookupErr is set when the lookup itself failed: nothing is known.
	LookupErr error
	// Cause is why the create stopped (deadline, cancellation or a permanent error); Last is the
	// last failed attempt.
	Cause, Last error
}

func (e *UnknownOutcomeError) Error() string {
	head := fmt.Sprintf("%s (ClientToken %s) got no answer before it stopped (%v; last attempt: %v)", e.Action, e.Token, e.Cause, e.Last)
	switch {
	case e.Found != nil:
		return fmt.Sprintf("%s. The request did create instance %s (status %s): it is recorded in state and marked tainted, "+
			"so the next apply replaces it; run `terraform untaint` first to keep it instead", head, e.Found.DBInstanceID, e.Found.DBInstanceStatus)
	case e.LookupErr != nil:
		return fmt.Sprintf("%s. Looking for an instance made by this request failed too (%v): an instance may exist that Terraform "+
			"does not track; check the RDS console or DescribeDBInstances before applying again", head, e.LookupErr)
	case len(e.Candidates) > 0:
		return fmt.Sprintf("%s. These instances appeared meanwhile and may be this request's: %s; none was recorded in state. "+
			"Import the right one (terraform import) or delete the ones you do not want before applying again", head, describeSummaries(e.Candidates))
	}
	return fmt.Sprintf("%s. No instance was created by this request (none carries it), so nothing is left behind; apply again", head)
}

func (e *UnknownOutcomeError) Unwrap() error { return e.Cause }

func describeSummaries(items []rdsapi.DBInstanceSummary) string {
	parts := make([]string, 0, len(items))
	for _, it := range items {
		parts = append(parts, fmt.Sprintf("%s (%s, %s, %q)", it.DBInstanceID, it.DBInstanceStatus, it.DBInstanceClass, it.DBInstanceDescription))
	}
	return strings.Join(parts, ", ")
}

// CreateDBInstance creates a primary instance: resent with one ClientToken until ctx's deadline,
// tagged with CreateTokenTagKey so that an unanswered create is found by its tag. It returns the
// instance id; with an *UnknownOutcomeError whose Found is set it also returns that id.
func CreateDBInstance(ctx context.Context, api rdsapi.API, w *Waiter, req *rdsapi.CreateDBInstanceRequest) (string, error) {
	r := *req
	if r.ClientToken == "" {
		r.ClientToken = rdsapi.NewClientToken()
	}
	r.Tags = append(append([]rdsapi.Tag(nil), r.Tags...), rdsapi.Tag{Key: CreateTokenTagKey, Value: r.ClientToken})
	send := func(ctx context.Context) (string, error) {
		out, err := api.CreateDBInstance(ctx, &r)
		if err != nil {
			return "", err
		}
		return out.DBInstanceID, nil
	}
	find := func(ctx context.Context) ([]rdsapi.DBInstanceSummary, bool, error) {
		items, err := ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{
			RegionID: r.RegionID, Tags: []rdsapi.Tag{{Key: CreateTokenTagKey, Value: r.ClientToken}},
		})
		return items, true, err
	}
	return createUntilDeadline(ctx, w, "CreateDBInstance", r.ClientToken, send, find)
}

// CreateReadOnlyDBInstance creates a read-only instance of primary, whose current read-only
// instances the caller read just before (primary.ReadOnlyDBInstanceIDs). The cloud takes no tag
// on this action, so an unanswered create is looked for among the primary's read-only instances
// that are new since then and match the request's class and description (an assumption: see the
// simulator README); exactly one such instance is taken as this request's.
func CreateReadOnlyDBInstance(ctx context.Context, api rdsapi.API, w *Waiter, primary *rdsapi.DBInstanceAttribute, req *rdsapi.CreateReadOnlyDBInstanceRequest) (string, error) {
	r := *req
	if r.ClientToken == "" {
		r.ClientToken = rdsapi.NewClientToken()
	}
	before := map[string]bool{}
	for _, id := range primary.ReadOnlyDBInstanceIDs {
		before[id] = true
	}
	send := func(ctx context.Context) (string, error) {
		out, err := api.CreateReadOnlyDBInstance(ctx, &r)
		if err != nil {
			return "", err
		}
		return out.DBInstanceID, nil
	}
	find := func(ctx context.Context) ([]rdsapi.DBInstanceSummary, bool, error) {
		items, err := ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{RegionID: r.RegionID, DBInstanceType: rdsapi.InstanceTypeReadonly})
		if err != nil {
			return nil, false, err
		}
		var matches []rdsapi.DBInstanceSummary
		for _, it := range items {
			if it.MasterInstanceID == r.PrimaryDBInstanceID && !before[it.DBInstanceID] && it.DBInstanceClass == r.DBInstanceClass &&
				(r.DBInstanceDescription == "" || it.DBInstanceDescription == r.DBInstanceDescription) {
				matches = append(matches, it)
			}
		}
		return matches, false, nil
	}
	return createUntilDeadline(ctx, w, "CreateReadOnlyDBInstance", r.ClientToken, send, find)
}

// CloneDBInstance restores a new instance from a source. The cloud takes no tag on this action
// either: the instances listed before the first send are remembered, and an unanswered clone is
// looked for among the new ones with the request's class and zone (an assumption, as for read-only
// instances).
func CloneDBInstance(ctx context.Context, api rdsapi.API, w *Waiter, req *rdsapi.CloneDBInstanceRequest) (string, error) {
	r := *req
	if r.ClientToken == "" {
		r.ClientToken = rdsapi.NewClientToken()
	}
	existing, err := ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{RegionID: r.RegionID, DBInstanceType: rdsapi.InstanceTypePrimary})
	if err != nil {
		return "", fmt.Errorf("listing the instances before cloning (nothing was sent): %w", err)
	}
	before := map[string]bool{}
	for _, it := range existing {
		before[it.DBInstanceID] = true
	}
	send := func(ctx context.Context) (string, error) {
		out, err := api.CloneDBInstance(ctx, &r)
		if err != nil {
			return "", err
		}
		return out.DBInstanceID, nil
	}
	find := func(ctx context.Context) ([]rdsapi.DBInstanceSummary, bool, error) {
		items, err := ListAllDBInstances(ctx, api, &rdsapi.DescribeDBInstancesRequest{RegionID: r.RegionID, DBInstanceType: rdsapi.InstanceTypePrimary})
		if err != nil {
			return nil, false, err
		}
		var matches []rdsapi.DBInstanceSummary
		for _, it := range items {
			if !before[it.DBInstanceID] && (r.DBInstanceClass == "" || it.DBInstanceClass == r.DBInstanceClass) &&
				(r.ZoneID == "" || it.ZoneID == r.ZoneID) {
				matches = append(matches, it)
			}
		}
		return matches, false, nil
	}
	return createUntilDeadline(ctx, w, "CloneDBInstance", r.ClientToken, send, find)
}

// finder lists the instances an unanswered create may have made; exact says the match is by
// something unique to the request (its token tag), so that even a single match is certain.
type finder func(ctx context.Context) (matches []rdsapi.DBInstanceSummary, exact bool, err error)

// createUntilDeadline resends one create (same token) until it is answered, refused for good, or
// ctx ends; then, if an earlier attempt may have been carried out, it looks for the instance.
func createUntilDeadline(ctx context.Context, w *Waiter, action, token string, send func(context.Context) (string, error), find finder) (string, error) {
	clock := w.clock()
	lo, hi := w.intervals()
	backoff := lo
	var last error
	for attempt := 1; ; attempt++ {
		id, err := send(ctx)
		switch {
		case err == nil && id == "":
			return "", fmt.Errorf("%s: the cloud accepted the request but returned no DBInstanceId", action)
		case err == nil:
			return id, nil
		case ctx.Err() != nil:
			return lookUp(ctx, action, token, context.Cause(ctx), err, find)
		case !resendable(err):
			if last == nil {
				return "", err // refused on the first answer: nothing was created
			}
			return lookUp(ctx, action, token, err, last, find)
		}
		last = err
		tflog.Info(ctx, "RDS create not answered; resending with the same ClientToken", map[string]any{
			"action": action, "attempt": attempt, "client_token": token, "error": err.Error(), "next_in": backoff.String(),
		})
		if !sleep(ctx, clock, backoff) {
			return lookUp(ctx, action, token, context.Cause(ctx), last, find)
		}
		backoff = min(time.Duration(float64(backoff)*backoffFactor), hi)
	}
}

// resendable reports whether a create that failed with err may be sent again with its token:
// throttled, transient and busy answers, and transport failures other than the ones no retry
// cures (a certificate for another host, a per-call budget the endpoint keeps missing is still
// resent: the next call may get through).
func resendable(err error) bool {
	if isAPIError(err) {
		return rdsapi.IsThrottled(err) || rdsapi.IsTransient(err) || rdsapi.IsBusy(err)
	}
	return !rdsapi.IsPermanentTransport(err)
}

// lookUp runs the finder with its own budget (ctx may be over) and turns the result into the
// create's outcome.
func lookUp(ctx context.Context, action, token string, cause, last error, find finder) (string, error) {
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupBudget)
	defer cancel()
	outcome := &UnknownOutcomeError{Action: action, Token: token, Cause: cause, Last: last}
	var matches []rdsapi.DBInstanceSummary
	var exact bool
	var err error
	for backoff := time.Second; ; backoff = min(2*backoff, 10*time.Second) {
		matches, exact, err = find(lctx)
		if err == nil || lctx.Err() != nil {
			break
		}
		select {
		case <-lctx.Done():
		case <-time.After(backoff):
		}
	}
	switch {
	case err != nil:
		outcome.LookupErr = err
	case len(matches) == 1 || (exact && len(matches) > 0):
		sort.Slice(matches, func(i, j int) bool { return matches[i].CreateTime < matches[j].CreateTime })
		outcome.Found = &matches[0]
		return matches[0].DBInstanceID, outcome
	case len(matches) > 1:
		outcome.Candidates = matches
	}
	if errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) || outcome.LookupErr != nil || len(outcome.Candidates) > 0 {
		return "", outcome
	}
	// A permanent refusal after attempts whose outcome was unknown, and no instance: the refusal
	// is the answer.
	return "", fmt.Errorf("%w (no instance was created by an earlier attempt)", cause)
}
