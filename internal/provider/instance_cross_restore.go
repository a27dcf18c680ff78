package provider

import (
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// restore_from.cross_region_backup_id (issue 46 §2): the provider converts; the rules are
// rdsservice's (cross_restore.go).

// crossRestore is restore_from's cross-region backup (nil: none, or a part not known yet).
func (rf restoreFromModel) crossRestore() *rdsservice.CrossRestore {
	if !isKnown(rf.CrossRegionBackupID) || rf.CrossRegionBackupID.ValueString() == "" || !isKnown(rf.SourceInstanceID) || !isKnown(rf.SourceRegion) {
		return nil
	}
	return &rdsservice.CrossRestore{SourceID: rf.SourceInstanceID.ValueString(), SourceRegion: rf.SourceRegion.ValueString(),
		CopyID: rf.CrossRegionBackupID.ValueString()}
}

// ddrRequest is the CreateDdrInstance of a planned restore from a cross-region backup, in the
// provider's region (the plan checked that the copy is held there).
func ddrRequest(region string, rf restoreFromModel, plan instanceModel, ips []string) *rdsapi.CreateDdrInstanceRequest {
	return &rdsapi.CreateDdrInstanceRequest{
		RegionID: region, SourceRegion: rf.SourceRegion.ValueString(), SourceDBInstanceID: rf.SourceInstanceID.ValueString(),
		BackupSetID: rf.CrossRegionBackupID.ValueString(), Engine: plan.Engine.ValueString(), EngineVersion: plan.EngineVersion.ValueString(),
		DBInstanceClass: plan.InstanceType.ValueString(), DBInstanceStorage: plan.Storage.ValueInt64(),
		DBInstanceStorageType: plan.StorageType.ValueString(), PayType: rdsapi.PayTypePostpaid, ZoneID: plan.ZoneID.ValueString(),
		VPCID: plan.VpcID.ValueString(), VSwitchID: plan.VSwitchID.ValueString(), SecurityIPList: strings.Join(ips, ","),
	}
}
