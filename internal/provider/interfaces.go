package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// What each resource, data source and action implements beyond its basic methods, checked when the
// package compiles: identifiedResource forwards an optional method only where the resource has it,
// so one that went missing would be skipped silently. (The instance resources state theirs in their
// own files; MoveState is stated in the moved_alicloud files.)

// plannedResource is configured, plans (ModifyPlan) and imports.
type plannedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithModifyPlan
}

// checkedResource also checks its configuration alone (ValidateConfig).
type checkedResource interface {
	plannedResource
	resource.ResourceWithValidateConfig
}

// checkedDataSource is configured and checks its configuration alone.
type checkedDataSource interface {
	datasource.DataSourceWithConfigure
	datasource.DataSourceWithValidateConfig
}

// plannedAction is configured and plans (ModifyPlan).
type plannedAction interface {
	action.ActionWithConfigure
	action.ActionWithModifyPlan
}

var (
	_ checkedResource                     = (*accountResource)(nil)
	_ checkedResource                     = (*databaseResource)(nil)
	_ checkedResource                     = (*accountPrivilegeResource)(nil)
	_ checkedResource                     = (*backupPolicyResource)(nil)
	_ plannedResource                     = (*parameterGroupResource)(nil)
	_ plannedResource                     = (*whitelistTemplateResource)(nil)
	_ plannedResource                     = (*dbProxyResource)(nil)
	_ plannedResource                     = (*dbProxyEndpointResource)(nil)
	_ resource.ResourceWithConfigure      = (*backupResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*backupResource)(nil)
	_ resource.ResourceWithValidateConfig = (*backupResource)(nil)

	_ datasource.DataSourceWithConfigure = (*accessListDataSource[rdsapi.Database])(nil)
	_ datasource.DataSourceWithConfigure = (*instanceDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*instancesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*instanceClassesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*zonesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*parameterTemplatesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*parameterGroupsDataSource)(nil)
	_ checkedDataSource                  = (*backupsDataSource)(nil)
	_ checkedDataSource                  = (*crossRegionBackupsDataSource)(nil)

	_ plannedAction = (*instanceAction)(nil)
	_ plannedAction = (*backupNowAction)(nil)
)
