package simulator

import (
	"slices"
	"strings"
)

// Editions (README "Editions"): ModifyDBInstanceSpec upgrades a MySQL instance from the Basic to
// the High-availability edition when it orders a class of the new edition (the ModifyDBInstanceSpec
// reference), with or without Category=HighAvailability. No other edition change is made in place.

// editionAfter is the edition a spec order leaves the instance in. A Basic MySQL instance ordered
// to a High-availability class (or sent Category=HighAvailability) is upgraded; any other Category
// than the current one is refused with OperationDenied.Category (the simulator's own code: the
// cloud's is not documented).
func editionAfter(in *instance, p params, class string) (string, *apiError) {
	want := p.get("Category")
	if want == "" {
		if basicUpgradable(in) && class != in.Class && !offeredAs(in, in.Category, class, in.StorageType) && offeredAs(in, "HighAvailability", class, in.StorageType) {
			return "HighAvailability", nil
		}
		return in.Category, nil
	}
	if !slices.Contains(categories, want) {
		return "", errInvalid("Category", "%q is not an edition (one of %s)", truncate(want), strings.Join(categories, ", "))
	}
	switch {
	case strings.EqualFold(want, in.Category):
		return in.Category, nil
	case basicUpgradable(in) && want == "HighAvailability":
		return want, nil
	}
	return "", newErr(400, "OperationDenied.Category", "The edition of %s cannot change from %s to %s in place; only a MySQL Basic-edition instance is upgraded, to HighAvailability.",
		in.ID, in.Category, truncate(want))
}

// basicUpgradable: a Basic-edition MySQL primary, the only instance whose edition changes in place.
func basicUpgradable(in *instance) bool {
	return in.isMySQL() && in.MasterID == "" && strings.EqualFold(in.Category, "Basic")
}

// offeredAs is offered for the instance's class catalogue of edition category.
func offeredAs(in *instance, category, class, storageType string) bool {
	as := *in
	as.Category = category
	return offered(&as, class, storageType)
}
