package rdsservice

import "strings"

// The switchover that ends a spec change of an instance with a standby: the cloud moves the
// instance to nodes of the new class (or storage type), then switches the workload over to them,
// a transient disconnection of about 30 seconds, apart from the restart of the change itself
// (Alibaba Cloud, "Change the specifications of an ApsaraDB RDS for MySQL instance" and the
// ACS-RDS-BulkyModifyDBInstanceSpec template; simulator README, Maintenance windows). The program
// shows it as its own operation (EffectSwitchover) and the plan's restart list names it.

// OpSwitchover is the cloud's switchover at the end of a spec change: nothing is sent for it.
const OpSwitchover = "the cloud's switchover to the instance's new nodes"

// switchoverReason is how the plan names it, with the restart of the change it ends.
const switchoverReason = "the change ends with a switchover to the instance's new nodes (a transient disconnection of about 30 seconds)"

// endsWithSwitchover reports whether the order of an existing instance with a standby (not Basic,
// not read-only) moves it to new nodes: a change of class or storage type.
func endsWithSwitchover(in PlanInput, order SpecOrder) bool {
	return in.Prior != nil && in.Role != RoleReadOnly && !strings.EqualFold(strings.TrimSpace(in.Prior.Category), "Basic") &&
		(order.InstanceClass != nil || order.StorageType != nil)
}
