package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// `moved { from = alicloud_rds_parameter_group.x  to = rds_parameter_group.x }` (the alicloud
// schema is alicloud/resource_alicloud_rds_parameter_group.go: engine, engine_version,
// parameter_group_name, parameter_group_desc and param_detail, a set of {param_name, param_value}).
// alicloud_db_instance's db_param_group_id moves into rds_instance's parameter_group_id
// (moved_alicloud_features.go).

var _ resource.ResourceWithMoveState = (*parameterGroupResource)(nil)

// MoveState moves alicloud_rds_parameter_group into rds_parameter_group; a group of another
// engine than MySQL is refused as an instance's is.
func (r *parameterGroupResource) MoveState(context.Context) []resource.StateMover {
	return moveFromAlicloud(alicloudMove{
		target: parameterGroupKind, sources: []string{"alicloud_rds_parameter_group"},
		mapping: []alicloudMapping{
			{"id", []string{"id"}, kindString}, {rdsservice.AttrName, []string{"parameter_group_name"}, kindString},
			{rdsservice.AttrDescription, []string{"parameter_group_desc"}, kindString},
			{rdsservice.AttrEngineVersion, []string{"engine_version"}, kindString},
		},
		check: func(src alicloudState) error {
			if err := requireParts(src, []string{"id"}); err != nil {
				return err
			}
			if engine := src.str("engine"); engine != "" && !strings.EqualFold(engine, rdsservice.EngineMySQL) {
				return rdsservice.Raise(rdsservice.RuleMoveUnmanagedEngine, engine, parameterGroupKind, src.typeName, engine, rdsservice.EngineMySQL)
			}
			return nil
		},
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			params, err := src.paramDetail()
			if err != nil {
				resp.Diagnostics.AddError("Cannot move "+src.typeName, err.Error())
				return
			}
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(rdsservice.AttrParameters), params)...)
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(rdsservice.AttrEngine), rdsservice.EngineMySQL)...)
		},
	})
}

// paramDetail reads alicloud_rds_parameter_group's param_detail as this provider's map.
func (s alicloudState) paramDetail() (types.Map, error) {
	items, _ := s.attrs["param_detail"].([]any)
	elems := map[string]attr.Value{}
	for _, it := range items {
		block, _ := it.(map[string]any)
		name, _ := block["param_name"].(string)
		value, _ := block["param_value"].(string)
		if name == "" {
			return types.MapNull(types.StringType), fmt.Errorf("%s.param_detail holds %v, which has no param_name", s.typeName, it)
		}
		elems[name] = types.StringValue(value)
	}
	return types.MapValueMust(types.StringType, elems), nil
}
