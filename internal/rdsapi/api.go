// Package rdsapi is the client side of the ApsaraDB RDS OpenAPI (version 2014-08-15): the API
// interface that resources depend on, typed requests and responses, the typed API error, and the
// HTTPS implementation.
//
// Entry points:
//   - [API] (api.go) is every action the provider calls; rdsservice and the provider depend on it
//     alone, so tests can hand them any implementation.
//   - [New] builds the HTTPS [Client] from a [Config] (config.go): endpoint resolution
//     (endpoint.go), V3 signing per attempt (internal/acssign), retries classified by error code
//     and transport failure (retry.go), per-action pacing (ratelimit.go).
//   - [Error] is an error answer; [IsNotFound], [IsBusy], [IsThrottled], [IsAuth] and [ErrorCode]
//     classify one (errors.go), and a transport failure is explained in words (what to check).
package rdsapi

import "context"

// APIVersion is the RDS OpenAPI version every request names.
const APIVersion = "2014-08-15"

// API is the set of RDS actions the provider uses. Resources depend on this interface, never on
// HTTP, so that unit tests can hand them any implementation.
//
// Every method returns an *Error for a response the cloud rejected, and a plain error for
// transport or decoding failures.
type API interface {
	CreateDBInstance(ctx context.Context, req *CreateDBInstanceRequest) (*CreateDBInstanceResponse, error)
	CreateReadOnlyDBInstance(ctx context.Context, req *CreateReadOnlyDBInstanceRequest) (*CreateDBInstanceResponse, error)
	CloneDBInstance(ctx context.Context, req *CloneDBInstanceRequest) (*CreateDBInstanceResponse, error)

	// DescribeDBInstanceAttribute returns the one instance with the given id, or an *Error whose
	// IsNotFound is true.
	DescribeDBInstanceAttribute(ctx context.Context, dbInstanceID string) (*DBInstanceAttribute, error)
	// DescribeDBInstances returns one page; set MaxResults/NextToken for token paging, or
	// PageNumber/PageSize for classic paging.
	DescribeDBInstances(ctx context.Context, req *DescribeDBInstancesRequest) (*DescribeDBInstancesResponse, error)
	DescribeAvailableClasses(ctx context.Context, req *DescribeAvailableClassesRequest) (*DescribeAvailableClassesResponse, error)
	// DescribeAvailableZones and ListClasses (discovery.go): the zones that offer an engine, and
	// every class's CPU, memory and architecture.
	DescribeAvailableZones(ctx context.Context, req *DescribeAvailableZonesRequest) (*DescribeAvailableZonesResponse, error)
	ListClasses(ctx context.Context, req *ListClassesRequest) (*ListClassesResponse, error)

	ModifyDBInstanceSpec(ctx context.Context, req *ModifyDBInstanceSpecRequest) (*ModifyDBInstanceSpecResponse, error)
	ModifyDBInstanceDescription(ctx context.Context, dbInstanceID, description string) error
	ModifySecurityIps(ctx context.Context, req *ModifySecurityIpsRequest) error
	// DescribeDBInstanceIPArrayList lists every IP allow-list array, hidden ones included
	// (iparrays.go).
	DescribeDBInstanceIPArrayList(ctx context.Context, dbInstanceID string) (*DescribeDBInstanceIPArrayListResponse, error)
	// DescribeSecurityGroupConfiguration and ModifySecurityGroupConfiguration read and set the
	// instance's ECS security groups (security_groups.go).
	DescribeSecurityGroupConfiguration(ctx context.Context, dbInstanceID string) (*SecurityGroupConfiguration, error)
	ModifySecurityGroupConfiguration(ctx context.Context, dbInstanceID string, groupIDs []string) error
	// Whitelist templates (whitelist_templates.go).
	ModifyWhitelistTemplate(ctx context.Context, req *ModifyWhitelistTemplateRequest) error
	DescribeWhitelistTemplate(ctx context.Context, templateID int64) (*WhitelistTemplate, error)
	DescribeAllWhitelistTemplate(ctx context.Context, name string, fuzzy bool, page, perPage int64) (*WhitelistTemplatePage, error)
	AttachWhitelistTemplateToInstance(ctx context.Context, templateID int64, instanceID string) error
	DetachWhitelistTemplateToInstance(ctx context.Context, templateID int64, instanceID string) error
	DescribeInstanceLinkedWhitelistTemplate(ctx context.Context, instanceID string) ([]WhitelistTemplate, error)
	ModifyDBInstanceDeletionProtection(ctx context.Context, dbInstanceID string, enabled bool) error
	RestartDBInstance(ctx context.Context, dbInstanceID string) error
	// DescribeDBInstanceHAConfig and SwitchDBInstanceHA (ha.go): the primary and secondary nodes.
	DescribeDBInstanceHAConfig(ctx context.Context, dbInstanceID string) (*HAConfig, error)
	SwitchDBInstanceHA(ctx context.Context, dbInstanceID, nodeID string) error
	// ModifyDBInstanceHAConfig (ha.go): the replication mode (SyncMode) and HAMode.
	ModifyDBInstanceHAConfig(ctx context.Context, dbInstanceID, syncMode, haMode string) error
	// ModifyHASwitchConfig and DescribeHASwitchConfig (ha_switch.go): automatic switchover.
	ModifyHASwitchConfig(ctx context.Context, dbInstanceID string, cfg HASwitch) error
	DescribeHASwitchConfig(ctx context.Context, dbInstanceID string) (*HASwitch, error)
	DeleteDBInstance(ctx context.Context, dbInstanceID string) error

	// ModifyDBInstanceMaintainTime sets the daily maintenance window ("HH:mmZ-HH:mmZ", UTC), in
	// which spec changes sent with EffectiveTime=MaintainTime run.
	ModifyDBInstanceMaintainTime(ctx context.Context, dbInstanceID, maintainTime string) error
	// DescribeHistoryTasks lists task-centre tasks, among them spec changes deferred to the window.
	DescribeHistoryTasks(ctx context.Context, req *DescribeHistoryTasksRequest) (*DescribeHistoryTasksResponse, error)
	// Accounts, databases and privileges (accounts.go).
	CreateAccount(ctx context.Context, req *CreateAccountRequest) error
	DescribeAccounts(ctx context.Context, req *DescribeAccountsRequest) (*DescribeAccountsResponse, error)
	ResetAccountPassword(ctx context.Context, dbInstanceID, accountName, password string) error
	ModifyAccountDescription(ctx context.Context, dbInstanceID, accountName, description string) error
	DeleteAccount(ctx context.Context, dbInstanceID, accountName string) error
	CreateDatabase(ctx context.Context, req *CreateDatabaseRequest) error
	DescribeDatabases(ctx context.Context, req *DescribeDatabasesRequest) (*DescribeDatabasesResponse, error)
	ModifyDBDescription(ctx context.Context, dbInstanceID, dbName, description string) error
	DeleteDatabase(ctx context.Context, dbInstanceID, dbName string) error
	GrantAccountPrivilege(ctx context.Context, req *GrantAccountPrivilegeRequest) error
	RevokeAccountPrivilege(ctx context.Context, dbInstanceID, accountName string, dbNames []string) error
	// DescribeParameterTemplates, DescribeParameters and ModifyParameter are in parameters.go.
	DescribeParameterTemplates(ctx context.Context, req *DescribeParameterTemplatesRequest) (*DescribeParameterTemplatesResponse, error)
	DescribeParameters(ctx context.Context, dbInstanceID string) (*DescribeParametersResponse, error)
	ModifyParameter(ctx context.Context, req *ModifyParameterRequest) error
	// Parameter groups (parameter_groups.go).
	CreateParameterGroup(ctx context.Context, req *CreateParameterGroupRequest) (string, error)
	ModifyParameterGroup(ctx context.Context, req *ModifyParameterGroupRequest) error
	// The database proxy (proxy.go).
	ModifyDBProxy(ctx context.Context, req *ModifyDBProxyRequest) error
	ModifyDBProxyInstance(ctx context.Context, req *ModifyDBProxyInstanceRequest) error
	ModifyDBProxyEndpoint(ctx context.Context, req *ModifyDBProxyEndpointRequest) error
	ModifyDBProxyEndpointAddress(ctx context.Context, req *ModifyDBProxyEndpointAddressRequest) error // proxy_address.go
	DescribeDBProxy(ctx context.Context, dbInstanceID string) (*DBProxy, error)
	DescribeDBProxyEndpoint(ctx context.Context, dbInstanceID, endpointID string) (*DBProxyEndpoint, error)
	GetDbProxyInstanceSsl(ctx context.Context, dbInstanceID string) (*DBProxySSL, error)
	ModifyDbProxyInstanceSsl(ctx context.Context, dbInstanceID, endpointID string, enabled bool) error
	DescribeParameterGroup(ctx context.Context, id string) (*ParameterGroup, error)
	DescribeParameterGroups(ctx context.Context, req *DescribeParameterGroupsRequest) ([]ParameterGroup, error)
	DeleteParameterGroup(ctx context.Context, id string) error
	// Backup policy, backups and backup sets (backups.go).
	DescribeBackupPolicy(ctx context.Context, dbInstanceID string) (*BackupPolicy, error)
	ModifyDataBackupPolicy(ctx context.Context, req *DataBackupPolicyRequest) error
	ModifyLogBackupPolicy(ctx context.Context, req *LogBackupPolicyRequest) error
	CreateBackup(ctx context.Context, req *CreateBackupRequest) (string, error)
	DescribeBackups(ctx context.Context, req *DescribeBackupsRequest) (*DescribeBackupsResponse, error)
	DescribeBackupTasks(ctx context.Context, req *DescribeBackupTasksRequest) (*DescribeBackupTasksResponse, error)
	DeleteBackup(ctx context.Context, dbInstanceID, backupID string) error
	// DeleteDBInstanceKeeping is DeleteDBInstance with ReleasedKeepPolicy (backups.go).
	DeleteDBInstanceKeeping(ctx context.Context, dbInstanceID, releasedKeepPolicy string) error
	// SSL and TDE (security.go).
	ModifyDBInstanceSSL(ctx context.Context, req *ModifyDBInstanceSSLRequest) error
	DescribeDBInstanceSSL(ctx context.Context, dbInstanceID string) (*DBInstanceSSL, error)
	ModifyDBInstanceTDE(ctx context.Context, req *ModifyDBInstanceTDERequest) error
	DescribeDBInstanceTDE(ctx context.Context, dbInstanceID string) (*DBInstanceTDE, error)
	// UpgradeDBInstanceEngineVersion upgrades a MySQL instance's major version (upgrade.go).
	UpgradeDBInstanceEngineVersion(ctx context.Context, req *UpgradeDBInstanceEngineVersionRequest) (*UpgradeDBInstanceEngineVersionResponse, error)
	// UpgradeDBInstanceKernelVersion and ModifyDBInstanceAutoUpgradeMinorVersion: minor versions (minor_version.go).
	UpgradeDBInstanceKernelVersion(ctx context.Context, req *UpgradeDBInstanceKernelVersionRequest) (*UpgradeDBInstanceKernelVersionResponse, error)
	// DescribeDBMiniEngineVersions lists the minor versions released for a major version (minor_version.go).
	DescribeDBMiniEngineVersions(ctx context.Context, engine, engineVersion string) ([]MinorVersionItem, error)
	// ListResourceGroups finds a resource group of the account by id (Resource Manager, resource_groups.go).
	ListResourceGroups(ctx context.Context, resourceGroupID string) ([]ResourceGroup, error)
	// DescribeRegions lists the regions and their zones (regions.go).
	DescribeRegions(ctx context.Context) (*DescribeRegionsResponse, error)
	ModifyDBInstanceAutoUpgradeMinorVersion(ctx context.Context, dbInstanceID, value string) error
	// MigrateToOtherZone moves an instance to other zones in place (zone.go).
	MigrateToOtherZone(ctx context.Context, req *MigrateToOtherZoneRequest) (*MigrateToOtherZoneResponse, error)
	// Tags and resource groups (tags.go).
	TagResources(ctx context.Context, req *TagResourcesRequest) error
	UntagResources(ctx context.Context, req *UntagResourcesRequest) error
	ListTagResources(ctx context.Context, req *ListTagResourcesRequest) (*ListTagResourcesResponse, error)
	ModifyResourceGroup(ctx context.Context, dbInstanceID, resourceGroupID string) error
	// Storage autoscaling (storage_autoscale.go): written through RDS, read through DAS.
	ModifyDasInstanceConfig(ctx context.Context, dbInstanceID string, cfg StorageAutoScale) error
	DescribeAutoScalingConfig(ctx context.Context, dbInstanceID string) (*StorageAutoScale, error)
	// SQL audit through DAS (sql_audit.go).
	ModifySqlLogConfig(ctx context.Context, dbInstanceID string, cfg SQLAudit) error
	DescribeSqlLogConfig(ctx context.Context, dbInstanceID string) (*SQLAudit, error)
	// The monitoring period (monitor.go).
	ModifyDBInstanceMonitor(ctx context.Context, dbInstanceID string, period int64) error
	DescribeDBInstanceMonitor(ctx context.Context, dbInstanceID string) (int64, error)
	// Subscription billing (billing.go).
	TransformDBInstancePayType(ctx context.Context, req *TransformDBInstancePayTypeRequest) (*TransformDBInstancePayTypeResponse, error)
	ModifyInstanceAutoRenewalAttribute(ctx context.Context, dbInstanceID string, r AutoRenewal) error
	DescribeInstanceAutoRenewal(ctx context.Context, dbInstanceID string) (AutoRenewal, bool, error)
	RenewInstance(ctx context.Context, req *RenewInstanceRequest) (*RenewInstanceResponse, error)
	// DescribeDetachedBackups lists the backup sets released instances kept (backups.go).
	DescribeDetachedBackups(ctx context.Context, req *DescribeBackupsRequest) (*DescribeBackupsResponse, error)
	// Endpoints: connection strings and ports, internal and public (netinfo.go).
	DescribeDBInstanceNetInfo(ctx context.Context, dbInstanceID string) (*DescribeDBInstanceNetInfoResponse, error)
	ModifyDBInstanceConnectionString(ctx context.Context, req *ModifyDBInstanceConnectionStringRequest) error
	AllocateInstancePublicConnection(ctx context.Context, req *AllocateInstancePublicConnectionRequest) (string, error)
	ReleaseInstancePublicConnection(ctx context.Context, dbInstanceID, connectionString string) error
	// Cross-region backups (cross_region.go).
	ModifyInstanceCrossBackupPolicy(ctx context.Context, dbInstanceID string, p CrossBackupPolicy) error
	DescribeInstanceCrossBackupPolicy(ctx context.Context, dbInstanceID string) (*CrossBackupPolicy, error)
	DescribeAvailableCrossRegion(ctx context.Context) ([]string, error)
	DescribeCrossRegionBackups(ctx context.Context, req *DescribeCrossRegionBackupsRequest) (*DescribeCrossRegionBackupsResponse, error)
	// CreateDdrInstance restores a cross-region backup set to a new instance in its region (cross_region.go).
	CreateDdrInstance(ctx context.Context, req *CreateDdrInstanceRequest) (*CreateDBInstanceResponse, error)
}
