package rdsservice

import (
	"encoding/json"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// ScheduledFromOf is the spec the instance runs while a change waits for the window, as the
// resource's private state records it (raw); nil when nothing waits.
func ScheduledFromOf(raw []byte) (*SpecValues, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var v SpecValues
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// Running is m with the spec the instance runs while a change waits for the maintenance window
// (running, the private state's record; nil when none waits) as its prior state: the state holds
// the requested values (PendingClass keeps its class), and the planner compares the configuration
// with the instance's.
func (m ModelRequest) Running(running *SpecValues) ModelRequest {
	m.SpecPending, m.From = running != nil, running
	if running == nil || m.State.IsNull() || !m.State.IsKnown() {
		return m
	}
	m.PendingClass = m.State.Get(AttrInstanceType).String() // the class the waiting change makes, as the state records it
	attrs := make(map[string]AttrValue, len(m.State.attrs))
	for name, v := range m.State.attrs {
		attrs[name] = v
	}
	attrs[AttrInstanceType], attrs["storage"], attrs["storage_type"] = StringAttr(running.InstanceType), IntAttr(running.Storage), StringAttr(running.StorageType)
	attrs["atomic_write_16k"], attrs["atomic_write_16k_supported"] = BoolAttr(running.AtomicWrite), BoolAttr(running.AtomicWriteSupport)
	if m.State.Has("buffer_pool_extension") {
		attrs["buffer_pool_extension"] = BoolAttr(running.BufferPoolExtension)
	}
	for name, v := range map[string]string{AttrEngineVersion: running.EngineVersion, AttrCategory: running.Category, "instruction_set_arch": running.Architecture} {
		if v != "" {
			attrs[name] = StringAttr(v)
		}
	}
	m.State = ObjectAttr(attrs)
	return m
}

// HoldsSpec: while task waits, the instance runs the spec (or version) kept in private state
// (ScheduledFromOf), and the state holds the requested one.
func HoldsSpec(task *rdsapi.HistoryTask) bool {
	return task != nil && (task.TaskType == rdsapi.TaskTypeModifySpec || task.TaskType == rdsapi.TaskTypeUpgradeEngineVersion)
}
