package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// What rds_account, rds_database and rds_account_privilege share: instance facts for the rules,
// problems as diagnostics, import ids, and the retry-while-busy write.

const (
	// accessTimeout is the default for every create, update and delete: long enough to wait out
	// a restart of the instance (a class change can take tens of minutes).
	accessTimeout = 30 * time.Minute
	// accessLookupTimeout bounds the reads a plan makes.
	accessLookupTimeout = time.Minute
)

// instanceFacts reads the instance into facts. A missing instance is not an error here: at plan
// time it may be about to be created; known reports whether the facts are filled in.
func instanceFacts(ctx context.Context, data *ProviderData, instanceID string, facts *rdsservice.AccessFacts) (known bool, err error) {
	attr, err := data.API.DescribeDBInstanceAttribute(ctx, instanceID)
	if rdsapi.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	rdsservice.AccessFactsFromAttribute(facts, attr)
	return true, nil
}

// otherSuper names a privileged account on the instance other than name ("" when none).
func otherSuper(ctx context.Context, data *ProviderData, instanceID, name string) (string, error) {
	accounts, err := rdsservice.ListAllAccounts(ctx, data.API, instanceID)
	if err != nil {
		return "", err
	}
	for _, a := range accounts {
		if a.AccountType == rdsapi.AccountTypeSuper && a.AccountName != name {
			return a.AccountName, nil
		}
	}
	return "", nil
}

// withoutUnknown drops problems about attributes whose value is not known yet (they are checked
// again once it is).
func withoutUnknown(problems []rdsservice.Problem, unknown map[string]bool) []rdsservice.Problem {
	var out []rdsservice.Problem
	for _, p := range problems {
		if !unknown[p.Attribute] {
			out = append(out, p)
		}
	}
	return out
}

// unknownAttrs lists the attributes (by name) whose values are unknown.
func unknownAttrs(values map[string]interface{ IsUnknown() bool }) map[string]bool {
	out := map[string]bool{}
	for name, v := range values {
		if v.IsUnknown() {
			out[name] = true
		}
	}
	return out
}

// splitImportID splits "<a>:<b>[:<c>]" into exactly n non-empty parts.
func splitImportID(id string, n int, format, example string, diags *diag.Diagnostics) []string {
	parts := strings.Split(strings.TrimSpace(id), ":")
	if len(parts) != n {
		parts = nil
	}
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			parts = nil
			break
		}
	}
	if parts == nil {
		diags.AddError("Invalid import id", fmt.Sprintf("Expected %s, e.g. %s; got %q.", format, example, id))
	}
	return parts
}

// retryWrite sends a write, retrying while the instance is busy (a restart answers
// IncorrectDBInstanceState) or the API throttles, within ctx's deadline.
func retryWrite(ctx context.Context, data *ProviderData, fn func() error) error {
	return data.Waiter.RetryBusy(ctx, fn)
}

// gone reports whether err says the instance itself is gone, or being released (its accounts and
// databases go with it): a delete then has nothing left to do.
func gone(err error) bool {
	var stuck *rdsservice.InstanceStateError
	return rdsapi.IsNotFound(err) || (errors.As(err, &stuck) && stuck.Status == rdsservice.StatusDeleting)
}

// stringOrNull keeps null for an empty value the configuration left unset, so "" from the cloud
// does not show as a change.
func stringOrNull(current types.String, reported string) types.String {
	if reported == "" && current.IsNull() {
		return types.StringNull()
	}
	return types.StringValue(reported)
}

// importByInstanceAndName imports an account or a database by `<instance_id>:<name>`: id,
// instance_id and name; Read fills in the rest.
func importByInstanceAndName(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, example string) {
	parts := splitImportID(req.ID, 2, "<instance_id>:<name>", example, &resp.Diagnostics)
	if parts == nil {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[0]+":"+parts[1])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), parts[1])...)
}

// waitStatus polls find until the item is listed with the wanted status, and returns it.
// what names it in messages ("account app on rm-1").
func waitStatus[T any](ctx context.Context, data *ProviderData, what, want string, find func() (*T, error), status func(*T) string) (*T, error) {
	var item *T
	err := data.Waiter.Poll(ctx, fmt.Sprintf("%s to be %s", what, want), func() (bool, string, error) {
		it, err := find()
		if err != nil {
			return false, "", err
		}
		if it == nil {
			return false, "not listed yet", nil
		}
		item = it
		return status(it) == want, "status " + status(it), nil
	})
	return item, err
}

// waitUnlisted polls find until the item is no longer listed (or its instance is gone).
func waitUnlisted[T any](ctx context.Context, data *ProviderData, what string, find func() (*T, error)) error {
	return data.Waiter.Poll(ctx, what+" to be deleted", func() (bool, string, error) {
		it, err := find()
		if gone(err) {
			return true, "", nil
		}
		return it == nil, "still listed", err
	})
}

// accessDeadline bounds one operation of an account, database or privilege by its timeouts block
// (accessTimeout when unset); it reports false, with the diagnostics, when the block is invalid.
func accessDeadline(ctx context.Context, budget func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	d, problems := budget(ctx, accessTimeout)
	diags.Append(problems...)
	if diags.HasError() {
		return ctx, func() {}, false
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, true
}

// deleteListed deletes one account or database (what) and waits until the instance no longer lists
// it; one the instance does not have counts as deleted.
func deleteListed[T any](ctx context.Context, data *ProviderData, what, call, notFoundCode, id, name string,
	del func() error, find func() (*T, error), diags *diag.Diagnostics) {
	err := retryWrite(ctx, data, del)
	switch {
	case gone(err) || rdsapi.ErrorCode(err) == notFoundCode:
		return
	case err != nil:
		diags.AddError("Error deleting RDS "+what, fmt.Sprintf("%s %s on %s: %v", call, name, id, err))
		return
	}
	if err := waitUnlisted(ctx, data, fmt.Sprintf("%s %s on %s", what, name, id), find); err != nil {
		diags.AddError("Error waiting for RDS "+what+" deletion", err.Error())
	}
}
