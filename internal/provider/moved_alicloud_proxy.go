package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ resource.ResourceWithMoveState = (*dbProxyResource)(nil)

// MoveState: `moved { from = alicloud_rds_db_proxy.x  to = rds_db_proxy.x }`. The alicloud
// resource's id is the primary's (aliyun/terraform-provider-alicloud,
// alicloud/resource_alicloud_rds_db_proxy.go, which has spelt the primary instance_id and, later,
// db_instance_id). Its weights (a set of objects, later a JSON string) and features (a
// "Name:Status" string) are left to the refresh that follows the move, which reads every attribute
// from the cloud as an import does.
func (r *dbProxyResource) MoveState(context.Context) []resource.StateMover {
	instance := []string{"db_instance_id", "instance_id", "id"}
	return moveFromAlicloud(alicloudMove{
		target: "rds_db_proxy", sources: []string{"alicloud_rds_db_proxy"},
		mapping: []alicloudMapping{
			{"instance_id", instance, kindString}, {"instance_num", []string{"db_proxy_instance_num"}, kindInt},
			{"instance_type", []string{"db_proxy_instance_type"}, kindString}, {"vswitch_id", []string{"vswitch_id"}, kindString},
			{"read_write_mode", []string{"db_endpoint_read_write_mode", "db_proxy_endpoint_read_write_mode"}, kindString},
			{"max_delay_seconds", []string{"read_only_instance_max_delay_time"}, kindInt},
		},
		check: func(src alicloudState) error { return requireParts(src, instance) },
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), src.str(instance...))...)
		},
	})
}
