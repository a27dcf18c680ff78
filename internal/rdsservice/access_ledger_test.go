package rdsservice

import (
	"slices"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func TestLedgerAccessPlans(t *testing.T) {
	t.Parallel()
	var l Ledger
	if twice, super := l.PlanAccount("rm-1", "boss", rdsapi.AccountTypeSuper); twice || super != "" {
		t.Fatalf("first account: twice %v, super %q", twice, super)
	}
	if twice, super := l.PlanAccount("rm-1", "other", rdsapi.AccountTypeSuper); twice || super != "boss" {
		t.Errorf("second Super: twice %v, super %q, want the first named", twice, super)
	}
	if twice, super := l.PlanAccount("rm-2", "app", rdsapi.AccountTypeNormal); twice || super != "" {
		t.Errorf("another instance's Super leaks: twice %v, super %q", twice, super)
	}
	if twice, _ := l.PlanAccount("rm-1", "boss", rdsapi.AccountTypeSuper); !twice {
		t.Error("an account planned twice is not reported")
	}
	if kind, ok := l.PlannedAccount("rm-2", "app"); !ok || kind != rdsapi.AccountTypeNormal {
		t.Errorf("PlannedAccount = %q, %v", kind, ok)
	}
	if _, ok := l.PlannedAccount("rm-2", "nobody"); ok {
		t.Error("an account no plan names is planned")
	}
	if l.PlanDatabase("rm-1", "orders") || !l.PlanDatabase("rm-1", "orders") {
		t.Error("PlanDatabase reports twice wrongly")
	}
	if !l.PlansDatabase("rm-1", "orders") || l.PlansDatabase("rm-2", "orders") {
		t.Error("PlansDatabase answers for the wrong instance")
	}
	if taken := l.PlanGrant("rm-1", "app", "ReadOnly", []string{"b", "a"}); len(taken) != 0 {
		t.Errorf("first grant taken %v", taken)
	}
	want := []string{`"a" (ReadOnly, planned by another rds_account_privilege)`, `"b" (ReadOnly, planned by another rds_account_privilege)`}
	if taken := l.PlanGrant("rm-1", "app", "ReadWrite", []string{"b", "c", "a"}); !slices.Equal(taken, want) {
		t.Errorf("second grant taken %v, want %v", taken, want)
	}
}

func TestOtherSuper(t *testing.T) {
	t.Parallel()
	accounts := []rdsapi.DBInstanceAccount{{AccountName: "app", AccountType: rdsapi.AccountTypeNormal},
		{AccountName: "boss", AccountType: rdsapi.AccountTypeSuper}}
	if got := OtherSuper(accounts, "new"); got != "boss" {
		t.Errorf("OtherSuper = %q, want boss", got)
	}
	if got := OtherSuper(accounts, "boss"); got != "" {
		t.Errorf("OtherSuper of the Super itself = %q, want none", got)
	}
}
