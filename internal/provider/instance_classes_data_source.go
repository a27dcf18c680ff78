package provider

import (
	"context"
	"slices"

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

// NewInstanceClassesDataSource returns the rds_instance_classes data source.
func NewInstanceClassesDataSource() datasource.DataSource {
	return &instanceClassesDataSource{dataSourceBase{typeName: "rds_instance_classes"}}
}

// instanceClassesDataSource lists the classes a new instance may be created with, from the same
// catalogue and cache the plan checks instance_type against (rdsservice.Catalogue).
type instanceClassesDataSource struct {
	dataSourceBase
}

type instanceClassesModel struct {
	ZoneID          types.String  `tfsdk:"zone_id"`
	Engine          types.String  `tfsdk:"engine"`
	EngineVersion   types.String  `tfsdk:"engine_version"`
	Category        types.String  `tfsdk:"category"`
	StorageType     types.String  `tfsdk:"storage_type"`
	PayType         types.String  `tfsdk:"pay_type"`
	MinCPU          types.Int64   `tfsdk:"min_cpu"`
	MinMemoryGiB    types.Float64 `tfsdk:"min_memory_gib"`
	Architecture    types.String  `tfsdk:"architecture"`
	AtomicWrite16K  types.Bool    `tfsdk:"atomic_write_16k"`
	Preferred       types.List    `tfsdk:"preferred_instance_classes"`
	InstanceClass   types.String  `tfsdk:"instance_class"`
	InstanceClasses types.List    `tfsdk:"instance_classes"`
}

var instanceClassAttrTypes = map[string]attr.Type{
	"instance_class": types.StringType, "zone_id": types.StringType, "cpu": types.Int64Type, "memory_gib": types.Float64Type,
	"architecture": types.StringType, "max_connections": types.Int64Type, "max_iops": types.Int64Type,
	"storage_min": types.Int64Type, "storage_max": types.Int64Type, "storage_step": types.Int64Type,
	"atomic_write_16k_supported": types.BoolType,
}

func (d *instanceClassesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.Attribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	number := func(desc string) schema.Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the instance classes a new instance may be created with, from the catalogue the plan checks " +
			"`instance_type` against: a class listed here is one the plan accepts. One `DescribeAvailableClasses` call per zone " +
			"asked, one `DescribeAvailableZones` call when `zone_id` is unset, and one `ListClasses` call for the life of the " +
			"provider process. When no class fits, the error names the filters that excluded the most.",
		Attributes: map[string]schema.Attribute{
			"zone_id": schema.StringAttribute{Optional: true, MarkdownDescription: "Zone to ask; every zone of the region that " +
				"offers the combination when unset."},
			"engine":         schema.StringAttribute{Optional: true, MarkdownDescription: "Database engine; `MySQL` when unset."},
			"engine_version": schema.StringAttribute{Required: true, MarkdownDescription: "Engine version, e.g. `8.0`."},
			"category": schema.StringAttribute{Optional: true, MarkdownDescription: "Edition: `HighAvailability` (when unset), " +
				"`Basic` or `cluster`."},
			"storage_type": schema.StringAttribute{Optional: true, MarkdownDescription: "Storage type; `cloud_essd` when unset."},
			"pay_type": schema.StringAttribute{Optional: true, MarkdownDescription: "`Postpaid` (when unset) or `Prepaid`.",
				Validators: []validator.String{stringvalidator.OneOf(rdsapi.PayTypePostpaid, "Prepaid")}},
			"min_cpu":        schema.Int64Attribute{Optional: true, MarkdownDescription: "Keep classes with at least this many CPU cores."},
			"min_memory_gib": schema.Float64Attribute{Optional: true, MarkdownDescription: "Keep classes with at least this much memory, in GiB."},
			"architecture": schema.StringAttribute{Optional: true, MarkdownDescription: "Keep `x86` or `arm` (YiTian) classes.",
				Validators: []validator.String{stringvalidator.OneOf(rdsapi.ArchitectureX86, rdsapi.ArchitectureARM)}},
			"atomic_write_16k": schema.BoolAttribute{Optional: true, MarkdownDescription: "`true` keeps only classes a new " +
				"instance of this combination gets 16K atomic write on (the plan's own rule)."},
			"preferred_instance_classes": schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "When " +
				"set, only these classes, in this order: `instance_class` is the first of them that fits."},
			"instance_class": computed("The first class that fits (in the order of `preferred_instance_classes`, else by name)."),
			"instance_classes": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every class that fits, per zone.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"instance_class":  computed("Class, as `instance_type` takes it."),
					"zone_id":         computed("Zone that offers it."),
					"cpu":             number("CPU cores."),
					"memory_gib":      schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory in GiB."},
					"architecture":    computed("`x86` or `arm` (YiTian)."),
					"max_connections": number("Maximum connections."),
					"max_iops":        number("Maximum IOPS."),
					"storage_min":     number("Smallest `storage`, GB."),
					"storage_max":     number("Largest `storage`, GB."),
					"storage_step":    number("`storage` step, GB."),
					"atomic_write_16k_supported": schema.BoolAttribute{Computed: true, MarkdownDescription: "A new instance of " +
						"this class gets 16K atomic write (and has it on unless `atomic_write_16k = false`)."},
				}}},
		},
	}
}

func (d *instanceClassesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var cfg instanceClassesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q := classQueryOf(ctx, cfg, &resp.Diagnostics)
	offers := offeredClasses(ctx, d.data, q, stringIfKnown(cfg.ZoneID), valueOrDefault(cfg.PayType, rdsapi.PayTypePostpaid), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg.InstanceClass = types.StringValue(offers[0].Class)
	cfg.InstanceClasses = classOfferList(offers)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

func classQueryOf(ctx context.Context, cfg instanceClassesModel, diags *diag.Diagnostics) rdsservice.ClassQuery {
	q := rdsservice.ClassQuery{Engine: valueOrDefault(cfg.Engine, "MySQL"), EngineVersion: cfg.EngineVersion.ValueString(),
		Category: valueOrDefault(cfg.Category, "HighAvailability"), StorageType: valueOrDefault(cfg.StorageType, "cloud_essd"),
		MinCPU: cfg.MinCPU.ValueInt64(), MinMemoryGiB: cfg.MinMemoryGiB.ValueFloat64(), Architecture: stringIfKnown(cfg.Architecture),
		AtomicWrite: cfg.AtomicWrite16K.ValueBool()}
	diags.Append(cfg.Preferred.ElementsAs(ctx, &q.Preferred, false)...)
	return q
}

// offeredClasses asks the catalogue in each zone (zone, or every zone offering the combination)
// and selects; any problem is added to diags.
func offeredClasses(ctx context.Context, data *ProviderData, q rdsservice.ClassQuery, zone, payType string, diags *diag.Diagnostics) []rdsservice.ClassOffer {
	zones := []string{zone}
	if zone == "" {
		all, err := zonesOffering(ctx, data, q.Engine, q.EngineVersion)
		if err != nil {
			diags.AddError("Cannot read the zones", err.Error())
			return nil
		}
		zones = zones[:0]
		for _, z := range all {
			if z.OffersFor(q.EngineVersion, q.Category, q.StorageType) {
				zones = append(zones, z.ID)
			}
		}
	}
	offered := map[string][]rdsservice.OfferedClass{}
	for _, z := range zones {
		f := data.classes.ClassFacts(ctx, data.API, rdsapi.DescribeAvailableClassesRequest{RegionID: data.Region, ZoneID: z,
			Engine: q.Engine, EngineVersion: q.EngineVersion, DBInstanceStorageType: q.StorageType, Category: q.Category, InstanceChargeType: payType})
		if why := slices.DeleteFunc([]string{f.Unavailable, f.LookupError, f.Refusal}, func(s string) bool { return s == "" }); len(why) > 0 {
			diags.AddError("Cannot read the class catalogue", f.Combination+": "+why[0])
			return nil
		}
		offered[z] = f.Offered
	}
	details, err := data.classes.Details(ctx, data.API, data.Region)
	if err != nil {
		diags.AddError("Cannot read the class details", "ListClasses: "+err.Error())
		return nil
	}
	out, problem := rdsservice.SelectClasses(q, offered, details)
	if problem != nil {
		addProblems(diags, []rdsservice.Problem{*problem})
	}
	return out
}

func classOfferList(offers []rdsservice.ClassOffer) types.List {
	items := make([]attr.Value, 0, len(offers))
	for _, o := range offers {
		items = append(items, types.ObjectValueMust(instanceClassAttrTypes, map[string]attr.Value{
			"instance_class": types.StringValue(o.Class), "zone_id": types.StringValue(o.ZoneID), "cpu": types.Int64Value(o.CPU),
			"memory_gib": types.Float64Value(o.MemoryGiB), "architecture": types.StringValue(o.Architecture),
			"max_connections": types.Int64Value(o.MaxConnections), "max_iops": types.Int64Value(o.MaxIOPS),
			"storage_min": types.Int64Value(o.MinStorage), "storage_max": types.Int64Value(o.MaxStorage),
			"storage_step": types.Int64Value(o.Step), "atomic_write_16k_supported": types.BoolValue(o.AtomicWriteSupported),
		}))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: instanceClassAttrTypes}, items)
}
