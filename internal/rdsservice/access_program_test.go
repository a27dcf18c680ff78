package rdsservice

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The access resources' programs against the simulator: what PlanAccess derives from the facts,
// and the executor's second plan before each write (changed-since-plan, or nothing sent again).

const accessTestPassword = "Passw0rd!x"

type accessEnv struct {
	*matrixEnv
	ctx context.Context
	id  string
}

func newAccessEnv(t *testing.T) *accessEnv {
	t.Helper()
	e := newMatrixEnvWith(t, simulator.Options{AccountDuration: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return &accessEnv{matrixEnv: e, ctx: ctx, id: seedYiTian(t, e.sim)}
}

func (e *accessEnv) plan(req AccessRequest) AccessPlan {
	e.t.Helper()
	req.InstanceID = e.id
	p, err := PlanAccess(e.ctx, e.api, req)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// apply plans and executes req, failing the test on a refusal or an error.
func (e *accessEnv) apply(req AccessRequest) AccessOutcome {
	e.t.Helper()
	p := e.plan(req)
	if len(p.Problems) > 0 {
		e.t.Fatalf("plan of %+v refused: %v", req, p.Problems)
	}
	out := ExecuteAccess(e.ctx, e.api, e.waiter, p, accessTestPassword)
	if out.Err != nil {
		e.t.Fatalf("%s: %v", out.Step, out.Err)
	}
	return out
}

func actions(p Program) []string {
	var out []string
	for _, op := range p.Operations {
		out = append(out, op.Action)
	}
	return out
}

func (e *accessEnv) requests(actions ...string) int {
	st := e.sim.Stats()
	n := 0
	for _, a := range actions {
		n += st.Requests[a]
	}
	return n
}

var accessWrites = []string{OpCreateAccount, OpModifyAccountDescription, OpResetAccountPassword, OpDeleteAccount, OpCreateDatabase,
	OpModifyDBDescription, OpDeleteDatabase, OpGrantAccountPrivilege, OpRevokeAccountPrivilege}

func account(name string) AccessRequest {
	return AccessRequest{Kind: KindAccount, Name: name, AccountType: rdsapi.AccountTypeNormal}
}

func wantChangedSincePlan(t *testing.T, out AccessOutcome, rule RuleID) {
	t.Helper()
	var changed *ChangedSincePlanError
	if !errors.As(out.Err, &changed) {
		t.Fatalf("got %v, want changed-since-plan", out.Err)
	}
	if rule != "" && !slices.ContainsFunc(changed.Problems, func(p Problem) bool { return p.Rule == rule }) {
		t.Fatalf("changed-since-plan names %v, want rule %s", changed.Problems, rule)
	}
}

// The programs of an account's create, description change and password reset, and delete, each
// sending exactly its planned calls; the password is never in the program.
func TestAccessProgramsOfAnAccount(t *testing.T) {
	e := newAccessEnv(t)
	create := account("app")
	create.Create = true
	if got := actions(e.plan(create).Program); !slices.Equal(got, []string{OpCreateAccount}) {
		t.Fatalf("create: %v", got)
	}
	e.sim.ResetStats()
	out := e.apply(create)
	if !out.Exists || out.Account == nil || out.Account.AccountStatus != rdsapi.AccountStatusAvailable {
		t.Fatalf("create: %+v", out.Account)
	}
	if n := e.requests(accessWrites...); n != 1 {
		t.Fatalf("create sent %d writes, want 1", n)
	}

	desc, update := "Orders service", account("app")
	update.Description, update.ResetPassword = &desc, true
	p := e.plan(update)
	if got := actions(p.Program); !slices.Equal(got, []string{OpModifyAccountDescription, OpResetAccountPassword}) {
		t.Fatalf("update: %v", got)
	}
	for _, op := range p.Program.Operations {
		if op.Access == nil || op.Access.Description == accessTestPassword {
			t.Fatalf("operation %+v", op)
		}
	}
	e.sim.ResetStats()
	if out := e.apply(update); out.Account.AccountDescription != desc {
		t.Fatalf("description %q", out.Account.AccountDescription)
	}
	if e.requests(OpModifyAccountDescription) != 1 || e.requests(OpResetAccountPassword) != 1 {
		t.Fatalf("update requests: %v", e.sim.Stats().Requests)
	}
	update.ResetPassword = false
	if got := e.plan(update).Program.Operations; len(got) != 0 {
		t.Fatalf("the description is as configured: %v", actions(Program{Operations: got}))
	}

	del := account("app")
	del.Delete = true
	e.sim.ResetStats()
	e.apply(del)
	if e.requests(OpDeleteAccount) != 1 {
		t.Fatalf("delete requests: %v", e.sim.Stats().Requests)
	}
	if got := e.plan(del).Program.Operations; len(got) != 0 {
		t.Fatalf("deleting an account that is gone plans %v", actions(Program{Operations: got}))
	}
}

// An account deleted outside between the plan and the apply: the reset is refused, no write.
func TestAccessResetRefusedWhenTheAccountWasDeletedSincePlan(t *testing.T) {
	e := newAccessEnv(t)
	create := account("app")
	create.Create = true
	e.apply(create)
	reset := account("app")
	reset.ResetPassword = true
	p := e.plan(reset)
	if got := actions(p.Program); !slices.Equal(got, []string{OpResetAccountPassword}) {
		t.Fatalf("reset: %v", got)
	}
	if err := e.api.DeleteAccount(e.ctx, e.id, "app"); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	out := ExecuteAccess(e.ctx, e.api, e.waiter, p, accessTestPassword)
	wantChangedSincePlan(t, out, "")
	// Planned at the apply, after the deletion (Terraform's plan saw the account): refused too.
	wantChangedSincePlan(t, ExecuteAccess(e.ctx, e.api, e.waiter, e.plan(reset), accessTestPassword), "")
	if n := e.requests(accessWrites...); n != 0 {
		t.Fatalf("the refused reset sent %d writes", n)
	}
}

// An account of the same name created outside between the plan and the apply: the create is
// refused with account-exists and sends nothing; an interrupted apply's own account (Adopt) is
// taken over: its password set, no second CreateAccount.
func TestAccessCreateRefusedWhenTheAccountWasCreatedSincePlan(t *testing.T) {
	e := newAccessEnv(t)
	create := account("app")
	create.Create = true
	p := e.plan(create)
	if err := e.api.CreateAccount(e.ctx, &rdsapi.CreateAccountRequest{DBInstanceID: e.id, AccountName: "app", AccountPassword: accessTestPassword,
		AccountType: rdsapi.AccountTypeNormal}); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	wantChangedSincePlan(t, ExecuteAccess(e.ctx, e.api, e.waiter, p, accessTestPassword), RuleAccountExists)
	if n := e.requests(accessWrites...); n != 0 {
		t.Fatalf("the refused create sent %d writes", n)
	}

	create.Adopt = true
	if got := actions(e.plan(create).Program); !slices.Equal(got, []string{OpResetAccountPassword}) {
		t.Fatalf("adopting: %v", got)
	}
	e.sim.ResetStats()
	if out := e.apply(create); !out.Exists {
		t.Fatal("the adopted account is not reported")
	}
	if e.requests(OpCreateAccount) != 0 || e.requests(OpResetAccountPassword) != 1 {
		t.Fatalf("adopting: %v", e.sim.Stats().Requests)
	}
}

// A lock put on the instance between the plan and the apply refuses the write; the lock the plan
// already saw is the plan's warning, not a change.
func TestAccessWriteRefusedWhenTheInstanceWasLockedSincePlan(t *testing.T) {
	e := newAccessEnv(t)
	db := AccessRequest{Kind: KindDatabase, Name: "orders", CharacterSet: "utf8mb4", Create: true}
	p := e.plan(db)
	if err := e.sim.SetInstanceState(e.id, simulator.InstanceState{LockMode: "ManualLock"}); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	wantChangedSincePlan(t, ExecuteAccess(e.ctx, e.api, e.waiter, p, ""), RuleInstanceLocked)
	if n := e.requests(accessWrites...); n != 0 {
		t.Fatalf("the refused create sent %d writes", n)
	}
}

// Grants: a privilege granted outside is not granted again and one revoked outside not revoked
// again; the plan only grants and revokes what differs from the cloud. A database dropped since
// the plan refuses the grant (privilege-database-missing), and the account's deletion refuses it too.
func TestAccessGrantsPlanOnlyWhatDiffers(t *testing.T) {
	e := newAccessEnv(t)
	create := account("app")
	create.Create = true
	e.apply(create)
	for _, name := range []string{"aa", "bb", "cc", "dd"} {
		e.apply(AccessRequest{Kind: KindDatabase, Name: name, CharacterSet: "utf8mb4", Create: true})
	}
	grant := AccessRequest{Kind: KindPrivilege, Name: "app", Privilege: rdsapi.PrivilegeReadWrite, Create: true, DBNames: []string{"aa", "bb"}}
	e.apply(grant)

	change := grant
	change.Create, change.DBNames, change.Granted = false, []string{"aa", "cc", "dd"}, []string{"aa", "bb"}
	stale := e.plan(change)
	if got := stale.Program.Operations; len(got) != 2 || !slices.Equal(got[0].Access.DBNames, []string{"cc", "dd"}) ||
		!slices.Equal(got[1].Access.DBNames, []string{"bb"}) {
		t.Fatalf("change: %+v", got)
	}
	// Outside: cc granted, bb revoked.
	if err := e.api.GrantAccountPrivilege(e.ctx, &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: e.id, AccountName: "app",
		DBNames: []string{"cc"}, AccountPrivilege: rdsapi.PrivilegeReadWrite}); err != nil {
		t.Fatal(err)
	}
	if err := e.api.RevokeAccountPrivilege(e.ctx, e.id, "app", []string{"bb"}); err != nil {
		t.Fatal(err)
	}
	if got := e.plan(change).Program.Operations; len(got) != 1 || got[0].Action != OpGrantAccountPrivilege ||
		!slices.Equal(got[0].Access.DBNames, []string{"dd"}) {
		t.Fatalf("after the outside grant and revoke: %+v", got)
	}
	e.sim.ResetStats()
	if out := ExecuteAccess(e.ctx, e.api, e.waiter, stale, ""); out.Err != nil {
		t.Fatal(out.Err)
	}
	if e.requests(OpGrantAccountPrivilege) != 1 || e.requests(OpRevokeAccountPrivilege) != 0 {
		t.Fatalf("the stale plan's execution: %v, want one grant (dd) and no revoke", e.sim.Stats().Requests)
	}
	acc, err := FindAccount(e.ctx, e.api, e.id, "app")
	if err != nil || !slices.Equal(GrantedOn(acc, rdsapi.PrivilegeReadWrite), []string{"aa", "cc", "dd"}) {
		t.Fatalf("granted: %v, %v", acc, err)
	}

	more := change
	more.DBNames, more.Granted = []string{"aa", "bb", "cc", "dd"}, []string{"aa", "cc", "dd"}
	p := e.plan(more)
	if err := e.api.DeleteDatabase(e.ctx, e.id, "bb"); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	wantChangedSincePlan(t, ExecuteAccess(e.ctx, e.api, e.waiter, p, ""), RulePrivilegeDatabaseMissing)
	if n := e.requests(accessWrites...); n != 0 {
		t.Fatalf("the refused grant sent %d writes", n)
	}
}

// Revoking on destroy: only what the resource granted and the account still holds; an account
// deleted outside leaves nothing to revoke (no write, no error).
func TestAccessPrivilegeDeleteRevokesOnlyWhatIsHeld(t *testing.T) {
	e := newAccessEnv(t)
	create := account("app")
	create.Create = true
	e.apply(create)
	for _, name := range []string{"aa", "bb"} {
		e.apply(AccessRequest{Kind: KindDatabase, Name: name, CharacterSet: "utf8mb4", Create: true})
	}
	e.apply(AccessRequest{Kind: KindPrivilege, Name: "app", Privilege: rdsapi.PrivilegeReadOnly, Create: true, DBNames: []string{"aa", "bb"}})
	if err := e.api.RevokeAccountPrivilege(e.ctx, e.id, "app", []string{"aa"}); err != nil {
		t.Fatal(err)
	}
	del := AccessRequest{Kind: KindPrivilege, Name: "app", Privilege: rdsapi.PrivilegeReadOnly, Delete: true, Granted: []string{"aa", "bb"}}
	p := e.plan(del)
	if got := p.Program.Operations; len(got) != 1 || !slices.Equal(got[0].Access.DBNames, []string{"bb"}) {
		t.Fatalf("delete: %+v", got)
	}
	if err := e.api.DeleteAccount(e.ctx, e.id, "app"); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	if out := ExecuteAccess(e.ctx, e.api, e.waiter, p, ""); out.Err != nil {
		t.Fatalf("revoking from a deleted account: %v", out.Err)
	}
	if n := e.requests(OpRevokeAccountPrivilege); n != 0 {
		t.Fatalf("revoked %d times from a deleted account", n)
	}
}

// An account whose instance is released between the plan and the apply (Terraform destroys both
// at once when the account finds its instance through a data source): the delete has nothing left
// to do, since the account goes with the instance; it is not refused, and sends nothing.
func TestAccessDeleteDoneWhenTheInstanceIsReleasedSincePlan(t *testing.T) {
	e := newAccessEnv(t)
	create := account("app")
	create.Create = true
	e.apply(create)
	del := account("app")
	del.Delete = true
	p := e.plan(del)
	if got := actions(p.Program); !slices.Equal(got, []string{OpDeleteAccount}) {
		t.Fatalf("delete: %v", got)
	}
	if err := e.api.DeleteDBInstance(e.ctx, e.id); err != nil {
		t.Fatal(err)
	}
	e.sim.ResetStats()
	if out := ExecuteAccess(e.ctx, e.api, e.waiter, p, ""); out.Err != nil {
		t.Fatalf("the delete after the instance's release failed: %s: %v", out.Step, out.Err)
	}
	if n := e.requests(accessWrites...); n != 0 {
		t.Fatalf("the delete sent %d writes to an instance being released", n)
	}
}
