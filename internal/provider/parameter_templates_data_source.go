package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// NewParameterTemplatesDataSource returns the rds_parameter_templates data source.
func NewParameterTemplatesDataSource() datasource.DataSource {
	return &parameterTemplatesDataSource{dataSourceBase{typeName: "rds_parameter_templates"}}
}

// parameterTemplatesDataSource lists the parameters users may set on an engine version: one
// DescribeParameterTemplates call.
type parameterTemplatesDataSource struct {
	dataSourceBase
}

type parameterTemplatesModel struct {
	Engine        types.String `tfsdk:"engine"`
	EngineVersion types.String `tfsdk:"engine_version"`
	Category      types.String `tfsdk:"category"`
	Parameters    types.List   `tfsdk:"parameters"`
}

var parameterTemplateAttrTypes = map[string]attr.Type{
	"name":             types.StringType,
	"default_value":    types.StringType,
	"allowed_values":   types.StringType,
	"restart_required": types.BoolType,
	"description":      types.StringType,
}

func (d *parameterTemplatesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the parameters users may set in `parameters` of `rds_instance` and `rds_readonly_instance` " +
			"for one engine version and edition, with the cloud's default, the allowed values and whether a change restarts " +
			"the instance (one `DescribeParameterTemplates` call). Parameters the cloud manages itself are not listed; " +
			"`innodb_doublewrite` follows `atomic_write_16k`.",
		Attributes: map[string]schema.Attribute{
			"engine": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Database engine, e.g. `MySQL`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"engine_version": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Engine version, e.g. `8.0`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"category": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Edition: `HighAvailability` (the default), `Basic` or `cluster`.",
			},
			"parameters": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The parameters users may change, sorted by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Parameter name, as `parameters` takes it."},
					"default_value": schema.StringAttribute{Computed: true, MarkdownDescription: "The cloud's default: a literal, or a " +
						"formula such as `{DBInstanceClassMemory*3/4}` that depends on the instance class."},
					"allowed_values": schema.StringAttribute{Computed: true, MarkdownDescription: "Allowed values as the cloud writes them " +
						"(`CheckingCode`): `[min-max]` for a range, `[a|b|c]` for a set."},
					"restart_required": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether a change takes effect only " +
						"after a restart; the plan then names the restart."},
					"description": schema.StringAttribute{Computed: true, MarkdownDescription: "What the parameter does."},
				}},
			},
		},
	}
}

func (d *parameterTemplatesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var cfg parameterTemplatesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	query := rdsapi.DescribeParameterTemplatesRequest{
		RegionID: d.data.Region, Engine: cfg.Engine.ValueString(), EngineVersion: cfg.EngineVersion.ValueString(),
		Category: cfg.Category.ValueString(),
	}
	t, err := d.data.parameterTemplates.Template(ctx, d.data.API, query)
	if err != nil {
		resp.Diagnostics.AddError("Error reading RDS parameter templates",
			fmt.Sprintf("DescribeParameterTemplates %s %s: %v", query.Engine, query.EngineVersion, err))
		return
	}
	items := make([]attr.Value, 0, len(t.Parameters))
	for _, name := range t.Names() {
		p := t.Parameters[name]
		if !p.Modifiable {
			continue
		}
		obj, diags := types.ObjectValue(parameterTemplateAttrTypes, map[string]attr.Value{
			"name":             types.StringValue(p.Name),
			"default_value":    types.StringValue(p.Default),
			"allowed_values":   types.StringValue(p.Allowed),
			"restart_required": types.BoolValue(p.Restart),
			"description":      types.StringValue(p.Description),
		})
		resp.Diagnostics.Append(diags...)
		items = append(items, obj)
	}
	list, diags := types.ListValue(types.ObjectType{AttrTypes: parameterTemplateAttrTypes}, items)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg.Parameters = list
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
