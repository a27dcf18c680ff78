package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Subscription (Prepaid) billing of rds_instance (issue 27 §3): the schema, the planner's input,
// the read back, and the destroy of a subscription instance. The rules, warnings and operations
// are rdsservice's (billing_rules.go, billing_program.go, executor_billing.go).

// billingModel maps billing.
type billingModel struct {
	PayType   types.String `tfsdk:"pay_type"`
	Period    types.String `tfsdk:"period"`
	UsedTime  types.Int64  `tfsdk:"used_time"`
	AutoRenew types.Bool   `tfsdk:"auto_renew"`
}

var billingAttrTypes = map[string]attr.Type{"pay_type": types.StringType, "period": types.StringType,
	"used_time": types.Int64Type, "auto_renew": types.BoolType}

func billingAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"billing": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "How the instance is paid for. Unset: pay-as-you-go at create, and billing is not managed. " +
				"`Prepaid` (subscription) buys `used_time` periods up front when the apply runs (the plan warns and names the " +
				"term); changing `pay_type` converts in place (`TransformDBInstancePayType`): to `Prepaid` is a purchase, to " +
				"`Postpaid` refunds the unused part minus a service fee. See the Subscription billing guide.",
			Attributes: map[string]schema.Attribute{
				"pay_type": schema.StringAttribute{
					Required:            true,
					MarkdownDescription: "`Postpaid` (pay-as-you-go, by the hour) or `Prepaid` (subscription).",
					Validators:          []validator.String{stringvalidator.OneOf(rdsapi.PayTypePostpaid, rdsapi.PayTypePrepaid)},
				},
				"period": schema.StringAttribute{
					Optional:            true,
					MarkdownDescription: "`Month` or `Year` (Prepaid only): the unit of `used_time`, and of auto-renewal (1 or 12 months).",
				},
				"used_time": schema.Int64Attribute{
					Optional: true,
					MarkdownDescription: "How many periods a purchase buys (Prepaid only): 1 to 11 months or 1 to 5 years. Used when the " +
						"subscription is bought (create or conversion); changing it later buys nothing (the plan says so).",
				},
				"auto_renew": schema.BoolAttribute{
					Optional: true,
					MarkdownDescription: "Renew automatically for one period when the subscription ends (Prepaid only); changes in " +
						"place (`ModifyInstanceAutoRenewalAttribute`, read back with `DescribeInstanceAutoRenewalAttribute`). " +
						"Unset is false: an expired instance is locked (`lock_mode = \"LockByExpiration\"`).",
				},
			},
		},
		"prepaid_on_destroy": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "What a destroy does to a subscription (Prepaid) instance, which the cloud does not release: " +
				"`convert_and_delete` (convert to pay-as-you-go, refunding the unused part minus a fee, then release) or " +
				"`abandon` (remove from state; the instance keeps running and stays billed until it expires). Unset: " +
				"destroying a Prepaid instance is a plan error. The plan of a destroy says which.",
			Validators: []validator.String{stringvalidator.OneOf(rdsservice.OnDestroyConvertAndDelete, rdsservice.OnDestroyAbandon)},
		},
		"expire_time": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the subscription ends (UTC, `ExpireTime`); null for pay-as-you-go. Auto-renewal moves it.",
		},
	}
}

// createSubscription is what CreateDBInstance carries for a Prepaid billing (nil otherwise); the
// pay type is returned with it.
func createSubscription(ctx context.Context, plan instanceModel) (string, *rdsapi.Subscription) {
	b := rdsservice.BillingOf(serviceValue(ctx, plan.Billing))
	if b == nil || !b.Prepaid() {
		return rdsapi.PayTypePostpaid, nil
	}
	return rdsapi.PayTypePrepaid, &rdsapi.Subscription{Period: b.Period, UsedTime: b.UsedTime, AutoRenew: b.AutoRenew}
}

// readBilling reads expire_time, and billing's pay type and auto-renewal when billing is managed
// (one DescribeInstanceAutoRenewalAttribute, for subscription instances with auto_renew set).
// period and used_time are the purchase's and cannot be read back: the state keeps them.
func readBilling(ctx context.Context, api rdsapi.API, a *rdsapi.DBInstanceAttribute, m *instanceModel, diags *diag.Diagnostics) {
	m.ExpireTime = emptyAsNull(types.StringValue(a.ExpireTime))
	if a.PayType != rdsapi.PayTypePrepaid {
		m.ExpireTime = types.StringNull()
	}
	if m.Billing.IsNull() || m.Billing.IsUnknown() {
		return
	}
	var b billingModel
	diags.Append(m.Billing.As(ctx, &b, basetypes.ObjectAsOptions{})...)
	if a.PayType == rdsapi.PayTypePostpaid || a.PayType == rdsapi.PayTypePrepaid {
		b.PayType = types.StringValue(a.PayType)
	}
	if a.PayType == rdsapi.PayTypePrepaid && !b.AutoRenew.IsNull() {
		r, found, err := api.DescribeInstanceAutoRenewal(ctx, a.DBInstanceID)
		if err != nil {
			diags.AddError("Error reading RDS instance auto-renewal", fmt.Sprintf("DescribeInstanceAutoRenewalAttribute %s: %v", a.DBInstanceID, err))
			return
		}
		b.AutoRenew = types.BoolValue(found && r.AutoRenew)
	}
	o, d := types.ObjectValueFrom(ctx, billingAttrTypes, b)
	diags.Append(d...)
	m.Billing = o
}

// moveBilling carries alicloud's destroy choice for a subscription instance: force_delete = true on
// a Prepaid alicloud_db_instance converts it to pay-as-you-go before deleting it, which is
// prepaid_on_destroy = "convert_and_delete". Without it alicloud only forgot the instance; here its
// destroy is refused at plan until prepaid_on_destroy is set.
func moveBilling(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
	if force, _ := src.attrs["force_delete"].(bool); force && src.str("instance_charge_type") == rdsapi.PayTypePrepaid {
		resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("prepaid_on_destroy"), rdsservice.OnDestroyConvertAndDelete)...)
	}
}
