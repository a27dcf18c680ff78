package provider

// The connectivity attributes of alicloud_db_instance and alicloud_db_readonly_instance through a move (issue 42
// §4): connection_string_prefix and port, security_group_ids and db_instance_ip_array_name. As for the day-2
// features (moved_alicloud_features.go), the alicloud state records the cloud's values for every instance, and
// these attributes are managed here only while configured, so each is carried when the alicloud state says the
// setting is in use: a prefix or port other than the instance's own (its id, 3306), security groups attached, an
// allow-list other than `default`. alicloud_db_connection, a resource of its own for the public endpoint, cannot
// move into an instance that already receives alicloud_db_instance (a moved block has one source per target): the
// guide's recipe is a removed block and public_endpoint (moving-from-alicloud.md). Sources:
// aliyun/terraform-provider-alicloud, alicloud/resource_alicloud_db_instance.go and resource_alicloud_db_connection.go.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// alicloudDefaultPort is the port of an instance whose endpoint nobody changed.
const alicloudDefaultPort = "3306"

// moveConnectivity sets connection_string_prefix, security_group_ids and the allow-lists.
func moveConnectivity(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
	set := func(name string, v attr.Value) {
		if _, ok := resp.TargetState.Schema.GetAttributes()[name]; ok { // rds_readonly_instance has no security_ips
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(name), v)...)
		}
	}
	set("connection_string_prefix", alicloudConnectionPrefix(src))
	groups, err := src.value(alicloudMapping{"security_group_ids", []string{"security_group_ids"}, kindStringSet})
	if err != nil {
		addMoveError(&resp.Diagnostics, src.target, err)
		return
	}
	if s, _ := groups.(types.Set); len(s.Elements()) == 0 {
		groups = types.SetNull(types.StringType)
	}
	set("security_group_ids", groups)
	name := src.str("db_instance_ip_array_name")
	if name == "" || name == rdsapi.DefaultSecurityIPArray {
		return
	}
	ips, err := src.value(alicloudMapping{"security_ips", []string{"security_ips"}, kindStringSet})
	if err != nil {
		addMoveError(&resp.Diagnostics, src.target, err)
		return
	}
	// security_ips is the list db_instance_ip_array_name names: that list, not `default`.
	set("security_ip_groups", types.MapValueMust(ipGroupsElemType, map[string]attr.Value{name: ips}))
	set("security_ips", types.SetNull(types.StringType))
}

// alicloudConnectionPrefix is connection_string_prefix when the internal endpoint is not the instance's own (its
// prefix is not the id, or its port not 3306): a configuration changed it, and the new one sets it; null otherwise.
func alicloudConnectionPrefix(src alicloudState) types.String {
	prefix := src.str("connection_string_prefix")
	if prefix == "" {
		prefix, _, _ = strings.Cut(src.str("connection_string"), ".")
	}
	port := ""
	if _, v := src.raw("port"); v != nil {
		port = fmt.Sprint(v)
	}
	if prefix == "" || (strings.EqualFold(prefix, src.str("id")) && (port == "" || port == alicloudDefaultPort)) {
		return types.StringNull()
	}
	return types.StringValue(prefix)
}
