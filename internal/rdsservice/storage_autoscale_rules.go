package rdsservice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Storage autoscaling (issue 27 §2): storage_auto_scale on rds_instance, sent with
// ModifyDasInstanceConfig after a create and in place, read back through DAS. While it is on,
// storage is a floor: a disk the cloud grew is not a change, a configured storage above the
// actual size still grows it, and one below it sends nothing (the plan says so once, when the
// configured value changes).

// OpStorageAutoScale is the operation that sends the autoscaling configuration.
const OpStorageAutoScale = "ModifyDasInstanceConfig"

// AttrStorageAutoScale is the attribute the autoscaling rules point at.
const AttrStorageAutoScale = "storage_auto_scale"

const (
	RuleAutoScaleThreshold   RuleID = "storage-auto-scale-threshold"
	RuleAutoScaleUnsupported RuleID = "storage-auto-scale-unsupported"
	RuleAutoScaleUpperBelow  RuleID = "storage-auto-scale-upper-bound-below-storage"
	RuleAutoScaleUpperAbove  RuleID = "storage-auto-scale-upper-bound-above-maximum"
	RuleAutoScaleFloor       RuleID = "storage-auto-scale-storage-below-actual"
	RuleAutoScaleOffBelow    RuleID = "storage-auto-scale-off-below-actual"
	RuleAutoScaleOffUnknown  RuleID = "storage-auto-scale-off-storage-unknown"
)

// AutoScalePlan is what the planner knows of an instance's storage autoscaling.
type AutoScalePlan struct {
	// Want is the configured storage_auto_scale (Enabled false: not configured); WantUnknown is set
	// while it is known only at apply.
	Want        rdsapi.StorageAutoScale
	WantUnknown bool
	// Prior is the configuration the last refresh read back (nil for a create).
	Prior *rdsapi.StorageAutoScale
	// PriorStorage is storage in the state: the floor the user configured while autoscaling is on
	// (Prior.Storage is the instance's actual size).
	PriorStorage int64
}

// On reports whether autoscaling is on before or after this apply: storage is a floor then.
func (a AutoScalePlan) On() bool {
	return a.Want.Enabled || a.WantUnknown || (a.Prior != nil && a.Prior.Enabled)
}

// AutoScaleThresholds are StorageThreshold's values: free space, percent.
var AutoScaleThresholds = []int64{10, 20, 30, 40, 50}

// AutoScaleMaxStorage is the largest upper bound per storage type (ModifyDasInstanceConfig
// reference: 32,000 GB for ESSDs, 6,000 GB for standard SSDs).
func AutoScaleMaxStorage(storageType string) int64 {
	if storageType == "cloud_ssd" {
		return 6000
	}
	return 32000
}

// storageFloored reports whether storage is a floor in this plan: autoscaling is on before or
// after it, and the configured storage is at or below the actual size, which the plan keeps.
func storageFloored(in PlanInput) bool {
	c := in.Desired.Storage
	return in.Prior != nil && len(in.Replace) == 0 && in.Desired.AutoScale.On() && c.IsKnown() && c.Value() <= in.Prior.Storage
}

// applyStorageFloor returns the input with storage as a floor: while autoscaling is on, a
// configured storage at or below the actual size is the actual size (nothing to send). The
// warning is raised only when the configured value differs from the state's, so it shows once.
// Turning autoscaling off below the actual size is refused: storage would then be the disk's size,
// and the state would say less than the disk has.
func applyStorageFloor(in PlanInput, d *Decision) PlanInput {
	a, c := in.Desired.AutoScale, in.Desired.Storage
	if in.Prior != nil && len(in.Replace) == 0 && c.IsUnknown() && turnsAutoScaleOff(a) {
		d.add(problem(RuleAutoScaleOffUnknown, "", in.Label, in.Prior.Storage)) // issue 39 §3: the refusal below, named as possible
	}
	if !storageFloored(in) {
		return in
	}
	switch {
	case c.Value() < in.Prior.Storage && turnsAutoScaleOff(a):
		d.add(problem(RuleAutoScaleOffBelow, fmt.Sprint(c.Value()), c.Value(), in.Label, in.Prior.Storage))
	case c.Value() < in.Prior.Storage && c.Value() != a.PriorStorage:
		d.add(problem(RuleAutoScaleFloor, fmt.Sprint(c.Value()), c.Value(), in.Label, in.Prior.Storage))
	}
	in.Desired.Storage = Known(in.Prior.Storage)
	return in
}

// turnsAutoScaleOff reports whether this plan turns autoscaling off.
func turnsAutoScaleOff(a AutoScalePlan) bool {
	return a.Prior != nil && a.Prior.Enabled && !a.Want.Enabled && !a.WantUnknown
}

// checkStorageAutoScale raises the autoscaling rules of a known configuration.
func checkStorageAutoScale(in PlanInput, d *Decision) {
	a, c := in.Desired.AutoScale, in.Desired
	if !a.Want.Enabled {
		return
	}
	if !slices.Contains(AutoScaleThresholds, a.Want.Threshold) {
		d.add(problem(RuleAutoScaleThreshold, fmt.Sprint(a.Want.Threshold), a.Want.Threshold))
	}
	storageType, category := c.StorageType.Or(""), c.Category.Or("")
	if in.Prior != nil {
		category = in.Prior.Category
	}
	if storageType == "local_ssd" || (strings.EqualFold(c.Engine.Or("MySQL"), "MySQL") && category != "" && category != "HighAvailability") {
		d.add(problem(RuleAutoScaleUnsupported, "true", in.Label, c.Engine.Or("MySQL"), firstNonEmpty(category, "?"), firstNonEmpty(storageType, "?")))
		return
	}
	floor := c.Storage.Or(0)
	if in.Prior != nil {
		floor = max(floor, in.Prior.Storage)
	}
	if a.Want.UpperBound < floor {
		d.add(problem(RuleAutoScaleUpperBelow, fmt.Sprint(a.Want.UpperBound), a.Want.UpperBound, floor))
	}
	if storageType != "" && a.Want.UpperBound > AutoScaleMaxStorage(storageType) {
		d.add(problem(RuleAutoScaleUpperAbove, fmt.Sprint(a.Want.UpperBound), a.Want.UpperBound, AutoScaleMaxStorage(storageType), storageType))
	}
}
