package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewInstanceClassFunction returns provider::rds::instance_class.
func NewInstanceClassFunction() function.Function {
	return rdsFunction{name: "instance_class", run: runInstanceClass, definition: function.Definition{
		Summary: "Parse an instance class name",
		MarkdownDescription: "Parses a class such as `mysql.n2.medium.2c` (`<engine>.<family>.<size>.<suffix>`) into `family` " +
			"(`n2`, `x4m`, `n2e`), `group` (`General` or `Dedicated`), `cpu` (small 1, medium 2, large 4, xlarge 8, Nxlarge 8N), " +
			"`memory_gib` (the family's digit in GiB per core), `architecture` (`arm` for YiTian families, as the plan derives " +
			"it, else `x86`) and `edition` (`Basic`, `HighAvailability`, `cluster` or `ReadOnly`). A name of another shape is an error.",
		Parameters: []function.Parameter{function.StringParameter{Name: "name", MarkdownDescription: "Instance class, e.g. `mysql.n2.medium.2c`."}},
		Return:     function.ObjectReturn{AttributeTypes: classInfoTypes},
	}}
}

var classInfoTypes = map[string]attr.Type{"family": types.StringType, "group": types.StringType, "cpu": types.Int64Type,
	"memory_gib": types.Int64Type, "architecture": types.StringType, "edition": types.StringType}

func runInstanceClass(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var name string
	if resp.Error = req.Arguments.Get(ctx, &name); resp.Error != nil {
		return
	}
	info, problems := rdsservice.ParseInstanceClass(name)
	if resp.Error = funcError(0, problems); resp.Error != nil {
		return
	}
	out, diags := types.ObjectValue(classInfoTypes, map[string]attr.Value{"family": types.StringValue(info.Family),
		"group": types.StringValue(info.Group), "cpu": types.Int64Value(info.CPU), "memory_gib": types.Int64Value(info.MemoryGiB),
		"architecture": types.StringValue(info.Architecture), "edition": types.StringValue(info.Edition)})
	if resp.Error = function.FuncErrorFromDiags(ctx, diags); resp.Error == nil {
		resp.Error = resp.Result.Set(ctx, out)
	}
}

// NewMaintenanceWindowUTCFunction returns provider::rds::maintenance_window_utc.
func NewMaintenanceWindowUTCFunction() function.Function {
	return rdsFunction{name: "maintenance_window_utc", run: twoStringsRun(rdsservice.MaintenanceWindowUTC, rdsservice.RuleTimeZone), definition: function.Definition{
		Summary: "Turn a local maintenance window into the UTC form maintenance_window takes",
		MarkdownDescription: "Turns a daily window in local time (`HH:mm-HH:mm`) in a time zone into the `HH:mmZ-HH:mmZ` form " +
			"`maintenance_window` takes, checked as the plan checks it (a window that starts when it ends is refused). " +
			"`time_zone` is `UTC`, an offset (`+08:00`, `UTC-5`) or a zone name whose offset does not change over the year " +
			"(`Asia/Shanghai`): the API takes one daily UTC window, which a zone with daylight saving time would move twice a year.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "window", MarkdownDescription: "Local window, e.g. `02:00-03:00`."},
			function.StringParameter{Name: "time_zone", MarkdownDescription: "`UTC`, an offset such as `+08:00`, or a zone name."},
		},
		Return: function.StringReturn{},
	}}
}

// NewParameterRestartsFunction returns provider::rds::parameter_restarts.
func NewParameterRestartsFunction() function.Function {
	return rdsFunction{name: "parameter_restarts", run: twoStringsRun(rdsservice.ParameterRestarts, rdsservice.RuleParamTemplateVersion), definition: function.Definition{
		Summary: "Whether changing a MySQL parameter restarts the instance",
		MarkdownDescription: "Says whether a change of a MySQL parameter takes effect only after a restart, from the parameter " +
			"templates compiled into the provider (MySQL 5.7 and 8.0). A name the plan would refuse in `parameters` (unknown, " +
			"with the closest names, or not modifiable) is the plan's error. The plan itself checks against the cloud's " +
			"template (`rds_parameter_templates`).",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "name", MarkdownDescription: "Parameter name, e.g. `innodb_buffer_pool_instances`."},
			function.StringParameter{Name: "engine_version", MarkdownDescription: "MySQL version, `5.7` or `8.0`."},
		},
		Return: function.BoolReturn{},
	}}
}
