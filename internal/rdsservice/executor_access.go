package rdsservice

import (
	"context"
	"errors"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The executor's access operations (access_program.go): each plans the request again, refuses
// when the facts changed since the plan in a way that forbids it, skips what someone else already
// did, and otherwise sends the call as the new plan has it, retried while the instance is busy,
// then waits for the cloud to finish it (an account Available, a database Running, an object
// deleted no longer listed).

// AccessApply is one access resource's apply: its plan and the password the configuration sets
// (never part of a plan, a log or the state). The executor records the object as last read.
type AccessApply struct {
	Plan     AccessPlan
	password string
	account  *rdsapi.DBInstanceAccount
	database *rdsapi.Database
}

// AccessOutcome is what an access apply did: the executor's outcome, whether the object exists
// (so the resource tracks it even when a later wait failed) and the object as last read.
type AccessOutcome struct {
	Outcome
	Exists   bool
	Account  *rdsapi.DBInstanceAccount
	Database *rdsapi.Database
}

// ExecuteAccess runs the plan's program with the one executor, then reads the object once more
// (waiting for a new one to be ready).
func ExecuteAccess(ctx context.Context, api rdsapi.API, w *Waiter, plan AccessPlan, password string) AccessOutcome {
	if err := plan.updatesMissing(); err != nil {
		return AccessOutcome{Outcome: Outcome{ID: plan.Request.InstanceID, Err: err, Step: "reading the " + accessNoun(plan.Request.Kind)}}
	}
	apply := &AccessApply{Plan: plan, password: password}
	out := AccessOutcome{Outcome: Execute(ctx, api, w, Execution{ID: plan.Request.InstanceID, Decision: Decision{Program: plan.Program}, Access: apply})}
	req := plan.Request
	if out.Err == nil && !req.Delete && req.Kind != KindPrivilege {
		if err := apply.readBack(ctx, api, w); err != nil {
			out.Err, out.Step = err, "reading the "+accessNoun(req.Kind)+" after the apply"
		}
	}
	out.Account, out.Database = apply.account, apply.database
	out.Exists = out.Account != nil || out.Database != nil
	return out
}

// updatesMissing refuses an update of an account or database the instance no longer has: the
// resource is in the state, so the object went after Terraform's plan (changed-since-plan).
func (p AccessPlan) updatesMissing() error {
	r := p.Request
	if r.Create || r.Delete || r.Kind == KindPrivilege || p.Found || p.Facts.InstanceMissing {
		return nil
	}
	return &ChangedSincePlanError{ID: r.InstanceID, Changes: []string{fmt.Sprintf("%s %s no longer exists", accessNoun(r.Kind), r.Name)}}
}

func accessNoun(k AccessKind) string {
	switch k {
	case KindAccount:
		return "account"
	case KindDatabase:
		return "database"
	}
	return "account privilege"
}

// readBack waits for a created (or adopted) object to be ready, and reads an updated one.
func (a *AccessApply) readBack(ctx context.Context, api rdsapi.API, w *Waiter) error {
	r := a.Plan.Request
	if r.Create {
		return a.waitReady(ctx, api, w)
	}
	var err error
	if r.Kind == KindAccount {
		a.account, err = FindAccount(ctx, api, r.InstanceID, r.Name)
	} else {
		a.database, err = FindDatabase(ctx, api, r.InstanceID, r.Name)
	}
	if err == nil && a.account == nil && a.database == nil {
		err = fmt.Errorf("%s %s on %s is not listed after the update", accessNoun(r.Kind), r.Name, r.InstanceID)
	}
	return err
}

func (a *AccessApply) waitReady(ctx context.Context, api rdsapi.API, w *Waiter) error {
	r := a.Plan.Request
	what := fmt.Sprintf("%s %s on %s", accessNoun(r.Kind), r.Name, r.InstanceID)
	if r.Kind == KindAccount {
		acc, err := waitStatus(ctx, w, what, rdsapi.AccountStatusAvailable,
			func() (*rdsapi.DBInstanceAccount, error) { return FindAccount(ctx, api, r.InstanceID, r.Name) },
			func(acc *rdsapi.DBInstanceAccount) string { return acc.AccountStatus })
		a.account = acc
		return err
	}
	db, err := waitStatus(ctx, w, what, rdsapi.DatabaseStatusRunning,
		func() (*rdsapi.Database, error) { return FindDatabase(ctx, api, r.InstanceID, r.Name) },
		func(db *rdsapi.Database) string { return db.DBStatus })
	a.database = db
	return err
}

// access plans again and sends op as the new plan has it.
func (x *executor) access(ctx context.Context, op Operation) error {
	a := x.e.Access
	if a == nil {
		return fmt.Errorf("the program holds %s without its access resource", op.Action)
	}
	again, err := PlanAccess(ctx, x.api, a.Plan.Request)
	if err != nil {
		return fmt.Errorf("reading %s %s on %s before %s: %w", accessNoun(a.Plan.Request.Kind), a.Plan.Request.Name, x.out.ID, op.Action, err)
	}
	if a.Plan.Request.Delete && (again.Facts.InstanceMissing || again.Facts.Status == StatusDeleting) {
		return nil // the instance is gone or being released, and its accounts, databases and grants with it
	}
	if err := a.Plan.refusedSince(again); err != nil {
		return err
	}
	now := again.operation(op.Action)
	if now == nil {
		return nil // already as configured (someone else did it since the plan)
	}
	return x.sendAccess(ctx, *now.Access, op.Action)
}

// refusedSince is the changed-since-plan error when the facts changed since p in a way that
// refuses the apply (a new plan with refusals, an object gone, an instance locked, stopped or
// deleting since), or nil.
func (p AccessPlan) refusedSince(again AccessPlan) error {
	r, noun := p.Request, accessNoun(p.Request.Kind)
	if r.Kind == KindPrivilege {
		noun = "account"
	}
	var changes []string
	switch {
	case again.Facts.InstanceMissing && !p.Facts.InstanceMissing:
		changes = append(changes, "the instance no longer exists")
	case p.Found && !again.Found:
		changes = append(changes, fmt.Sprintf("%s %s no longer exists", noun, r.Name))
	case !p.Found && again.Found:
		changes = append(changes, fmt.Sprintf("%s %s exists (the plan saw none)", noun, r.Name))
	}
	changes = append(changes, stateChangesSince(ExistingInstance{Status: p.Facts.Status, LockMode: p.Facts.LockMode}, again.Facts.Status, again.Facts.LockMode)...)
	if (r.Delete && !again.Found) || (len(again.Problems) == 0 && len(changes) == 0) {
		return nil // nothing left to delete, or nothing that matters changed
	}
	problems := again.Problems
	if again.Facts.InstanceKnown {
		problems = append(problems, StateProblems(r.InstanceID, again.Facts.Status, again.Facts.LockMode, again.Facts.LockReason, true, false)...)
	}
	if len(changes) == 0 {
		changes = append(changes, "the facts the plan checked changed")
	}
	return &ChangedSincePlanError{ID: r.InstanceID, Changes: changes, Problems: problems}
}

// sendAccess sends one call (retried while the instance is busy) and waits for its effect.
func (x *executor) sendAccess(ctx context.Context, c AccessCall, action string) error {
	id, name := c.InstanceID, c.Name
	if action == OpCreateDatabase {
		if err := x.waitDeletedDatabase(ctx, c); err != nil {
			return err
		}
	}
	err := x.w.RetryBusy(ctx, func() error { return x.accessCall(ctx, c, action) })
	switch {
	case action == OpCreateAccount && rdsapi.ErrorCode(err) == rdsapi.CodeAccountDuplicate:
		err = x.adoptResentAccount(ctx, c, err)
	case action == OpCreateDatabase && rdsapi.ErrorCode(err) == rdsapi.CodeDatabaseDuplicate:
		err = nil // this apply's create, resent after a lost answer: the wait below finds it
	case action == OpDeleteAccount && (Gone(err) || rdsapi.ErrorCode(err) == rdsapi.CodeAccountNotFound):
		return nil
	case action == OpDeleteDatabase && (Gone(err) || rdsapi.ErrorCode(err) == rdsapi.CodeDatabaseNotFound):
		return nil
	case action == OpRevokeAccountPrivilege && x.e.Access.Plan.Request.Delete && (Gone(err) || rdsapi.ErrorCode(err) == rdsapi.CodeAccountNotFound):
		return nil // the account went, and its privileges with it
	case action == OpGrantAccountPrivilege && rdsapi.ErrorCode(err) == rdsapi.CodeDatabaseNotFound:
		return fmt.Errorf("%s %s %s on %v of %s: a database does not exist (create it with rds_database and reference it in db_names): %w",
			action, name, c.Privilege, c.DBNames, id, err)
	}
	if err != nil {
		return fmt.Errorf("%s %s on %s: %w", action, name, id, err)
	}
	switch action {
	case OpCreateAccount, OpCreateDatabase:
		return x.e.Access.waitReady(ctx, x.api, x.w)
	case OpDeleteAccount:
		return waitUnlisted(ctx, x.w, "account "+name+" on "+id, func() (*rdsapi.DBInstanceAccount, error) { return FindAccount(ctx, x.api, id, name) })
	case OpDeleteDatabase:
		return waitUnlisted(ctx, x.w, "database "+name+" on "+id, func() (*rdsapi.Database, error) { return FindDatabase(ctx, x.api, id, name) })
	}
	return nil
}

func (x *executor) accessCall(ctx context.Context, c AccessCall, action string) error {
	id, name := c.InstanceID, c.Name
	switch action {
	case OpCreateAccount:
		return x.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: name, AccountPassword: x.e.Access.password,
			AccountType: c.AccountType, AccountDescription: c.Description})
	case OpModifyAccountDescription:
		return x.api.ModifyAccountDescription(ctx, id, name, c.Description)
	case OpResetAccountPassword:
		return x.api.ResetAccountPassword(ctx, id, name, x.e.Access.password)
	case OpDeleteAccount:
		return x.api.DeleteAccount(ctx, id, name)
	case OpCreateDatabase:
		return x.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: id, DBName: name, CharacterSetName: c.CharacterSet, DBDescription: c.Description})
	case OpModifyDBDescription:
		return x.api.ModifyDBDescription(ctx, id, name, c.Description)
	case OpDeleteDatabase:
		return x.api.DeleteDatabase(ctx, id, name)
	case OpGrantAccountPrivilege:
		return x.api.GrantAccountPrivilege(ctx, &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: id, AccountName: name, DBNames: c.DBNames, AccountPrivilege: c.Privilege})
	case OpRevokeAccountPrivilege:
		return x.api.RevokeAccountPrivilege(ctx, id, name, c.DBNames)
	}
	return fmt.Errorf("no access call runs %s", action)
}

// waitDeletedDatabase waits until a database of the same name that is being deleted is gone: the
// cloud refuses to create it again before.
func (x *executor) waitDeletedDatabase(ctx context.Context, c AccessCall) error {
	return waitUnlisted(ctx, x.w, "database "+c.Name+" on "+c.InstanceID, func() (*rdsapi.Database, error) {
		db, err := FindDatabase(ctx, x.api, c.InstanceID, c.Name)
		if db != nil && db.DBStatus != rdsapi.DatabaseStatusDeleting {
			return nil, err // this apply's own create, resent after a lost answer: not in the way
		}
		return db, err
	})
}

// adoptResentAccount: a CreateAccount answered "exists" after a lost answer was resent. An
// account of the planned type is this apply's own (its password is set again to be sure it is
// this configuration's); another is someone else's.
func (x *executor) adoptResentAccount(ctx context.Context, c AccessCall, dup error) error {
	existing, err := FindAccount(ctx, x.api, c.InstanceID, c.Name)
	if err != nil {
		return err
	}
	if existing == nil || existing.AccountType != c.AccountType {
		return fmt.Errorf("the account was created by someone else meanwhile (import it with `terraform import <address> %s:%s`): %w", c.InstanceID, c.Name, dup)
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ResetAccountPassword(ctx, c.InstanceID, c.Name, x.e.Access.password) })
}

// Gone reports whether err says the instance (or the object read from it) no longer exists, or
// that the instance is being deleted.
func Gone(err error) bool {
	var stuck *InstanceStateError
	return rdsapi.IsNotFound(err) || (errors.As(err, &stuck) && stuck.Status == StatusDeleting)
}

// waitStatus polls find until the object it lists has status want.
func waitStatus[T any](ctx context.Context, w *Waiter, what, want string, find func() (*T, error), status func(*T) string) (*T, error) {
	var item *T
	err := w.Poll(ctx, fmt.Sprintf("%s to be %s", what, want), func() (bool, string, error) {
		it, err := find()
		if err != nil {
			return false, "", err
		}
		if it == nil {
			return false, "not listed yet", nil
		}
		item = it
		return status(it) == want, "status " + status(it), nil
	})
	return item, err
}

// waitUnlisted polls find until the object is no longer listed (or its instance is gone).
func waitUnlisted[T any](ctx context.Context, w *Waiter, what string, find func() (*T, error)) error {
	return w.Poll(ctx, what+" to be deleted", func() (bool, string, error) {
		it, err := find()
		if Gone(err) {
			return true, "", nil
		}
		return it == nil, "still listed", err
	})
}
