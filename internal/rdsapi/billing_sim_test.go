package rdsapi_test

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// A subscription bought at create, its auto-renewal changed and read back, then converted to
// pay-as-you-go, against the simulator.
func TestSubscriptionAgainstSimulator(t *testing.T) {
	_, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 3)
	ctx := context.Background()
	req := newMySQL("prepaid")
	req.PayType = rdsapi.PayTypePrepaid
	req.Subscription = &rdsapi.Subscription{Period: rdsapi.PeriodMonth, UsedTime: 2, AutoRenew: true}
	created, err := c.CreateDBInstance(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	poll(t, c, id, func(a *rdsapi.DBInstanceAttribute, err error) bool {
		return err == nil && a.DBInstanceStatus == rdsapi.StatusRunning
	})
	if r, found, err := c.DescribeInstanceAutoRenewal(ctx, id); err != nil || !found || !r.AutoRenew || r.Duration != 1 {
		t.Fatalf("renewal after the create: %+v %v %v", r, found, err)
	}
	if err := c.ModifyInstanceAutoRenewalAttribute(ctx, id, rdsapi.AutoRenewal{AutoRenew: false}); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := c.DescribeInstanceAutoRenewal(ctx, id); r.AutoRenew {
		t.Fatalf("auto-renewal still on: %+v", r)
	}
	if err := c.ModifyInstanceAutoRenewalAttribute(ctx, id, rdsapi.AutoRenewal{AutoRenew: true, Duration: 13}); err == nil {
		t.Fatal("Duration 13 must be refused before sending")
	}
	if err := c.DeleteDBInstance(ctx, id); rdsapi.ErrorCode(err) != "OperationDenied.PrePayTypeNotSupported" {
		t.Fatalf("deleting a Prepaid primary: %v", err)
	}
	out, err := c.TransformDBInstancePayType(ctx, &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: id, PayType: rdsapi.PayTypePostpaid})
	if err != nil || out.ChargeType != "POSTPAY" {
		t.Fatalf("transform: %+v %v", out, err)
	}
	if _, found, err := c.DescribeInstanceAutoRenewal(ctx, id); err != nil || found {
		t.Fatalf("a pay-as-you-go instance has no renewal: %v %v", found, err)
	}
	if _, err := c.TransformDBInstancePayType(ctx, &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: id, PayType: rdsapi.PayTypePrepaid}); err == nil {
		t.Fatal("Prepaid without a subscription must be refused before sending")
	}
	if err := c.DeleteDBInstance(ctx, id); err != nil {
		t.Fatal(err)
	}
}
