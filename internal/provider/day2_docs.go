package provider

// What a change of each day-2 attribute does (issue 25 §5): in place or not, a restart or a
// switchover, and what still replaces. engine_version (instance_day2.go), category (edition.go),
// the zone attributes (zone.go) and target_minor_version (instance_minor_version.go) have theirs
// beside their schema; these are the spec attributes'.

// instanceTypeEffect: a class change is one spec change in place.
const instanceTypeEffect = "Changing it restarts the instance, in place (`ModifyDBInstanceSpec`, one order with the other spec " +
	"changes of the apply): the data, id and endpoint stay; a High-availability or Cluster instance restarts on new nodes and switches over " +
	"to them (a transient disconnection), a Basic-edition instance's single node restarts; the plan names it, `prevent_restart` " +
	"refuses it and `apply_restarts = \"in_maintenance_window\"` defers it. It never replaces the instance; a class of another " +
	"edition is refused at plan, except a High-availability class with `category` Basic -> `HighAvailability` (an edition upgrade)."

// storageTypeEffect: a storage type change is in place, one way.
const storageTypeEffect = "Changing it restarts the instance, in place with the spec change (and switches over for editions " +
	"with a standby), which the plan names; local disks move to cloud disks, never back (refused at plan). It never replaces the instance."

// storageReplaceEffect completes storage's description.
const storageReplaceEffect = "A change never replaces the instance."

// minorVersionReplaceEffect completes target_minor_version's description.
const minorVersionReplaceEffect = "It never replaces the instance."
