package provider

// The alicloud_db_instance attributes whose counterparts came with the day-2 features (minor
// version, zones, storage autoscaling, subscription billing, SSL and TDE): how a move carries them.
// Most of these are Optional without Computed here ("unset: not managed"), so the moved state must
// hold a value exactly when the user's new configuration sets one, or the first plan shows a change
// that sends nothing. The alicloud state records the cloud's value for several of them whether the
// user set them or not; a value is carried when it says the feature is on (SSL open, TDE enabled,
// autoscaling enabled, a subscription), which a configuration that leaves the feature alone never
// shows, and left null when it is the cloud's default. Sources: aliyun/terraform-provider-alicloud
// v1.286.0, alicloud/resource_alicloud_db_instance.go (schema and resourceAliCloudDBInstanceRead).

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// alicloudInstanceFeatureMapping are the plain copies: attributes that are Computed here too, so
// a configuration that leaves them out keeps the moved value.
var alicloudInstanceFeatureMapping = []alicloudMapping{
	{"auto_upgrade_minor_version", []string{"auto_upgrade_minor_version"}, kindString},
	{"zone_id_slave_a", []string{"zone_id_slave_a"}, kindString}, {"zone_id_slave_b", []string{"zone_id_slave_b"}, kindString},
	{"resource_group_id", []string{"resource_group_id"}, kindString},
	{"parameter_group_id", []string{"db_param_group_id"}, kindString},
}

// moveInstanceFeatures sets the attributes that need more than a copy.
func moveInstanceFeatures(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
	set := func(name string, v attr.Value) {
		resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(name), v)...)
	}
	set("target_minor_version", alicloudTargetMinor(src))
	autoScale, err := alicloudAutoScale(src)
	if err != nil {
		addMoveError(&resp.Diagnostics, src.target, err)
		return
	}
	set("storage_auto_scale", autoScale)
	billing, err := alicloudBilling(src)
	if err != nil {
		addMoveError(&resp.Diagnostics, src.target, err)
		return
	}
	set("billing", billing)
	ssl, tde, key, role := alicloudSecurity(src)
	set("ssl_enabled", ssl)
	set("tde_enabled", tde)
	set("tde_encryption_key", key)
	set("tde_role_arn", role)
}

// alicloudTargetMinor carries target_minor_version when the alicloud configuration managed the
// minor version. alicloud's Read writes the running version into target_minor_version for every
// instance, so its value alone does not say; upgrade_time and switch_time are written only by a
// configuration (Read never sets them) and, per alicloud's documentation, "valid only when
// target_minor_version is changed".
func alicloudTargetMinor(src alicloudState) types.String {
	target := src.str("target_minor_version")
	if target == "" || src.str("upgrade_time", "switch_time") == "" {
		return types.StringNull()
	}
	return types.StringValue(target)
}

// alicloudAutoScale is storage_auto_scale from storage_auto_scale = "Enable" with
// storage_threshold and storage_upper_bound (alicloud keeps the three as configured: its Read
// copies them from the configuration); null when autoscaling is not enabled.
func alicloudAutoScale(src alicloudState) (types.Object, error) {
	if src.str("storage_auto_scale") != "Enable" {
		return types.ObjectNull(autoScaleAttrTypes), nil
	}
	threshold, err := src.whole("storage_threshold")
	if err != nil {
		return types.ObjectNull(autoScaleAttrTypes), err
	}
	upper, err := src.whole("storage_upper_bound")
	if err != nil {
		return types.ObjectNull(autoScaleAttrTypes), err
	}
	return autoScaleObject(rdsapi.StorageAutoScale{Enabled: true, Threshold: threshold, UpperBound: upper}), nil
}

// alicloudBilling is billing for a subscription (instance_charge_type = "Prepaid"): alicloud's
// period counts months, and its create sends 12, 24 and 36 as 1 to 3 years (Period = Year) and
// 1 to 9 as months; auto_renew is carried when true (false is the default of both providers).
// Null for pay-as-you-go, the default of both, and for a Prepaid state without a period.
func alicloudBilling(src alicloudState) (types.Object, error) {
	if src.str("instance_charge_type") != rdsapi.PayTypePrepaid {
		return types.ObjectNull(billingAttrTypes), nil
	}
	months, err := src.whole("period")
	if err != nil {
		return types.ObjectNull(billingAttrTypes), err
	}
	period, used := types.StringNull(), types.Int64Null()
	switch {
	case months >= 12 && months%12 == 0:
		period, used = types.StringValue("Year"), types.Int64Value(months/12)
	case months > 0:
		period, used = types.StringValue("Month"), types.Int64Value(months)
	}
	renew := types.BoolNull()
	if on, _ := src.attrs["auto_renew"].(bool); on {
		renew = types.BoolValue(true)
	}
	return types.ObjectValueMust(billingAttrTypes, map[string]attr.Value{
		"pay_type": types.StringValue(rdsapi.PayTypePrepaid), "period": period, "used_time": used, "auto_renew": renew,
	}), nil
}

// alicloudSecurity is ssl_enabled, tde_enabled and TDE's key and role: true when alicloud's state
// shows SSL open (ssl_action "Open" or "Update") or TDE enabled (tde_status "Enabled"), null
// otherwise. The key is alicloud's tde_encryption_key (its encryption_key is the disk's, which
// this provider does not manage), and the role its role_arn, carried with a TDE key only.
func alicloudSecurity(src alicloudState) (ssl, tde types.Bool, key, role types.String) {
	ssl, tde, key, role = types.BoolNull(), types.BoolNull(), types.StringNull(), types.StringNull()
	if a := src.str("ssl_action"); a == "Open" || a == "Update" {
		ssl = types.BoolValue(true)
	}
	if src.str("tde_status") != "Enabled" {
		return ssl, tde, key, role
	}
	tde = types.BoolValue(true)
	if k := src.str("tde_encryption_key"); k != "" {
		key = types.StringValue(k)
		if r := src.str("role_arn"); r != "" {
			role = types.StringValue(r)
		}
	}
	return ssl, tde, key, role
}

// whole is a whole-number attribute of the source (a JSON number or a string holding one); 0
// when absent.
func (s alicloudState) whole(name string) (int64, error) {
	_, v := s.raw(name)
	if v == nil {
		return 0, nil
	}
	n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64)
	if err != nil {
		return 0, rdsservice.Raise(rdsservice.RuleMoveNotWholeNumber, fmt.Sprint(v), s.target, s.typeName, name, fmt.Sprint(v))
	}
	return n, nil
}

// alicloudApplyRestarts is apply_restarts from alicloud's effective_time, which its configuration
// alone sets (Read never does) and which sends a spec change with EffectiveTime = MaintainTime,
// as apply_restarts = "in_maintenance_window" does here; null (the refresh makes it the default,
// "immediately") otherwise.
func alicloudApplyRestarts(src alicloudState) types.String {
	if src.str("effective_time") == "MaintainTime" {
		return types.StringValue(rdsservice.ApplyRestartsInWindow)
	}
	return types.StringNull()
}
