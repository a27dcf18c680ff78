package rdsservice

import (
	"context"
	"fmt"
	"sort"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// security sends one security operation and waits until the instance is Running again.
func (x *executor) security(ctx context.Context, op Operation) error {
	attr, err := x.w.WaitRunning(ctx, x.out.ID)
	if err != nil {
		return err
	}
	switch op.Action {
	case OpModifySSL:
		err = x.w.RetryBusy(ctx, func() error {
			return x.api.ModifyDBInstanceSSL(ctx, &rdsapi.ModifyDBInstanceSSLRequest{DBInstanceID: x.out.ID, ConnectionString: attr.ConnectionString, Enabled: *op.Flag})
		})
	default:
		want := x.e.Plan.Desired.Security
		err = x.w.RetryBusy(ctx, func() error {
			return x.api.ModifyDBInstanceTDE(ctx, &rdsapi.ModifyDBInstanceTDERequest{DBInstanceID: x.out.ID, EncryptionKey: want.TDEKey, RoleARN: want.TDERole})
		})
	}
	if err != nil {
		return err
	}
	x.stale = true
	attr, err = x.w.WaitRunning(ctx, x.out.ID)
	if err != nil {
		return err
	}
	x.read(attr)
	return nil
}

// sqlAudit runs an OpSQLAudit.
func (x *executor) sqlAudit(ctx context.Context, op Operation) error {
	if op.SQLAudit == nil {
		return fmt.Errorf("the sql_audit of %s is not known at apply", x.out.ID)
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ModifySqlLogConfig(ctx, x.out.ID, *op.SQLAudit) })
}

// storageAutoScale runs an OpStorageAutoScale.
func (x *executor) storageAutoScale(ctx context.Context, op Operation) error {
	if op.AutoScale == nil {
		return fmt.Errorf("the storage_auto_scale of %s is not known at apply", x.out.ID)
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ModifyDasInstanceConfig(ctx, x.out.ID, *op.AutoScale) })
}

// windowStorage is the storage an order for the window carries: none (0, not sent) while
// autoscaling is on and the order leaves the disk as it is now, so that the disk the cloud grows
// before the window opens is kept (issue 39 item 3); else targetStorage.
func (x *executor) windowStorage() int64 {
	target := x.targetStorage()
	if prior := x.e.Plan.Prior; prior != nil && x.e.Plan.Desired.AutoScale.On() && target == prior.Storage {
		return 0
	}
	return target
}

// targetStorage is the storage an order for the window carries: the planned storage, or the
// actual size when autoscaling grew the disk above that floor (an order never shrinks it).
func (x *executor) targetStorage() int64 {
	// The disk is a floor while autoscaling is on, and for a read-only instance whose disk grew
	// with its primary's (ReadOnlyDiskFloor: its storage is then planned as the disk).
	if prior := x.e.Plan.Prior; prior != nil && (x.e.Plan.Desired.AutoScale.On() || x.e.Plan.Role == RoleReadOnly && x.e.Plan.Desired.Storage.Is(prior.Storage)) {
		return max(x.e.TargetStorage, prior.Storage)
	}
	return x.e.TargetStorage
}

// tags runs an OpTags or OpModifyResourceGroup. The change sent is computed from the instance's
// tags as read now, not as the last refresh saw them: a tag added outside Terraform since then, or
// on an instance whose tags were not managed until this apply (and so not read), is removed too,
// and the state the apply writes is what the cloud has.
func (x *executor) tags(ctx context.Context, op Operation) error {
	if op.Action == OpModifyResourceGroup {
		return x.w.RetryBusy(ctx, func() error { return x.api.ModifyResourceGroup(ctx, x.out.ID, op.ResourceGroup) })
	}
	if op.Tags == nil {
		return fmt.Errorf("the tags of %s are not known at apply", x.out.ID)
	}
	current, err := ReadTags(ctx, x.api, []string{x.out.ID})
	if err != nil {
		return err
	}
	return ApplyTagChange(ctx, x.api, x.w, x.out.ID, ChangeFrom(current[x.out.ID], x.e.Plan.Desired.Tags.Want))
}

// ApplyTagChange sends a change in calls of at most 20 keys, removals first.
func ApplyTagChange(ctx context.Context, api rdsapi.API, w *Waiter, id string, c TagChange) error {
	for _, keys := range chunks(c.Remove, rdsapi.MaxTagsPerCall) {
		req := &rdsapi.UntagResourcesRequest{ResourceIDs: []string{id}, TagKeys: keys}
		if err := w.RetryBusy(ctx, func() error { return api.UntagResources(ctx, req) }); err != nil {
			return fmt.Errorf("UntagResources %s: %w", id, err)
		}
	}
	keys := make([]string, 0, len(c.Set))
	for k := range c.Set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, part := range chunks(keys, rdsapi.MaxTagsPerCall) {
		req := &rdsapi.TagResourcesRequest{ResourceIDs: []string{id}}
		for _, k := range part {
			req.Tags = append(req.Tags, rdsapi.Tag{Key: k, Value: c.Set[k]})
		}
		if err := w.RetryBusy(ctx, func() error { return api.TagResources(ctx, req) }); err != nil {
			return fmt.Errorf("TagResources %s: %w", id, err)
		}
	}
	return nil
}
