package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// A change waiting for the maintenance window that Terraform did not order (the console, another
// tool): the refresh finds it and records it as an import does (scheduled_change lists it, the
// spec attributes hold its target, private state the instance's spec), so that the plan compares
// the configuration with it. A configuration that keeps the instance's spec shows as a change
// that cancels it; one that asks for the target shows no change, and the plan names the restart
// the task makes in the window (rdsservice.PendingChange), as it does for a task imported or
// left by an earlier deferred apply.

// regionTasks is the spec changes waiting in the region's task centre, read once per provider
// process (one DescribeHistoryTasks for every instance of a refresh).
type regionTasks struct {
	once  sync.Once
	tasks map[string]*rdsapi.HistoryTask
}

// pendingSpecTask is the spec change waiting for instance id's window, or nil.
func (p *ProviderData) pendingSpecTask(ctx context.Context, id string) *rdsapi.HistoryTask {
	p.tasks.once.Do(func() {
		out, err := p.API.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{TaskType: rdsapi.TaskTypeModifySpec,
			Status: rdsapi.TaskStatusScheduled + "," + rdsapi.TaskStatusWaiting})
		if err != nil {
			// The refresh goes on without it; the plan then cannot name that task's restart.
			tflog.Warn(ctx, "reading the region's scheduled changes failed", map[string]any{"error": err.Error()})
			return
		}
		p.tasks.tasks = map[string]*rdsapi.HistoryTask{}
		for i := range out.Items {
			t := &out.Items[i]
			if prev := p.tasks.tasks[t.InstanceID]; prev == nil || t.StartTime > prev.StartTime {
				p.tasks.tasks[t.InstanceID] = t
			}
		}
	})
	return p.tasks.tasks[id]
}

// adoptPending records a spec change waiting for the window that the state does not know of:
// seen (the instance as just read) takes the task's target, private state keeps seen as it was.
func (p *ProviderData) adoptPending(ctx context.Context, s scheduledRead, seen specFields, diags *diag.Diagnostics) types.Object {
	id, engine, window, private := s.id, s.engine, s.window, s.private
	task := p.pendingSpecTask(ctx, id)
	scheduled := rdsservice.ScheduledTaskOf(task)
	if scheduled == nil || scheduled.Spec == nil {
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	before := specOf(seen)
	cur := rdsservice.ExistingInstance{ID: id, Engine: engine, InstanceClass: before.InstanceType, Storage: before.Storage,
		StorageType: before.StorageType, Enabled: before.AtomicWrite, Supported: before.AtomicWriteSupport, BufferPoolExtension: before.BufferPoolExtension}
	spec := scheduled.Spec
	target := specValues{InstanceType: spec.InstanceClass, Storage: spec.Storage, StorageType: spec.StorageType, AtomicWrite: spec.AtomicWrite,
		AtomicWriteSupport: before.AtomicWriteSupport, BufferPoolExtension: spec.BufferPoolExtension}
	if seen.BufferPoolExtension == nil {
		target.BufferPoolExtension = false
	}
	if spec.InstanceClass != "" {
		target.Architecture = rdsservice.Architecture(spec.InstanceClass)
	}
	setSpec(target, seen)
	setScheduledFrom(ctx, private, &before, diags)
	return scheduledChangeValue(ctx, task, window, scheduled.Changes(cur), diags)
}
