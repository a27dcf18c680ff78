package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewZonesDataSource returns the rds_zones data source.
func NewZonesDataSource() datasource.DataSource {
	return &zonesDataSource{dataSourceBase{typeName: "rds_zones"}}
}

// zonesDataSource lists the zones that offer a combination: one DescribeAvailableZones call per
// engine and version for the life of the provider process (the planner's catalogue).
type zonesDataSource struct {
	dataSourceBase
}

type zonesModel struct {
	Engine        types.String `tfsdk:"engine"`
	EngineVersion types.String `tfsdk:"engine_version"`
	Category      types.String `tfsdk:"category"`
	StorageType   types.String `tfsdk:"storage_type"`
	MultiZone     types.Bool   `tfsdk:"multi_zone"`
	IDs           types.List   `tfsdk:"ids"`
	Zones         types.List   `tfsdk:"zones"`
}

var zoneAttrTypes = map[string]attr.Type{"zone_id": types.StringType, "secondary_zone_ids": types.ListType{ElemType: types.StringType}}

func (d *zonesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the zones of the provider's region that offer an engine, version, edition and storage type, " +
			"each with the zones its secondary node may be placed in (`DescribeAvailableZones`, asked once per engine and " +
			"version for the life of the provider process).",
		Attributes: map[string]schema.Attribute{
			"engine":         schema.StringAttribute{Optional: true, MarkdownDescription: "Database engine; `MySQL` when unset."},
			"engine_version": schema.StringAttribute{Optional: true, MarkdownDescription: "Engine version, e.g. `8.0`; any version when unset."},
			"category": schema.StringAttribute{Optional: true, MarkdownDescription: "Edition: `Basic`, `HighAvailability` or `cluster`; " +
				"any when unset."},
			"storage_type": schema.StringAttribute{Optional: true, MarkdownDescription: "Storage type, e.g. `cloud_essd`; any when unset."},
			"multi_zone": schema.BoolAttribute{Optional: true, MarkdownDescription: "`true` keeps only zones whose secondary node may " +
				"be placed in another zone (`zone_id_slave_a` of `rds_instance`)."},
			"ids": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The zone ids, sorted."},
			"zones": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The zones, sorted by id.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"zone_id": schema.StringAttribute{Computed: true, MarkdownDescription: "Zone id, as `zone_id` takes it."},
					"secondary_zone_ids": schema.ListAttribute{Computed: true, ElementType: types.StringType,
						MarkdownDescription: "Zones the secondary node may be placed in for this combination, sorted."},
				}}},
		},
	}
}

func (d *zonesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var cfg zonesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	version, category, storage := cfg.EngineVersion.ValueString(), cfg.Category.ValueString(), cfg.StorageType.ValueString()
	zones, err := zonesOffering(ctx, d.data, valueOrDefault(cfg.Engine, "MySQL"), version)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the zones", err.Error())
		return
	}
	var ids, items []attr.Value
	for _, z := range zones {
		secondary := z.Secondary(version, category, storage)
		if !z.OffersFor(version, category, storage) || (cfg.MultiZone.ValueBool() && len(secondary) == 0) {
			continue
		}
		list, diags := types.ListValueFrom(ctx, types.StringType, append([]string{}, secondary...))
		resp.Diagnostics.Append(diags...)
		obj, diags := types.ObjectValue(zoneAttrTypes, map[string]attr.Value{"zone_id": types.StringValue(z.ID), "secondary_zone_ids": list})
		resp.Diagnostics.Append(diags...)
		ids, items = append(ids, types.StringValue(z.ID)), append(items, obj)
	}
	cfg.IDs = types.ListValueMust(types.StringType, ids)
	cfg.Zones = types.ListValueMust(types.ObjectType{AttrTypes: zoneAttrTypes}, items)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// zonesOffering asks the catalogue which zones offer an engine and version.
func zonesOffering(ctx context.Context, data *ProviderData, engine, version string) ([]rdsservice.Zone, error) {
	zones, err := data.classes.Zones(ctx, data.API, rdsapi.DescribeAvailableZonesRequest{RegionID: data.Region, Engine: engine, EngineVersion: version})
	if err != nil {
		return nil, fmt.Errorf("DescribeAvailableZones %s %s: %w", engine, version, err)
	}
	return zones, nil
}

// valueOrDefault is a data source argument, or def when it is unset or empty.
func valueOrDefault(v types.String, def string) string {
	if s := stringIfKnown(v); s != "" {
		return s
	}
	return def
}
