package provider

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewCrossRegionBackupsDataSource returns the rds_cross_region_backups data source: the copies of
// an instance's backup sets in other regions (issue 46 §2).
func NewCrossRegionBackupsDataSource() datasource.DataSource {
	return &crossRegionBackupsDataSource{dataSourceBase{typeName: "rds_cross_region_backups"}}
}

type crossRegionBackupsDataSource struct {
	dataSourceBase
}

type crossRegionBackupsModel struct {
	InstanceID types.String            `tfsdk:"instance_id"`
	Region     types.String            `tfsdk:"region"`
	StartTime  types.String            `tfsdk:"start_time"`
	EndTime    types.String            `tfsdk:"end_time"`
	Backups    []crossRegionBackupItem `tfsdk:"backups"`
}

type crossRegionBackupItem struct {
	ID             types.String `tfsdk:"cross_backup_id"`
	Region         types.String `tfsdk:"region"`
	StartTime      types.String `tfsdk:"backup_start_time"`
	EndTime        types.String `tfsdk:"backup_end_time"`
	ConsistentTime types.String `tfsdk:"consistent_time"`
	Size           types.Int64  `tfsdk:"backup_size"`
	RestoreRegions types.List   `tfsdk:"restore_regions"`
}

func (d *crossRegionBackupsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the copies of an instance's backup sets in other regions (`DescribeCrossRegionBackups`), newest " +
			"first, that started within a time range: the copies `rds_backup_policy.cross_region` makes. An instance on local disks " +
			"keeps its copies after its release, until they expire; one on cloud disks loses them when it is released. The copies are " +
			"asked for in the source instance's region: use a provider configured for that region (the restore of a copy, " +
			"`rds_instance.restore_from.cross_region_backup_id`, runs with a provider of the copy's region).",
		Attributes: map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{Required: true, MarkdownDescription: "Id of the source instance (it may be released)."},
			"region":      schema.StringAttribute{Optional: true, MarkdownDescription: "Only copies in this destination region."},
			"start_time": schema.StringAttribute{Required: true,
				MarkdownDescription: "Only copies of sets started at or after this UTC time, `yyyy-MM-ddTHH:mm:ssZ`."},
			"end_time": schema.StringAttribute{Required: true,
				MarkdownDescription: "Only copies of sets started at or before this UTC time, `yyyy-MM-ddTHH:mm:ssZ`."},
			"backups": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The copies, newest first.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"cross_backup_id":   computedString("Id of the copy (`CrossBackupId`): what `rds_instance.restore_from.cross_region_backup_id` takes."),
					"region":            computedString("Region the copy is in."),
					"backup_start_time": computedString("Start of the set copied, UTC `yyyy-MM-ddTHH:mm:ssZ`."),
					"backup_end_time":   computedString("End of the set copied, UTC `yyyy-MM-ddTHH:mm:ssZ`."),
					"consistent_time":   computedString("Point in time the copy restores to, UTC `yyyy-MM-ddTHH:mm:ssZ`."),
					"backup_size":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Size in bytes."},
					"restore_regions": schema.ListAttribute{Computed: true, ElementType: types.StringType,
						MarkdownDescription: "Regions a new instance can be restored to from the copy."},
				}},
			},
		},
	}
}

// ValidateConfig checks the time range's form.
func (d *crossRegionBackupsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var config crossRegionBackupsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if isKnown(config.StartTime) && isKnown(config.EndTime) {
		addProblems(&resp.Diagnostics, rdsservice.CheckCrossTimeRange(config.StartTime.ValueString(), config.EndTime.ValueString()))
	}
}

func (d *crossRegionBackupsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config crossRegionBackupsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	id := config.InstanceID.ValueString()
	from, _ := time.Parse(rdsservice.CrossTimeLayout, config.StartTime.ValueString())
	to, _ := time.Parse(rdsservice.CrossTimeLayout, config.EndTime.ValueString())
	copies, err := rdsservice.ListCrossRegionBackups(ctx, d.data.API, id, config.Region.ValueString(), from, to)
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS cross-region backups", fmt.Sprintf("%s: %v", id, err))
		return
	}
	sort.SliceStable(copies, func(i, j int) bool { return copies[i].BackupStartTime > copies[j].BackupStartTime })
	config.Backups = make([]crossRegionBackupItem, 0, len(copies))
	for _, c := range copies {
		regions, diags := types.ListValueFrom(ctx, types.StringType, append([]string{}, c.RestoreRegions.RestoreRegion...))
		resp.Diagnostics.Append(diags...)
		config.Backups = append(config.Backups, crossRegionBackupItem{ID: types.StringValue(string(c.CrossBackupID)),
			Region: types.StringValue(c.CrossBackupRegion), StartTime: types.StringValue(c.BackupStartTime),
			EndTime: types.StringValue(c.BackupEndTime), ConsistentTime: types.StringValue(c.ConsistentTime),
			Size: types.Int64Value(int64(c.CrossBackupSetSize)), RestoreRegions: regions})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, config)...)
}
