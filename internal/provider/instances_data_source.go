package provider

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// The filter values DescribeDBInstances documents (Engine; DBInstanceStatus, spec §11). The
// cloud compares them in its own spelling, so a filter is sent in that spelling whatever case the
// configuration uses: `mysql` and `running` match as `MySQL` and `Running` do.
var (
	listEngines  = []string{"MySQL", "PostgreSQL", "SQLServer", "MariaDB"}
	listStatuses = []string{
		"Creating", "Running", "Deleting", "Rebooting", "Stopping", "Stopped", "DBInstanceClassChanging", "TRANSING",
		"EngineVersionUpgrading", "TransingToOthers", "GuardDBInstanceCreating", "Restoring", "Importing",
		"ImportingFromOthers", "DBInstanceNetTypeChanging", "GuardSwitching", "INS_CLONING", "Released",
	}
)

// canonicalSpelling is the known value equal to v but for letter case (v itself when none is).
func canonicalSpelling(known []string, v string) string {
	for _, k := range known {
		if strings.EqualFold(k, v) {
			return k
		}
	}
	return v
}

func markdownList(values []string) string { return "`" + strings.Join(values, "`, `") + "`" }

// anyCaseOneOf accepts the known values in any letter case.
type anyCaseOneOf []string

func (v anyCaseOneOf) Description(context.Context) string {
	return "one of " + strings.Join(v, ", ") + " (any letter case)"
}

func (v anyCaseOneOf) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v anyCaseOneOf) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !isKnown(req.ConfigValue) {
		return
	}
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckListFilter(req.Path.String(), req.ConfigValue.ValueString(), v))
}

// NewInstancesDataSource returns the rds_instances data source.
func NewInstancesDataSource() datasource.DataSource {
	return &instancesDataSource{dataSourceBase{typeName: "rds_instances"}}
}

// instancesDataSource lists instances, all pages, with filters.
type instancesDataSource struct {
	dataSourceBase
}

type instancesDataModel struct {
	instanceFilter
	IDs       types.List `tfsdk:"ids"`
	Instances types.List `tfsdk:"instances"`
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
				Optional: true,
				MarkdownDescription: "Only instances of this engine, in any letter case: " + markdownList(listEngines) +
					". Another value is a validation error.",
				Validators: []validator.String{anyCaseOneOf(listEngines)},
			},
			"status": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only instances in this status (`DBInstanceStatus`), in any letter case: " +
					markdownList(listStatuses) + ". Another value is a validation error.",
				Validators: []validator.String{anyCaseOneOf(listStatuses)},
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

func (d *instancesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var cfg instancesDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var matched []string
	for _, it := range listFleet(ctx, d.data, cfg.instanceFilter, "", &resp.Diagnostics) {
		matched = append(matched, it.DBInstanceID)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ids, objs := d.describeMatched(ctx, matched, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
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

// matchedIDs is the sorted IDs of the listed instances whose description matches nameRE (all
// when nil), each once: the paged list may repeat an instance.
func matchedIDs(items []rdsapi.DBInstanceSummary, nameRE *regexp.Regexp) []string {
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
	return matched
}

// describeMatched reads each matched instance, since the list carries no 16K atomic write,
// storage size or architecture, and returns the IDs and instance objects of those still there.
// It stops at the first error, reported in diags.
func (d *instancesDataSource) describeMatched(ctx context.Context, matched []string, diags *diag.Diagnostics) (ids, objs []attr.Value) {
	ids = make([]attr.Value, 0, len(matched))
	objs = make([]attr.Value, 0, len(matched))
	for _, id := range matched {
		a, err := d.data.API.DescribeDBInstanceAttribute(ctx, id)
		if rdsapi.IsNotFound(err) {
			continue // deleted between the list and now
		}
		if err != nil {
			diags.AddError("Error reading RDS instance", fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", id, err))
			return nil, nil
		}
		m, mdiags := instanceDataFromAttribute(a)
		diags.Append(mdiags...)
		if diags.HasError() {
			return nil, nil
		}
		obj, odiags := types.ObjectValueFrom(ctx, instanceDataAttrTypes, m)
		diags.Append(odiags...)
		if diags.HasError() {
			return nil, nil
		}
		ids = append(ids, types.StringValue(id))
		objs = append(objs, obj)
	}
	return ids, objs
}
