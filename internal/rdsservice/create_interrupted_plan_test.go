package rdsservice

import (
	"context"
	"strings"
	"testing"
)

// The plan of a new instance whose configuration an interrupted apply was creating: the journal's
// verdict (here the adoption), or, when the instance it names cannot be read, the rule row naming
// the journal and the error; nothing while a value of the configuration is unknown.
func TestPlanInterruptedCreate(t *testing.T) {
	killed, next := openTwo(t, workDir(t), "default")
	config := ObjectAttr(map[string]AttrValue{"instance_name": StringAttr("db")})
	key := InterruptedKey(ResourceInstance, config, "config text")
	if key == "" || InterruptedKey(ResourceInstance, ObjectAttr(map[string]AttrValue{"instance_name": UnknownAttr()}), "config text") != "" {
		t.Fatal("a known configuration has no key, or one with an unknown value has one")
	}
	e, err := killed.Begin(ResourceInstance, key, "CreateDBInstance", "tok")
	if err != nil {
		t.Fatal(err)
	}
	if err := killed.Accepted(e, "rm-1"); err != nil {
		t.Fatal(err)
	}
	killed.lock.Close()
	api := newFakeAPI(newFakeClock())
	api.add("rm-1", false, true)
	env := Env{API: api, Journal: next}
	ctx := context.Background()
	if got := PlanInterruptedCreate(ctx, env, ResourceInstance, key); len(got) != 1 || got[0].Rule != RuleCreateAdopted {
		t.Fatalf("plan = %+v, want the adoption of rm-1", got)
	}
	api.describeErrs = []error{errInternal}
	got := PlanInterruptedCreate(ctx, env, ResourceInstance, key)
	if len(got) != 1 || got[0].Rule != RuleCreateJournalUnreadable || got[0].Severity != SeverityError ||
		!strings.Contains(got[0].Detail, next.Dir()) || !strings.Contains(got[0].Detail, "InternalError") {
		t.Fatalf("plan with the instance unreadable = %+v, want %s naming the journal and the error", got, RuleCreateJournalUnreadable)
	}
	if got := PlanInterruptedCreate(ctx, env, ResourceInstance, ""); got != nil {
		t.Fatalf("plan without a key = %+v, want nothing", got)
	}
}
