package rdsservice

import "time"

// What an instance resource's configuration (or plan) alone refuses, read from its objects
// (AttrValue). The plan runs these rather than ValidateConfig: Terraform stops before planning when
// validation fails, and the plan's other refusals would then surface one plan later (issue 41
// §2.12). Unknown values are skipped; the apply plans again once they are known.

// DefaultStorageType is rds_instance's storage_type when unset.
const DefaultStorageType = "cloud_essd"

// CheckInstanceConfig is what an rds_instance configuration alone refuses.
func CheckInstanceConfig(config AttrValue) []Problem {
	storageType := config.Get(AttrStorageType).Str()
	if storageType.IsNull() {
		storageType = Known(DefaultStorageType)
	}
	problems := CheckMaintenanceWindow(config.Get(AttrMaintenanceWindow).Str())
	problems = append(problems, CheckConfig(Desired{Engine: config.Get(AttrEngine).Str(), EngineVersion: config.Get(AttrEngineVersion).Str(),
		StorageType: storageType, AtomicWrite: config.Get(AttrAtomicWrite).Bool(), BufferPoolExtension: config.Get(AttrBufferPoolExtension).Bool()})...)
	if rf := config.Get("restore_from"); rf.IsKnown() {
		problems = append(problems, CheckRestoreFrom(rf.Get("backup_id").Str(), rf.Get("restore_time").Str(), rf.Get("cross_region_backup_id").Str(),
			rf.Get("source_region").Str())...)
	}
	problems = append(problems, CheckSecurityConfig(config.Get("tde_enabled").Bool(), config.Get("tde_encryption_key").Str(), config.Get("tde_role_arn").Str())...)
	return append(problems, CheckMinorVersionConfig(config.Get(AttrTargetMinorVersion).Str())...)
}

// CheckReadOnlyConfig is what an rds_readonly_instance configuration alone refuses.
func CheckReadOnlyConfig(config AttrValue) []Problem {
	var problems []Problem
	if class := config.Get(AttrInstanceType); class.IsKnown() {
		problems = CheckReadOnlyClassShape(class.String())
	}
	return append(problems, CheckMaintenanceWindow(config.Get(AttrMaintenanceWindow).Str())...)
}

// CheckReleasedKeep checks the planned released_keep_policy against the storage type and the
// instance's creation date (state null: a new instance, created now).
func CheckReleasedKeep(plan, state AttrValue, now time.Time) []Problem {
	keep, storageType := plan.Get(AttrReleasedKeepPolicy), plan.Get(AttrStorageType)
	if !keep.IsKnown() || !storageType.IsKnown() {
		return nil
	}
	created := now
	if !state.IsNull() {
		created, _ = ParseAPITime(state.Get("creation_time").String()) // zero when unknown: the date rule waits
	}
	return CheckReleasedKeepPolicy(keep.String(), storageType.String(), created)
}
