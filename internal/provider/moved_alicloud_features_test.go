package provider

// The day-2 attributes of alicloud_db_instance (minor version, secondary zones, storage
// autoscaling, subscription billing, SSL, TDE, resource group) through a move: the instance has
// them all in the cloud, the alicloud state records them as alicloud's Read and configuration do,
// and the configuration that sets them plans empty right after the move
// (moved_alicloud_features.go).

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

const (
	movedTDEKey  = "key-migrate-0001"
	movedTDERole = "acs:ram::1234567890:role/aliyunrdsinstanceencryptiondefaultrole"
)

// featureFacts are the template values of the day-2 attributes: what alicloud's Read records for
// the instance (minor version, upgrade mode, secondary zones, pay type, auto-renewal, resource
// group, SSL, TDE). The attributes alicloud keeps from its configuration only (upgrade_time,
// period, the autoscaling settings, tde_encryption_key, role_arn) are those of a configuration
// that does not set them; a test sets them when its configuration does.
func featureFacts(t *testing.T, api rdsapi.API, attr *rdsapi.DBInstanceAttribute) map[string]any {
	t.Helper()
	ctx := context.Background()
	ssl, err := api.DescribeDBInstanceSSL(ctx, attr.DBInstanceID)
	if err != nil {
		t.Fatal(err)
	}
	tde, err := api.DescribeDBInstanceTDE(ctx, attr.DBInstanceID)
	if err != nil {
		t.Fatal(err)
	}
	renew, _, err := api.DescribeInstanceAutoRenewal(ctx, attr.DBInstanceID)
	if err != nil {
		t.Fatal(err)
	}
	slaves := append(attr.SlaveZones.Zones(), "", "")
	facts := map[string]any{
		"MinorVersion": attr.CurrentKernelVersion, "AutoUpgradeMinor": attr.AutoUpgradeMinorVersion, "UpgradeTime": "",
		"SlaveA": slaves[0], "SlaveB": slaves[1], "ChargeType": attr.PayType, "Period": 0, "AutoRenew": renew.AutoRenew,
		"ResourceGroup": attr.ResourceGroupID, "SSLAction": "Close", "TDEStatus": tde.TDEStatus, "TDEKey": "", "RoleArn": "",
		"AutoScale": "", "Threshold": 0, "UpperBound": 0, "EffectiveTime": "",
	}
	if ssl.Enabled() {
		facts["SSLAction"] = "Open"
	}
	return facts
}

// movedFeatures turns the day-2 features on for the primary of c, as a configuration of the
// alicloud provider would have.
func (c *movedCloud) movedFeatures(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.w.waitRunning(ctx, c.api, movedPrimary); err != nil {
			t.Fatal(err)
		}
	}
	must(c.api.ModifyDBInstanceAutoUpgradeMinorVersion(ctx, movedPrimary, rdsapi.AutoUpgradeMinorManual))
	must(c.api.ModifyDasInstanceConfig(ctx, movedPrimary, rdsapi.StorageAutoScale{Enabled: true, Threshold: 30, UpperBound: 500}))
	_, err := c.api.TransformDBInstancePayType(ctx, &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: movedPrimary,
		PayType: rdsapi.PayTypePrepaid, Subscription: &rdsapi.Subscription{Period: "Month", UsedTime: 2, AutoRenew: true}})
	must(err)
	attr, err := c.api.DescribeDBInstanceAttribute(ctx, movedPrimary)
	must(err)
	must(c.api.ModifyDBInstanceSSL(ctx, &rdsapi.ModifyDBInstanceSSLRequest{DBInstanceID: movedPrimary,
		ConnectionString: attr.ConnectionString, Enabled: true}))
	must(c.api.ModifyDBInstanceTDE(ctx, &rdsapi.ModifyDBInstanceTDERequest{DBInstanceID: movedPrimary,
		EncryptionKey: movedTDEKey, RoleARN: movedTDERole}))
}

func TestMoveFromAlicloudInstanceFeatures(t *testing.T) {
	c := newMovedCloud(t)
	c.movedFeatures(t)
	facts := c.instanceFacts(t, movedPrimary)
	// What alicloud keeps from the configuration that turned the features on.
	maps.Copy(facts, map[string]any{"UpgradeTime": "Immediate", "Period": 2, "AutoScale": "Enable", "Threshold": 30,
		"UpperBound": 500, "TDEKey": movedTDEKey, "RoleArn": movedTDERole,
		"EffectiveTime": "MaintainTime"})
	for name, want := range map[string]any{"ChargeType": rdsapi.PayTypePrepaid, "AutoRenew": true, "SSLAction": "Open",
		"TDEStatus": "Enabled", "AutoUpgradeMinor": rdsapi.AutoUpgradeMinorManual} {
		if facts[name] != want {
			t.Fatalf("the cloud's %s is %v, want %v: the features were not turned on", name, facts[name], want)
		}
	}
	resp := c.move(t, alicloudProvider, "alicloud_db_instance", "rds_instance", renderAlicloudState(t, "db_instance", facts))
	config := map[string]any{
		"engine": "MySQL", "engine_version": "8.0", "instance_type": facts["Class"], "storage": int(facts["Storage"].(int64)),
		"storage_type": facts["StorageType"], "category": facts["Category"], "zone_id": facts["Zone"], "vpc_id": facts["VPC"],
		"vswitch_id": facts["VSwitch"], "security_ips": []string{"127.0.0.1"}, "maintenance_window": facts["MaintainTime"],
		"released_keep_policy": "Lastest", "parameters": map[string]string{movedIOCap: facts["IOCapacity"].(string)},
		"tags": movedTags, "target_minor_version": facts["MinorVersion"], "auto_upgrade_minor_version": "Manual",
		"zone_id_slave_a": facts["SlaveA"], "storage_auto_scale": map[string]any{"threshold": 30, "upper_bound": 500},
		"billing":     map[string]any{"pay_type": "Prepaid", "period": "Month", "used_time": 2, "auto_renew": true},
		"ssl_enabled": true, "tde_enabled": true, "tde_encryption_key": movedTDEKey, "tde_role_arn": movedTDERole,
		"apply_restarts": "in_maintenance_window",
		"sql_audit":      map[string]any{"enabled": true, "retention_days": 30, "hot_retention_days": 7},
	}
	moved := c.planAfterMove(t, "rds_instance.main", resp, config)
	for name, want := range map[string]tftypes.Value{
		"target_minor_version": tftypes.NewValue(tftypes.String, facts["MinorVersion"]),
		"ssl_enabled":          tftypes.NewValue(tftypes.Bool, true),
		"tde_encryption_key":   tftypes.NewValue(tftypes.String, movedTDEKey),
		"apply_restarts":       tftypes.NewValue(tftypes.String, "in_maintenance_window"),
	} {
		if got := attrOf(moved, name); !got.Equal(want) {
			t.Errorf("moved state %s = %s, want %s", name, got, want)
		}
	}
}

// Each day-2 attribute is carried exactly when the alicloud state says the feature is on (or, for
// the minor version, that the configuration managed it), and is null otherwise, so a configuration
// that leaves the feature alone plans empty (TestMoveFromAlicloudInstance).
func TestAlicloudFeatureValues(t *testing.T) {
	state := func(attrs map[string]any) alicloudState {
		return alicloudState{typeName: "alicloud_db_instance", target: "rds_instance", attrs: attrs}
	}
	prepaid := func(months int, renew bool) map[string]any {
		return map[string]any{"instance_charge_type": "Prepaid", "period": months, "auto_renew": renew}
	}
	billing := func(period string, used int64, renew bool) types.Object {
		p, u, r := types.StringNull(), types.Int64Null(), types.BoolNull()
		if period != "" {
			p, u = types.StringValue(period), types.Int64Value(used)
		}
		if renew {
			r = types.BoolValue(true)
		}
		return types.ObjectValueMust(billingAttrTypes, map[string]attr.Value{"pay_type": types.StringValue("Prepaid"),
			"period": p, "used_time": u, "auto_renew": r})
	}
	for name, tc := range map[string]struct {
		attrs map[string]any
		want  types.Object
	}{
		"pay-as-you-go":       {map[string]any{"instance_charge_type": "Postpaid", "period": 0}, types.ObjectNull(billingAttrTypes)},
		"three months":        {prepaid(3, false), billing("Month", 3, false)},
		"one year renewing":   {prepaid(12, true), billing("Year", 1, true)},
		"three years":         {prepaid(36, false), billing("Year", 3, false)},
		"prepaid, no period":  {prepaid(0, false), billing("", 0, false)},
		"period as a string":  {map[string]any{"instance_charge_type": "Prepaid", "period": "24"}, billing("Year", 2, false)},
		"serverless is unset": {map[string]any{"instance_charge_type": "Serverless"}, types.ObjectNull(billingAttrTypes)},
	} {
		got, err := alicloudBilling(state(tc.attrs))
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%s: billing = %v (%v), want %v", name, got, err, tc.want)
		}
	}
	for name, tc := range map[string]struct {
		attrs map[string]any
		want  types.String
	}{
		"read only (every alicloud state)": {map[string]any{"target_minor_version": "rds_20240731", "upgrade_time": ""}, types.StringNull()},
		"configured with upgrade_time":     {map[string]any{"target_minor_version": "rds_20240731", "upgrade_time": "Immediate"}, types.StringValue("rds_20240731")},
		"configured with switch_time":      {map[string]any{"target_minor_version": "rds_20240731", "switch_time": "2026-12-01T02:00:00Z"}, types.StringValue("rds_20240731")},
	} {
		if got := alicloudTargetMinor(state(tc.attrs)); !got.Equal(tc.want) {
			t.Errorf("%s: target_minor_version = %v, want %v", name, got, tc.want)
		}
	}
	if got, err := alicloudAutoScale(state(map[string]any{"storage_auto_scale": "Disable", "storage_threshold": 30})); err != nil || !got.IsNull() {
		t.Errorf("disabled autoscaling moves as %v (%v), want null", got, err)
	}
	var refusal rdsservice.Problem
	if _, err := alicloudAutoScale(state(map[string]any{"storage_auto_scale": "Enable", "storage_threshold": "thirty"})); !errors.As(err, &refusal) ||
		refusal.Rule != rdsservice.RuleMoveNotWholeNumber {
		t.Errorf("a storage_threshold that is not a number: %v, want the %s row", err, rdsservice.RuleMoveNotWholeNumber)
	}
	ssl, tde, key, role := alicloudSecurity(state(map[string]any{"ssl_action": "Close", "tde_status": "Disabled",
		"tde_encryption_key": movedTDEKey, "role_arn": movedTDERole}))
	if !ssl.IsNull() || !tde.IsNull() || !key.IsNull() || !role.IsNull() {
		t.Errorf("SSL closed and TDE disabled move as ssl %v, tde %v, key %v, role %v; want all null", ssl, tde, key, role)
	}
}

// A read-only instance whose alicloud configuration deferred its spec changes to the maintenance
// window (effective_time = "MaintainTime") moves with apply_restarts = "in_maintenance_window", and
// keeps its resource group.
func TestMoveFromAlicloudReadonlyInMaintenanceWindow(t *testing.T) {
	c := newMovedCloud(t)
	facts := c.instanceFacts(t, movedReadonly)
	facts["EffectiveTime"] = "MaintainTime"
	resp := c.move(t, alicloudProvider, "alicloud_db_readonly_instance", "rds_readonly_instance", renderAlicloudState(t, "db_readonly_instance", facts))
	moved := c.planAfterMove(t, "rds_readonly_instance.replica", resp, map[string]any{
		"master_instance_id": movedPrimary, "engine_version": "8.0", "instance_type": facts["Class"],
		"storage": int(facts["Storage"].(int64)), "storage_type": facts["StorageType"], "zone_id": facts["Zone"],
		"vswitch_id": facts["VSwitch"], "parameters": map[string]string{movedIOCap: facts["IOCapacity"].(string)},
		"tags": movedTags, "apply_restarts": "in_maintenance_window",
	})
	if got := attrOf(moved, "apply_restarts"); !got.Equal(tftypes.NewValue(tftypes.String, "in_maintenance_window")) {
		t.Errorf("moved apply_restarts = %s, want in_maintenance_window", got)
	}
	if got := attrOf(moved, "resource_group_id"); !got.Equal(tftypes.NewValue(tftypes.String, facts["ResourceGroup"])) {
		t.Errorf("moved resource_group_id = %s, want %v", got, facts["ResourceGroup"])
	}
}
