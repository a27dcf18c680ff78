package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// writeState copies what the cloud reports into m. Inputs the cloud spells differently keep the
// configured spelling; a missing or malformed answer is an error, never raw text in state. Empty
// optional values are null, so that a configuration generated from the state passes validation.
func (r *instanceResource) writeState(a *rdsapi.DBInstanceAttribute, m *instanceModel, diags *diag.Diagnostics) {
	if a == nil {
		diags.AddError("Error reading RDS instance", "the cloud returned no instance attributes")
		return
	}
	v := viewOf(a, diags)
	m.ID = v.ID
	m.Engine = keepSpelling(m.Engine, a.Engine)
	m.EngineVersion = keepSpelling(m.EngineVersion, string(a.EngineVersion))
	m.InstanceType = v.InstanceType
	m.Storage, m.StorageActual = v.Storage, v.Storage
	m.StorageType = keepSpelling(m.StorageType, a.DBInstanceStorageType)
	m.Category = keepSpelling(m.Category, a.Category)
	m.ZoneID = v.ZoneID
	m.VpcID = emptyAsNull(v.VpcID)
	m.VSwitchID = emptyAsNull(v.VSwitchID)
	secondaryZones(a, m)
	m.InstanceName = emptyAsNull(v.InstanceName)
	m.DeletionProtection = v.DeletionProtection
	m.Status = v.Status
	m.LockMode = v.LockMode
	m.ConnectionString = v.ConnectionString
	m.CreationTime = v.CreationTime
	if !isKnown(m.PurchaseTime) || m.PurchaseTime.ValueString() == "" {
		m.PurchaseTime = v.CreationTime
	}
	m.InstructionSetArch = v.Architecture
	m.Port = v.Port
	m.AtomicWrite16K, m.AtomicWrite16KSupported = v.AtomicWrite16K, v.AtomicWrite16KSupported
	m.BufferPoolExtension = v.BufferPoolExtension
	m.SecurityIPs = v.SecurityIPs
	m.ReadOnlyInstanceIDs = v.ReadOnlyInstanceIDs
	m.MaintenanceWindow = types.StringValue(a.MaintainTime)
	m.ResourceGroupID = emptyAsNull(types.StringValue(a.ResourceGroupID))
	writeMinorVersion(a, m)
	if !isKnown(m.ScheduledChange) {
		m.ScheduledChange = types.ObjectNull(scheduledChangeAttrTypes)
	}
	if m.ApplyRestarts.IsNull() || m.ApplyRestarts.IsUnknown() {
		m.ApplyRestarts = types.StringValue(rdsservice.ApplyRestartsImmediately)
	}
	if m.RestoreFrom.IsUnknown() {
		m.RestoreFrom = types.ObjectNull(restoreFromAttrTypes)
	}
}

func networkType(m instanceModel) string {
	if m.VpcID.ValueString() != "" || m.VSwitchID.ValueString() != "" {
		return rdsapi.NetworkTypeVPC
	}
	return ""
}

func instanceLabel(m instanceModel) string {
	id := m.ID.ValueString()
	if name := m.InstanceName.ValueString(); name != "" && name != id {
		return fmt.Sprintf("%s (%s)", id, name)
	}
	return id
}

// instanceModel maps rds_instance.
type instanceModel struct {
	ID                      types.String   `tfsdk:"id"`
	Engine                  types.String   `tfsdk:"engine"`
	EngineVersion           types.String   `tfsdk:"engine_version"`
	InstanceType            types.String   `tfsdk:"instance_type"`
	Storage                 types.Int64    `tfsdk:"storage"`
	StorageType             types.String   `tfsdk:"storage_type"`
	ReleasedKeepPolicy      types.String   `tfsdk:"released_keep_policy"`
	Category                types.String   `tfsdk:"category"`
	ZoneID                  types.String   `tfsdk:"zone_id"`
	VpcID                   types.String   `tfsdk:"vpc_id"`
	VSwitchID               types.String   `tfsdk:"vswitch_id"`
	ZoneIDSlaveA            types.String   `tfsdk:"zone_id_slave_a"`
	ZoneIDSlaveB            types.String   `tfsdk:"zone_id_slave_b"`
	InstanceName            types.String   `tfsdk:"instance_name"`
	SecurityIPs             types.Set      `tfsdk:"security_ips"`
	DeletionProtection      types.Bool     `tfsdk:"deletion_protection"`
	AtomicWrite16K          types.Bool     `tfsdk:"atomic_write_16k"`
	BufferPoolExtension     types.Bool     `tfsdk:"buffer_pool_extension"`
	PreventRestart          types.Bool     `tfsdk:"prevent_restart"`
	RestoreFrom             types.Object   `tfsdk:"restore_from"`
	Timeouts                timeouts.Value `tfsdk:"timeouts"`
	Status                  types.String   `tfsdk:"status"`
	LockMode                types.String   `tfsdk:"lock_mode"`
	ConnectionString        types.String   `tfsdk:"connection_string"`
	Port                    types.Int64    `tfsdk:"port"`
	CreationTime            types.String   `tfsdk:"creation_time"`
	PurchaseTime            types.String   `tfsdk:"purchase_time"`
	InstructionSetArch      types.String   `tfsdk:"instruction_set_arch"`
	AtomicWrite16KSupported types.Bool     `tfsdk:"atomic_write_16k_supported"`
	ReadOnlyInstanceIDs     types.List     `tfsdk:"read_only_instance_ids"`
	MaintenanceWindow       types.String   `tfsdk:"maintenance_window"`
	ApplyRestarts           types.String   `tfsdk:"apply_restarts"`
	ScheduledChange         types.Object   `tfsdk:"scheduled_change"`
	Parameters              types.Map      `tfsdk:"parameters"`
	ParametersPending       types.Map      `tfsdk:"parameters_pending"`
	ParameterGroupID        types.String   `tfsdk:"parameter_group_id"`
	ParameterGroupValues    types.Map      `tfsdk:"parameter_group_values"`
	MonitoringPeriod        types.Int64    `tfsdk:"monitoring_period"`
	HAConfig                types.Object   `tfsdk:"ha_config"`
	SyncMode                types.String   `tfsdk:"sync_mode"`
	// SSL and TDE (instance_security.go).
	SSLEnabled       types.Bool   `tfsdk:"ssl_enabled"`
	SSLExpireTime    types.String `tfsdk:"ssl_expire_time"`
	TDEEnabled       types.Bool   `tfsdk:"tde_enabled"`
	TDEEncryptionKey types.String `tfsdk:"tde_encryption_key"`
	TDERoleArn       types.String `tfsdk:"tde_role_arn"`
	Tags             types.Map    `tfsdk:"tags"`
	TagsAll          types.Map    `tfsdk:"tags_all"`
	ResourceGroupID  types.String `tfsdk:"resource_group_id"`
	// Minor version (instance_minor_version.go).
	TargetMinorVersion      types.String `tfsdk:"target_minor_version"`
	MinorVersion            types.String `tfsdk:"minor_version"`
	AutoUpgradeMinorVersion types.String `tfsdk:"auto_upgrade_minor_version"`
	// Storage autoscaling (storage_autoscale.go).
	StorageAutoScale types.Object `tfsdk:"storage_auto_scale"`
	StorageActual    types.Int64  `tfsdk:"storage_actual"`
	// SQL audit and the data-loss guard (sql_audit.go).
	SQLAudit        types.Object `tfsdk:"sql_audit"`
	PreventDataLoss types.Bool   `tfsdk:"prevent_data_loss"`
	// Endpoints (endpoints.go).
	ConnectionStringPrefix types.String `tfsdk:"connection_string_prefix"`
	PublicEndpoint         types.Object `tfsdk:"public_endpoint"`
	PublicConnectionString types.String `tfsdk:"public_connection_string"`
	PreventEndpointChange  types.Bool   `tfsdk:"prevent_endpoint_change"`
	// Subscription billing (billing.go).
	Billing          types.Object `tfsdk:"billing"`
	PrepaidOnDestroy types.String `tfsdk:"prepaid_on_destroy"`
	ExpireTime       types.String `tfsdk:"expire_time"`
	// Named IP lists (ip_groups.go).
	SecurityIPGroups types.Map `tfsdk:"security_ip_groups"`
	SecurityGroupIDs types.Set `tfsdk:"security_group_ids"`
	// Linked whitelist templates (whitelist_template_links.go).
	WhitelistTemplateIDs types.Set `tfsdk:"whitelist_template_ids"`
}

// restoreFromModel maps restore_from.
type restoreFromModel struct {
	SourceInstanceID    types.String `tfsdk:"source_instance_id"`
	BackupID            types.String `tfsdk:"backup_id"`
	RestoreTime         types.String `tfsdk:"restore_time"`
	CrossRegionBackupID types.String `tfsdk:"cross_region_backup_id"`
	SourceRegion        types.String `tfsdk:"source_region"`
}

var restoreFromAttrTypes = map[string]attr.Type{
	"source_instance_id":     types.StringType,
	"backup_id":              types.StringType,
	"restore_time":           types.StringType,
	"cross_region_backup_id": types.StringType,
	"source_region":          types.StringType,
}

// restoreFrom returns restore_from, or nil when it is not set (or not known yet).
func (m instanceModel) restoreFrom(ctx context.Context, diags *diag.Diagnostics) *restoreFromModel {
	if !isKnown(m.RestoreFrom) {
		return nil
	}
	var rf restoreFromModel
	diags.Append(m.RestoreFrom.As(ctx, &rf, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	return &rf
}

// knownOrNull returns a copy fit for state: unknown computed values become null.
func (m instanceModel) knownOrNull() instanceModel {
	nullUnknowns(context.Background(), &m)
	return m
}
