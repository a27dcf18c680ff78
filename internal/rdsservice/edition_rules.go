package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// Editions in place (issue 25 §4). RDS upgrades a MySQL instance from the Basic to the
// High-availability edition with ModifyDBInstanceSpec: the order names a class of the new edition
// (and Category), and the instance keeps its id, data and endpoint. It is one spec change like a
// class change: one restart of the single node, deferred by apply_restarts = "in_maintenance_window",
// refused by prevent_restart. Every other edition change (High-availability -> Basic, to or from
// Cluster, another engine) is a replacement, named as one (simulator README, Editions).

const (
	CategoryBasic            = "Basic"
	CategoryHighAvailability = "HighAvailability"
)

// editionSource is where the edition rules come from.
const editionSource = "cloud facts: ModifyDBInstanceSpec reference (an edition upgrade orders a class of the new edition) and \"Change configuration\" (simulator README, Editions)"

// editionUpgradeEffect is what the upgrade does to the service (assumption: one restart of the
// single node, as long as a Basic-edition restart: the cloud builds the standby first).
const editionUpgradeEffect = "edition upgrade in place: the cloud adds a standby node, and the single node restarts once"

// IsEditionUpgrade reports whether a category change is the one the cloud makes in place: MySQL,
// Basic to High-availability.
func IsEditionUpgrade(engine, from, to string) bool {
	return IsMySQL(engine) && strings.EqualFold(strings.TrimSpace(from), CategoryBasic) &&
		strings.EqualFold(strings.TrimSpace(to), CategoryHighAvailability)
}

// planEditionUpgrade adds an edition upgrade to the update's spec order and checks its rules. It
// runs after the 16K checks: turning the flag on in the same apply is refused with the order to
// follow instead of rule 3's "only at creation".
func (u *updatePlan) planEditionUpgrade() {
	cur, c, in, d := u.cur, u.c, u.in, u.d
	if !u.upgradesEdition() {
		return
	}
	u.change.Category = CategoryHighAvailability
	d.Order.Category = &u.change.Category
	u.trigger(AttrCategory)
	if c.InstanceClass.IsKnown() && !u.classChanged {
		d.add(problem(RuleEditionUpgradeClass, cur.InstanceClass, in.Label, cur.InstanceClass))
	}
	if i := slices.IndexFunc(d.Problems, func(p Problem) bool { return p.Rule == Rule16KBasicEdition }); i >= 0 {
		d.Problems[i] = problem(RuleEditionUpgrade16K, "true", in.Label)
	}
}

// upgradesEdition reports whether the configuration upgrades a primary's edition in place.
func (u *updatePlan) upgradesEdition() bool {
	return !u.readOnly && u.c.Category.IsKnown() && IsEditionUpgrade(u.cur.Engine, u.cur.Category, u.c.Category.Value())
}

// editionUpgradeReason is the restart's reason for the change's category, "" when the edition
// stays.
func editionUpgradeReason(current ExistingInstance, change SpecChange) string {
	if change.Category == "" || strings.EqualFold(change.Category, current.Category) {
		return ""
	}
	return fmt.Sprintf("category changes from %q to %q (%s)", current.Category, change.Category, editionUpgradeEffect)
}
