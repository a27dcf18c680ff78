package provider

import (
	"context"
	"fmt"
	"regexp"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ datasource.DataSource              = (*instancesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*instancesDataSource)(nil)
)

// NewInstancesDataSource returns the rds_instances data source.
func NewInstancesDataSource() datasource.DataSource {
	return &instancesDataSource{}
}

// instancesDataSource lists instances, all pages, with filters.
type instancesDataSource struct {
	data *ProviderData
}

type instancesDataModel struct {
	NameRegex types.String `tfsdk:"name_regex"`
	Engine    types.String `tfsdk:"engine"`
	Status    types.String `tfsdk:"status"`
	VpcID     types.String `tfsdk:"vpc_id"`
	IDs       types.List   `tfsdk:"ids"`
	Instances types.List   `tfsdk:"instances"`
}

func (d *instancesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instances"
}

func (d *instancesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	elem := instanceDataComputedAttributes()
	elem["id"] = schema.StringAttribute{Computed: true, MarkdownDescription: instanceDataDescriptions["id"]}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists ApsaraDB RDS instances of the provider's region, reading every page of " +
			"`DescribeDBInstances` (token paging). `engine`, `status` and `vpc_id` are filtered by the API, `name_regex` " +
			"by the provider.\n\n" +
			"**Cost:** the list API does not return 16K atomic write, storage size or architecture, so the data source makes " +
			"one extra `DescribeDBInstanceAttribute` call for every instance that passes the filters (and only for those). " +
			"Narrow the filters when many instances match, to keep plans fast and clear of API rate limits.",
		Attributes: map[string]schema.Attribute{
			"name_regex": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Regular expression (Go RE2 syntax) the instance name (`DBInstanceDescription`) must match.",
				Validators:          []validator.String{regexValidator{}},
			},
			"engine": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only instances of this engine, e.g. `MySQL`.",
			},
			"status": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only instances in this status, e.g. `Running`.",
			},
			"vpc_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only instances in this VPC.",
			},
			"ids": schema.ListAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Ids of the matching instances, sorted.",
			},
			"instances": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching instances, in the order of `ids`.",
				NestedObject:        schema.NestedAttributeObject{Attributes: elem},
			},
		},
	}
}

func (d *instancesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, "data source rds_instances", &resp.Diagnostics)
}

func (d *instancesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var cfg instancesDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var nameRE *regexp.Regexp
	if isKnown(cfg.NameRegex) {
		re, err := regexp.Compile(cfg.NameRegex.ValueString())
		if err != nil {
			// The validator already refused it; kept so Read never trusts its caller.
			resp.Diagnostics.AddError("Invalid name_regex", err.Error())
			return
		}
		nameRE = re
	}

	items, err := rdsservice.ListAllDBInstances(ctx, d.data.API, &rdsapi.DescribeDBInstancesRequest{
		RegionID:         d.data.Region,
		Engine:           cfg.Engine.ValueString(),
		DBInstanceStatus: cfg.Status.ValueString(),
		VPCID:            cfg.VpcID.ValueString(),
	})
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS instances", err.Error())
		return
	}

	seen := map[string]bool{}
	var matched []string
	for _, it := range items {
		if seen[it.DBInstanceID] || it.DBInstanceID == "" {
			continue
		}
		if nameRE != nil && !nameRE.MatchString(it.DBInstanceDescription) {
			continue
		}
		seen[it.DBInstanceID] = true
		matched = append(matched, it.DBInstanceID)
	}
	sort.Strings(matched)

	ids := make([]attr.Value, 0, len(matched))
	objs := make([]attr.Value, 0, len(matched))
	for _, id := range matched {
		// The list carries no 16K atomic write, storage size or architecture.
		a, err := d.data.API.DescribeDBInstanceAttribute(ctx, id)
		if rdsapi.IsNotFound(err) {
			continue // deleted between the list and now
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
		obj, diags := types.ObjectValueFrom(ctx, instanceDataAttrTypes, m)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		ids = append(ids, types.StringValue(id))
		objs = append(objs, obj)
	}
	idList, diags := types.ListValue(types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	instList, diags := types.ListValue(types.ObjectType{AttrTypes: instanceDataAttrTypes}, objs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg.IDs, cfg.Instances = idList, instList
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
