package rdsservice

import "maps"

// A parameter group changed in the same run as the instances that use it (P8). Terraform plans an
// rds_parameter_group before the instances whose parameter_group_id references it, in one provider
// process: the group's plan records its planned parameters in the run's Ledger, and each instance's
// plan takes them instead of the group as the cloud has it still. The instance's
// parameter_group_values then changes in its plan, its restarts are named, and its apply (after the
// group's own update) sends ModifyParameter with ParameterGroupId again.

// RecordGroup records the parameters this run's plan gives existing group id (nil: known only at
// apply).
func (l *Ledger) RecordGroup(id string, values map[string]string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.groups == nil {
		l.groups = map[string]map[string]string{}
	}
	l.groups[id] = maps.Clone(values)
}

// Group is the parameters this run's plan gives group id, and whether it plans the group.
func (l *Ledger) Group(id string) (map[string]string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.groups[id]
	return maps.Clone(v), ok
}
