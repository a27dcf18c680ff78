package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// destroyOps is a destroy program in words: action (and what it sends) per operation.
func destroyOps(p Program) string {
	var out []string
	for _, op := range p.Operations {
		s := op.Instance + " " + op.Action
		switch {
		case op.Billing != nil:
			s += " to " + op.Billing.PayType
		case op.Keep != "":
			s += " keeping " + op.Keep
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// The destroy's program for every kind of instance, and the plan's messages rendered from it:
// deletion protection and a subscription without prepaid_on_destroy refuse with no operation; a
// subscription converts before the release or is abandoned with no cloud write; a lock under
// which the cloud refuses a write of the program is warned of (the apply fails at once); the keep policy travels with the release; a primary's
// read-only instances go with it.
func TestDestroyProgramContents(t *testing.T) {
	const wait = "rm-1 " + OpWaitDeleted
	cases := []struct {
		name  string
		req   DestroyRequest
		ops   string
		rules []RuleID
	}{
		{"pay-as-you-go", DestroyRequest{}, "rm-1 DeleteDBInstance; " + wait, nil},
		{"protected", DestroyRequest{DeletionProtection: true}, "", []RuleID{RuleDestroyRefusedProtection}},
		{"subscription without a choice", DestroyRequest{Prepaid: true}, "", []RuleID{RuleBillingDestroy}},
		{"protected subscription", DestroyRequest{Prepaid: true, DeletionProtection: true, OnDestroy: OnDestroyAbandon}, "", []RuleID{RuleDestroyRefusedProtection}},
		{"convert_and_delete", DestroyRequest{Prepaid: true, OnDestroy: OnDestroyConvertAndDelete, KeepPolicy: rdsapi.ReleasedKeepAll},
			"rm-1 TransformDBInstancePayType to Postpaid; rm-1 DeleteDBInstance keeping All; " + wait, []RuleID{RuleBillingDestroyConv, RuleReleasedKeepOnDestroy}},
		{"abandon", DestroyRequest{Prepaid: true, OnDestroy: OnDestroyAbandon, KeepPolicy: rdsapi.ReleasedKeepAll}, "rm-1 " + OpAbandon, []RuleID{RuleBillingDestroyAband}},
		{"pay-as-you-go with a choice", DestroyRequest{OnDestroy: OnDestroyAbandon}, "rm-1 DeleteDBInstance; " + wait, nil},
		{"locked by expiration", DestroyRequest{LockMode: "LockByExpiration"}, "rm-1 DeleteDBInstance; " + wait, []RuleID{RuleInstanceLocked}},
		{"disk-quota lock", DestroyRequest{LockMode: "LockByDiskQuota"}, "rm-1 DeleteDBInstance; " + wait, nil},
		{"disk-quota lock, converted", DestroyRequest{LockMode: "LockByDiskQuota", Prepaid: true, OnDestroy: OnDestroyConvertAndDelete},
			"rm-1 TransformDBInstancePayType to Postpaid; rm-1 DeleteDBInstance; " + wait, []RuleID{RuleInstanceLocked, RuleBillingDestroyConv}},
		{"expired subscription abandoned", DestroyRequest{LockMode: "LockByExpiration", Prepaid: true, OnDestroy: OnDestroyAbandon}, "rm-1 " + OpAbandon, []RuleID{RuleBillingDestroyAband}},
		{"primary with read-only instances", DestroyRequest{ReadOnlyInstances: []string{"rr-1", "rr-2"}},
			"rm-1 DeleteDBInstance; rr-1 " + OpReleasedWithPrimary + "; rr-2 " + OpReleasedWithPrimary + "; " + wait, []RuleID{RuleDestroyReleasesReadOnly}},
	}
	for _, c := range cases {
		c.req.InstanceID = "rm-1"
		plan := PlanDestroyProgram(c.req)
		if got := destroyOps(plan.Program); got != c.ops {
			t.Errorf("%s: program %q, want %q", c.name, got, c.ops)
		}
		msgs := plan.Messages()
		if fmt.Sprint(rulesOf(msgs)) != fmt.Sprint(c.rules) || plan.Refused() != (c.ops == "") {
			t.Errorf("%s: messages %v (refused %t), want %v", c.name, rulesOf(msgs), plan.Refused(), c.rules)
		}
		for _, m := range msgs {
			if (m.Severity == SeverityError) != plan.Refused() {
				t.Errorf("%s: %s has severity %v, refused %t", c.name, m.Rule, m.Severity, plan.Refused())
			}
		}
	}
	ro := PlanDestroyProgram(DestroyRequest{InstanceID: "rr-1", ReadOnly: true}).Messages()
	if len(ro) != 0 {
		t.Errorf("a read-only instance's destroy says %v", rulesOf(ro))
	}
	if m := PlanDestroyProgram(cases[len(cases)-1].req).Messages(); !strings.Contains(m[0].Summary, "rr-1, rr-2") {
		t.Errorf("the read-only instances are not named: %q", m[0].Summary)
	}
}

// keepRecorder records the keep policy of each release and sends it on.
type keepRecorder struct {
	rdsapi.API
	kept []string
}

func (r *keepRecorder) DeleteDBInstance(ctx context.Context, id string) error {
	r.kept = append(r.kept, id+":")
	return r.API.DeleteDBInstance(ctx, id)
}

func (r *keepRecorder) DeleteDBInstanceKeeping(ctx context.Context, id, keep string) error {
	r.kept = append(r.kept, id+":"+keep)
	return r.API.DeleteDBInstanceKeeping(ctx, id, keep)
}

func destroyEnv(t *testing.T) (*matrixEnv, context.Context) {
	t.Helper()
	e := newMatrixEnvWith(t, simulator.Options{RestartDuration: 50 * time.Millisecond, DeleteDuration: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return e, ctx
}

func subscribe(ctx context.Context, t *testing.T, api rdsapi.API, id string) {
	t.Helper()
	_, err := api.TransformDBInstancePayType(ctx, &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: id, PayType: PayTypePrepaid,
		Subscription: &rdsapi.Subscription{Period: PeriodMonth, UsedTime: 1}, ClientToken: rdsapi.NewClientToken()})
	if err != nil {
		t.Fatal(err)
	}
}

func exists(ctx context.Context, t *testing.T, api rdsapi.API, id string) bool {
	t.Helper()
	_, err := api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil && !rdsapi.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

// A subscription destroyed with convert_and_delete: one conversion, one release with the keep
// policy, and the instance is gone; abandoned, nothing is sent and it keeps running.
func TestDestroyProgramRunsOnSimulator(t *testing.T) {
	e, ctx := destroyEnv(t)
	rec := &keepRecorder{API: e.api}
	converted, abandoned := seedYiTian(t, e.sim), seedYiTian(t, e.sim)
	subscribe(ctx, t, e.api, converted)
	subscribe(ctx, t, e.api, abandoned)
	e.sim.ResetStats()

	plan := PlanDestroyProgram(DestroyRequest{InstanceID: converted, Prepaid: true, OnDestroy: OnDestroyConvertAndDelete, KeepPolicy: rdsapi.ReleasedKeepLastest})
	if out := ExecuteDestroy(ctx, rec, e.waiter, plan); out.Err != nil {
		t.Fatalf("convert_and_delete: %s: %v", out.Step, out.Err)
	}
	st := e.sim.Stats()
	if st.Requests["TransformDBInstancePayType"] != 1 || st.Requests["DeleteDBInstance"] != 1 || exists(ctx, t, e.api, converted) {
		t.Fatalf("convert_and_delete sent %d conversions and %d releases; the instance exists: %t",
			st.Requests["TransformDBInstancePayType"], st.Requests["DeleteDBInstance"], exists(ctx, t, e.api, converted))
	}
	if fmt.Sprint(rec.kept) != "["+converted+":Lastest]" {
		t.Fatalf("releases %v, want one keeping Lastest", rec.kept)
	}

	e.sim.ResetStats()
	plan = PlanDestroyProgram(DestroyRequest{InstanceID: abandoned, Prepaid: true, OnDestroy: OnDestroyAbandon})
	if out := ExecuteDestroy(ctx, e.api, e.waiter, plan); out.Err != nil || !plan.Abandons() {
		t.Fatalf("abandon: %v (abandons %t)", out.Err, plan.Abandons())
	}
	if n := writesOf(e.sim.Stats()); n != 0 || !exists(ctx, t, e.api, abandoned) {
		t.Fatalf("abandon sent %d writes; the instance exists: %t", n, exists(ctx, t, e.api, abandoned))
	}
}

// writesOf counts the requests that are not reads.
func writesOf(st simulator.Stats) int {
	n := 0
	for action, count := range st.Requests {
		if !strings.HasPrefix(action, "Describe") {
			n += count
		}
	}
	return n
}

// Between the plan and the apply someone else changes the instance: the executor plans the
// destroy again before the first write. Deletion protection turned on, or a pay type that now
// needs a conversion (or no longer allows the abandonment) the plan did not show: refused with
// changed-since-plan and nothing sent. Released already: nothing to do.
func TestDestroyProgramRechecksBeforeWriting(t *testing.T) {
	e, ctx := destroyEnv(t)
	refused := func(name, id string, plan DestroyPlan, want string) {
		t.Helper()
		e.sim.ResetStats()
		out := ExecuteDestroy(ctx, e.api, e.waiter, plan)
		var changed *ChangedSincePlanError
		if !errors.As(out.Err, &changed) || !strings.Contains(out.Err.Error(), want) {
			t.Fatalf("%s: %s: %v, want changed-since-plan saying %q", name, out.Step, out.Err, want)
		}
		if n := writesOf(e.sim.Stats()); n != 0 || !exists(ctx, t, e.api, id) {
			t.Fatalf("%s: %d writes sent (%v); the instance exists: %t", name, n, e.sim.Stats().Requests, exists(ctx, t, e.api, id))
		}
	}
	protected := seedYiTian(t, e.sim)
	plan := PlanDestroyProgram(DestroyRequest{InstanceID: protected})
	if err := e.api.ModifyDBInstanceDeletionProtection(ctx, protected, true); err != nil {
		t.Fatal(err)
	}
	refused("deletion protection turned on", protected, plan, "deletion_protection is true (the plan saw false)")

	bought := seedYiTian(t, e.sim)
	plan = PlanDestroyProgram(DestroyRequest{InstanceID: bought, OnDestroy: OnDestroyConvertAndDelete})
	subscribe(ctx, t, e.api, bought)
	refused("converted to a subscription", bought, plan, "converts it to pay-as-you-go, then releases it")
	refused("a subscription without a choice", bought, PlanDestroyProgram(DestroyRequest{InstanceID: bought}), "needs prepaid_on_destroy")

	unsubscribed := seedYiTian(t, e.sim)
	subscribe(ctx, t, e.api, unsubscribed)
	plan = PlanDestroyProgram(DestroyRequest{InstanceID: unsubscribed, Prepaid: true, OnDestroy: OnDestroyAbandon})
	if _, err := e.api.TransformDBInstancePayType(ctx, &rdsapi.TransformDBInstancePayTypeRequest{DBInstanceID: unsubscribed, PayType: PayTypePostpaid,
		ClientToken: rdsapi.NewClientToken()}); err != nil {
		t.Fatal(err)
	}
	refused("an abandoned subscription converted to pay-as-you-go", unsubscribed, plan, "the pay type is Postpaid (the plan saw Prepaid)")

	gone := seedYiTian(t, e.sim)
	plan = PlanDestroyProgram(DestroyRequest{InstanceID: gone})
	if err := e.api.DeleteDBInstance(ctx, gone); err != nil {
		t.Fatal(err)
	}
	if err := e.waiter.WaitDeleted(ctx, gone); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	if out := ExecuteDestroy(ctx, e.api, e.waiter, plan); out.Err != nil || e.sim.Stats().Requests["DeleteDBInstance"] != 0 {
		t.Fatalf("released already: %v, %d DeleteDBInstance", out.Err, e.sim.Stats().Requests["DeleteDBInstance"])
	}
}
