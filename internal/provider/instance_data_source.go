package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewInstanceDataSource returns the rds_instance data source.
func NewInstanceDataSource() datasource.DataSource {
	return &instanceDataSource{dataSourceBase{typeName: "rds_instance"}}
}

// instanceDataSource reads one instance (primary or read-only) by id.
type instanceDataSource struct {
	dataSourceBase
}

// instanceDataModel is what both data sources expose for one instance. rds_instance uses it as its
// whole model, rds_instances as the element of `instances`.
type instanceDataModel struct {
	ID                      types.String `tfsdk:"id"`
	InstanceName            types.String `tfsdk:"instance_name"`
	Engine                  types.String `tfsdk:"engine"`
	EngineVersion           types.String `tfsdk:"engine_version"`
	InstanceType            types.String `tfsdk:"instance_type"`
	Storage                 types.Int64  `tfsdk:"storage"`
	StorageType             types.String `tfsdk:"storage_type"`
	Category                types.String `tfsdk:"category"`
	DBInstanceType          types.String `tfsdk:"db_instance_type"`
	ZoneID                  types.String `tfsdk:"zone_id"`
	VpcID                   types.String `tfsdk:"vpc_id"`
	VSwitchID               types.String `tfsdk:"vswitch_id"`
	SecurityIPs             types.Set    `tfsdk:"security_ips"`
	DeletionProtection      types.Bool   `tfsdk:"deletion_protection"`
	AtomicWrite16K          types.Bool   `tfsdk:"atomic_write_16k"`
	AtomicWrite16KSupported types.Bool   `tfsdk:"atomic_write_16k_supported"`
	BufferPoolExtension     types.Bool   `tfsdk:"buffer_pool_extension"`
	Status                  types.String `tfsdk:"status"`
	LockMode                types.String `tfsdk:"lock_mode"`
	ConnectionString        types.String `tfsdk:"connection_string"`
	Port                    types.Int64  `tfsdk:"port"`
	CreationTime            types.String `tfsdk:"creation_time"`
	InstructionSetArch      types.String `tfsdk:"instruction_set_arch"`
	MasterInstanceID        types.String `tfsdk:"master_instance_id"`
	ReadOnlyInstanceIDs     types.List   `tfsdk:"read_only_instance_ids"`
}

// instanceDataAttrTypes is instanceDataModel as an object type, for the rds_instances list.
var instanceDataAttrTypes = map[string]attr.Type{
	"id":                         types.StringType,
	"instance_name":              types.StringType,
	"engine":                     types.StringType,
	"engine_version":             types.StringType,
	"instance_type":              types.StringType,
	"storage":                    types.Int64Type,
	"storage_type":               types.StringType,
	"category":                   types.StringType,
	"db_instance_type":           types.StringType,
	"zone_id":                    types.StringType,
	"vpc_id":                     types.StringType,
	"vswitch_id":                 types.StringType,
	"security_ips":               types.SetType{ElemType: types.StringType},
	"deletion_protection":        types.BoolType,
	"atomic_write_16k":           types.BoolType,
	"atomic_write_16k_supported": types.BoolType,
	"buffer_pool_extension":      types.BoolType,
	"status":                     types.StringType,
	"lock_mode":                  types.StringType,
	"connection_string":          types.StringType,
	"port":                       types.Int64Type,
	"creation_time":              types.StringType,
	"instruction_set_arch":       types.StringType,
	"master_instance_id":         types.StringType,
	"read_only_instance_ids":     types.ListType{ElemType: types.StringType},
}

// instanceDataDescriptions documents every exposed attribute once, for both data sources.
var instanceDataDescriptions = map[string]string{
	"id":                         "Instance id (`DBInstanceId`).",
	"instance_name":              "Description of the instance (`DBInstanceDescription`).",
	"engine":                     "Database engine, e.g. `MySQL`.",
	"engine_version":             "Engine version, e.g. `8.0`.",
	"instance_type":              "Instance class (`DBInstanceClass`), e.g. `mysql.n2.medium.2c`.",
	"storage":                    "Storage in GB.",
	"storage_type":               "Storage type, e.g. `cloud_essd`.",
	"category":                   "Edition: `HighAvailability`, `Basic` or `cluster`.",
	"db_instance_type":           "Role of the instance (`DBInstanceType`): `Primary` or `Readonly`.",
	"zone_id":                    "Zone.",
	"vpc_id":                     "VPC.",
	"vswitch_id":                 "vSwitch.",
	"security_ips":               "IP allow-list (`SecurityIPList` of `DescribeDBInstanceAttribute`): the entries of every IP array together, arrays added by other Alibaba services (DMS, DAS, DTS) included. `rds_instance`'s `security_ips` is the `default` array alone.",
	"deletion_protection":        "Whether the cloud refuses to delete the instance.",
	"atomic_write_16k":           "Whether 16K atomic write is on (`optimized_writes` in `OptimizedWritesInfo`).",
	"atomic_write_16k_supported": "Whether the instance is eligible for 16K atomic write (`init_optimized_writes`).",
	"buffer_pool_extension":      "Whether Buffer Pool Extension (`IoAccelerationEnabled`) is on.",
	"status":                     "Instance status (`DBInstanceStatus`): `Running`, or e.g. `Stopped`, `Deleting`, `Restarting`.",
	"lock_mode":                  "Lock of the instance (`LockMode`): `Unlock`, or why the cloud refuses changes to it (`ManualLock`, `LockByExpiration`, `LockByRestoration`, `LockByDiskQuota`, `LockReadInstanceByDiskQuota`).",
	"connection_string":          "Internal connection address.",
	"port":                       "Port of `connection_string`.",
	"creation_time":              "Creation (purchase) time, UTC.",
	"instruction_set_arch":       "`x86` or `arm` (YiTian).",
	"master_instance_id":         "Primary of a read-only instance; empty for a primary.",
	"read_only_instance_ids":     "Ids of the read-only instances of a primary.",
}

// instanceDataComputedAttributes returns the computed schema attributes of instanceDataModel
// except id.
func instanceDataComputedAttributes() map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for name, t := range instanceDataAttrTypes {
		if name == "id" {
			continue
		}
		desc := instanceDataDescriptions[name]
		switch tt := t.(type) {
		case types.SetType:
			out[name] = schema.SetAttribute{Computed: true, ElementType: tt.ElemType, MarkdownDescription: desc}
		case types.ListType:
			out[name] = schema.ListAttribute{Computed: true, ElementType: tt.ElemType, MarkdownDescription: desc}
		default:
			switch t {
			case types.Int64Type:
				out[name] = schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
			case types.BoolType:
				out[name] = schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
			default:
				out[name] = schema.StringAttribute{Computed: true, MarkdownDescription: desc}
			}
		}
	}
	return out
}

// instanceDataFromAttribute converts one DescribeDBInstanceAttribute answer.
func instanceDataFromAttribute(a *rdsapi.DBInstanceAttribute) (instanceDataModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	v := viewOf(a, &diags)
	m := instanceDataModel{
		ID: v.ID, InstanceName: v.InstanceName, Engine: v.Engine, EngineVersion: v.EngineVersion, InstanceType: v.InstanceType,
		Storage: v.Storage, StorageType: v.StorageType, Category: v.Category, DBInstanceType: v.DBInstanceType, ZoneID: v.ZoneID,
		VpcID: v.VpcID, VSwitchID: v.VSwitchID, DeletionProtection: v.DeletionProtection, Status: v.Status, LockMode: v.LockMode,
		ConnectionString: v.ConnectionString, CreationTime: v.CreationTime, InstructionSetArch: v.Architecture,
		MasterInstanceID: v.MasterInstanceID, Port: v.Port, AtomicWrite16K: v.AtomicWrite16K,
		AtomicWrite16KSupported: v.AtomicWrite16KSupported, BufferPoolExtension: v.BufferPoolExtension,
		SecurityIPs: v.SecurityIPs, ReadOnlyInstanceIDs: v.ReadOnlyInstanceIDs,
	}
	return m, diags
}

func (d *instanceDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := instanceDataComputedAttributes()
	attrs["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Id of the instance to read (primary `rm-…` or read-only `rr-…`).",
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one ApsaraDB RDS instance by id (one `DescribeDBInstanceAttribute`), including 16K atomic " +
			"write (`atomic_write_16k`), its eligibility and the primary/read-only relationships.",
		Attributes: attrs,
	}
}

func (d *instanceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var cfg instanceDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := cfg.ID.ValueString()
	a, err := d.data.API.DescribeDBInstanceAttribute(ctx, id)
	if rdsapi.IsNotFound(err) {
		addProblems(&resp.Diagnostics, []rdsservice.Problem{rdsservice.Raise(rdsservice.RuleDataSourceNotFound, id, id, d.data.Region)})
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", id, err))
		return
	}
	m, diags := instanceDataFromAttribute(a)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
