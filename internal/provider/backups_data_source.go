package provider

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewBackupsDataSource returns the rds_backups data source: an instance's backup sets.
func NewBackupsDataSource() datasource.DataSource {
	return &backupsDataSource{dataSourceBase{typeName: "rds_backups"}}
}

type backupsDataSource struct {
	dataSourceBase
}

type backupsModel struct {
	InstanceID   types.String  `tfsdk:"instance_id"`
	StartTime    types.String  `tfsdk:"start_time"`
	EndTime      types.String  `tfsdk:"end_time"`
	BackupMode   types.String  `tfsdk:"backup_mode"`
	BackupStatus types.String  `tfsdk:"backup_status"`
	Released     types.Bool    `tfsdk:"released"`
	Backups      []backupEntry `tfsdk:"backups"`
}

type backupEntry struct {
	BackupID        types.String `tfsdk:"backup_id"`
	BackupStartTime types.String `tfsdk:"backup_start_time"`
	BackupEndTime   types.String `tfsdk:"backup_end_time"`
	BackupStatus    types.String `tfsdk:"backup_status"`
	BackupMode      types.String `tfsdk:"backup_mode"`
	BackupMethod    types.String `tfsdk:"backup_method"`
	BackupType      types.String `tfsdk:"backup_type"`
	BackupScale     types.String `tfsdk:"backup_scale"`
	BackupDBNames   types.String `tfsdk:"backup_db_names"`
	BackupSize      types.Int64  `tfsdk:"backup_size"`
	StoreStatus     types.String `tfsdk:"store_status"`
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func (d *backupsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the backup sets of an instance (`DescribeBackups`), newest first, optionally within a time window: " +
			"`backups[0].backup_id` is the latest set, ready for `rds_instance.restore_from.backup_id`. For an instance that was " +
			"released, it lists the sets its release kept (`released_keep_policy`; `DescribeDetachedBackups`) and `released` is " +
			"true: `restore_from` cannot name a released source (the cloud's `CloneDBInstance` needs a running one); restore such " +
			"a set from the console (Backups > Backups of released instances), then import the new instance.",
		Attributes: map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{Required: true, MarkdownDescription: "Id of the primary instance."},
			"start_time": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Only sets started at or after this UTC time, `yyyy-MM-ddTHH:mmZ`."},
			"end_time": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Only sets started at or before this UTC time, `yyyy-MM-ddTHH:mmZ`."},
			"backup_mode":   schema.StringAttribute{Optional: true, MarkdownDescription: "`Automated` or `Manual` sets only."},
			"backup_status": schema.StringAttribute{Optional: true, MarkdownDescription: "`Success` or `Failed` sets only."},
			"released": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "True when the instance was released: the sets listed are those its release kept."},
			"backups": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The sets, newest first.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"backup_id":         computedString("Id of the set (`restore_from.backup_id`)."),
					"backup_start_time": computedString("Start, UTC `yyyy-MM-ddTHH:mmZ`."),
					"backup_end_time":   computedString("End, UTC `yyyy-MM-ddTHH:mmZ`."),
					"backup_status":     computedString("`Success` or `Failed`."),
					"backup_mode":       computedString("`Automated` or `Manual`."),
					"backup_method":     computedString("`Physical`, `Logical` or `Snapshot`."),
					"backup_type":       computedString("`FullBackup` or `IncrementalBackup`."),
					"backup_scale":      computedString("`DBInstance` or `Database`."),
					"backup_db_names":   computedString("Databases of a single-database backup, comma-separated."),
					"backup_size":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Size in bytes."},
					"store_status":      computedString("`Enabled` when `DeleteBackup` may delete the set now."),
				}},
			},
		},
	}
}

// ValidateConfig checks the time filters' form.
func (d *backupsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var config backupsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	for name, v := range map[string]types.String{"start_time": config.StartTime, "end_time": config.EndTime} {
		if !isKnown(v) {
			continue
		}
		if _, err := time.Parse(rdsservice.BackupTimeLayout, v.ValueString()); err != nil {
			p := rdsservice.Raise(rdsservice.RuleBackupTimeFilter, v.ValueString(), v.ValueString(), name)
			resp.Diagnostics.AddAttributeError(path.Root(name), p.Summary, p.Detail)
		}
	}
}

func (d *backupsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config backupsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	id := config.InstanceID.ValueString()
	sets, released, err := rdsservice.ListBackupsOrKept(ctx, d.data.API, &rdsapi.DescribeBackupsRequest{DBInstanceID: id,
		StartTime: config.StartTime.ValueString(), EndTime: config.EndTime.ValueString(),
		BackupMode: config.BackupMode.ValueString(), BackupStatus: config.BackupStatus.ValueString()})
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS backups", fmt.Sprintf("DescribeBackups %s: %v", id, err))
		return
	}
	config.Released = types.BoolValue(released)
	sort.SliceStable(sets, func(i, j int) bool { return newerBackup(sets[i], sets[j]) })
	config.Backups = make([]backupEntry, 0, len(sets))
	for _, s := range sets {
		config.Backups = append(config.Backups, backupEntry{
			BackupID: types.StringValue(string(s.BackupID)), BackupStartTime: types.StringValue(s.BackupStartTime),
			BackupEndTime: types.StringValue(s.BackupEndTime), BackupStatus: types.StringValue(s.BackupStatus),
			BackupMode: types.StringValue(s.BackupMode), BackupMethod: types.StringValue(s.BackupMethod),
			BackupType: types.StringValue(s.BackupType), BackupScale: types.StringValue(s.BackupScale),
			BackupDBNames: types.StringValue(s.BackupDBNames), BackupSize: types.Int64Value(int64(s.BackupSize)),
			StoreStatus: types.StringValue(s.StoreStatus),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, config)...)
}

// newerBackup orders sets newest first: by start, then end, then id (ids grow; times have minutes only).
func newerBackup(a, b rdsapi.Backup) bool {
	if a.BackupStartTime != b.BackupStartTime {
		return a.BackupStartTime > b.BackupStartTime
	}
	if a.BackupEndTime != b.BackupEndTime {
		return a.BackupEndTime > b.BackupEndTime
	}
	if len(a.BackupID) != len(b.BackupID) {
		return len(a.BackupID) > len(b.BackupID)
	}
	return a.BackupID > b.BackupID
}
