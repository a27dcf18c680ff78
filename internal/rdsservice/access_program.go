package rdsservice

import (
	"context"
	"fmt"
	"slices"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The access resources' applies as programs (issue 23 §1): rds_account, rds_database and
// rds_account_privilege ask PlanAccess for the operations their object will undergo, derived
// from the facts (the instance, the object as the cloud lists it) and the configuration, and the
// one executor runs them (executor_access.go). Before each write the executor plans again with
// PlanAccess: an object created, deleted or changed outside since the plan, or an instance locked,
// stopped or deleting since, refuses the write (changed-since-plan, or the access rules' rows);
// an operation someone else already did is not sent again. The password never enters a plan: the
// executor gets it at apply (ExecuteAccess).

// Operation kinds of the access resources.
const (
	OpCreateAccount            = "CreateAccount"
	OpModifyAccountDescription = "ModifyAccountDescription"
	OpResetAccountPassword     = "ResetAccountPassword"
	OpDeleteAccount            = "DeleteAccount"
	OpCreateDatabase           = "CreateDatabase"
	OpModifyDBDescription      = "ModifyDBDescription"
	OpDeleteDatabase           = "DeleteDatabase"
	OpGrantAccountPrivilege    = "GrantAccountPrivilege"
	OpRevokeAccountPrivilege   = "RevokeAccountPrivilege"
)

// AccessCall is what an access operation sends, the password aside.
type AccessCall struct {
	InstanceID string
	// Name is the account's or the database's name; for a grant or revoke, the grantee's.
	Name         string
	AccountType  string
	CharacterSet string
	Description  string
	Privilege    string
	DBNames      []string
}

// AccessRequest is what an access resource's apply asks for.
type AccessRequest struct {
	Kind       AccessKind
	InstanceID string
	// Name is the account's or the database's name, or the grantee of rds_account_privilege.
	Name string
	// Create: the resource is new. Adopt: an interrupted apply of this configuration created the
	// object (the create journal, issue 29), so an object of this name is taken over.
	Create, Adopt bool
	// Delete: the resource is destroyed.
	Delete       bool
	AccountType  string
	CharacterSet string
	// Description is the configured description; nil when the configuration leaves it unmanaged.
	Description *string
	// ResetPassword: the configuration sets a new password (the executor gets it at apply).
	ResetPassword bool
	// Privilege and DBNames are the configured grant; Granted the databases the state says this
	// resource granted (revoked when no longer configured, and on delete).
	Privilege string
	DBNames   []string
	Granted   []string
}

// AccessPlan is an access resource's decision: the facts it was made from, the refusals, and the
// program (empty when refused or when the object already is as configured).
type AccessPlan struct {
	Request AccessRequest
	Facts   AccessFacts
	// Found: the account, database or grantee exists (a database being deleted does not).
	Found    bool
	Problems []Problem
	Program  Program
}

// PlanAccess reads the instance and the object and plans the request.
func PlanAccess(ctx context.Context, api rdsapi.API, req AccessRequest) (AccessPlan, error) {
	plan := AccessPlan{Request: req, Facts: req.facts()}
	attr, err := api.DescribeDBInstanceAttribute(ctx, req.InstanceID)
	switch {
	case rdsapi.IsNotFound(err):
		plan.Facts.InstanceMissing = true
	case err != nil:
		return plan, fmt.Errorf("DescribeDBInstanceAttribute %s: %w", req.InstanceID, err)
	default:
		AccessFactsFromAttribute(&plan.Facts, attr)
	}
	if !plan.Facts.InstanceMissing {
		switch req.Kind {
		case KindAccount:
			err = plan.account(ctx, api)
		case KindDatabase:
			err = plan.database(ctx, api)
		default:
			err = plan.privilege(ctx, api)
		}
		if err != nil {
			return plan, err
		}
	}
	if !req.Delete {
		plan.Problems = refusals(CheckAccess(req.Kind, plan.Facts))
	}
	if len(plan.Problems) > 0 {
		plan.Program = Program{}
	}
	return plan, nil
}

func (r AccessRequest) facts() AccessFacts {
	f := AccessFacts{InstanceID: r.InstanceID, AccountType: r.AccountType, Privilege: r.Privilege}
	description := ""
	if r.Description != nil {
		description = *r.Description
	}
	switch r.Kind {
	case KindDatabase:
		f.DBName, f.CharacterSet, f.DBDescription = r.Name, r.CharacterSet, description
	case KindAccount:
		f.AccountName, f.AccountDescription = r.Name, description
	default:
		f.AccountName = r.Name
	}
	return f
}

func refusals(problems []Problem) []Problem {
	var out []Problem
	for _, p := range problems {
		if p.Severity == SeverityError {
			out = append(out, p)
		}
	}
	return out
}

func (p *AccessPlan) add(action string, call AccessCall) {
	call.InstanceID = p.Request.InstanceID
	if call.Name == "" {
		call.Name = p.Request.Name
	}
	p.Program.Operations = append(p.Program.Operations, Operation{Instance: p.Request.InstanceID, Action: action, When: WhenNow,
		Effect: EffectNone, Access: &call})
}

// describe adds the description change, when the configuration manages one the object lacks.
func (p *AccessPlan) describe(action, current string) {
	if d := p.Request.Description; d != nil && *d != current {
		p.add(action, AccessCall{Description: *d})
	}
}

func (p *AccessPlan) account(ctx context.Context, api rdsapi.API) error {
	r := p.Request
	a, err := FindAccount(ctx, api, r.InstanceID, r.Name)
	if err != nil && !Gone(err) {
		return fmt.Errorf("DescribeAccounts %s on %s: %w", r.Name, r.InstanceID, err)
	}
	p.Found = a != nil
	switch {
	case r.Delete:
		if p.Found {
			p.add(OpDeleteAccount, AccessCall{})
		}
	case r.Create && !p.Found:
		p.add(OpCreateAccount, AccessCall{AccountType: r.AccountType, Description: p.Facts.AccountDescription})
	case r.Create && (!r.Adopt || a.AccountType != r.AccountType):
		p.Facts.Existing, p.Facts.ExistingType = a.AccountName, a.AccountType
	case r.Create: // adopted: the password is this configuration's from now on
		p.add(OpResetAccountPassword, AccessCall{})
		p.describe(OpModifyAccountDescription, a.AccountDescription)
	case p.Found:
		p.describe(OpModifyAccountDescription, a.AccountDescription)
		if r.ResetPassword {
			p.add(OpResetAccountPassword, AccessCall{})
		}
	}
	return nil
}

func (p *AccessPlan) database(ctx context.Context, api rdsapi.API) error {
	r := p.Request
	db, err := FindDatabase(ctx, api, r.InstanceID, r.Name)
	if err != nil && !Gone(err) {
		return fmt.Errorf("DescribeDatabases %s on %s: %w", r.Name, r.InstanceID, err)
	}
	p.Found = db != nil && db.DBStatus != rdsapi.DatabaseStatusDeleting
	switch {
	case r.Delete:
		if p.Found {
			p.add(OpDeleteDatabase, AccessCall{})
		}
	case r.Create && !p.Found:
		p.add(OpCreateDatabase, AccessCall{CharacterSet: r.CharacterSet, Description: p.Facts.DBDescription})
	case r.Create && !r.Adopt:
		p.Facts.Existing = db.DBName
	case p.Found:
		p.describe(OpModifyDBDescription, db.DBDescription)
	}
	return nil
}

// privilege grants the configured databases the account does not hold the privilege on, and
// revokes those the resource granted and no longer configures that it still holds: a grant made
// or revoked outside since is not sent again.
func (p *AccessPlan) privilege(ctx context.Context, api rdsapi.API) error {
	r := p.Request
	a, err := FindAccount(ctx, api, r.InstanceID, r.Name)
	if err != nil && !Gone(err) {
		return fmt.Errorf("DescribeAccounts %s on %s: %w", r.Name, r.InstanceID, err)
	}
	if p.Found = a != nil; !p.Found {
		p.Facts.GranteeMissing = !r.Delete
		return nil
	}
	p.Facts.AccountType = a.AccountType
	held := GrantedOn(a, r.Privilege)
	if r.Delete {
		if still := intersect(r.Granted, held); len(still) > 0 {
			p.add(OpRevokeAccountPrivilege, AccessCall{DBNames: still})
		}
		return nil
	}
	if grant := without(r.DBNames, held); len(grant) > 0 {
		if err := p.missingDatabases(ctx, api, grant); err != nil {
			return err
		}
		p.add(OpGrantAccountPrivilege, AccessCall{Privilege: r.Privilege, DBNames: grant})
	}
	if revoke := intersect(without(r.Granted, r.DBNames), held); len(revoke) > 0 {
		p.add(OpRevokeAccountPrivilege, AccessCall{DBNames: revoke})
	}
	return nil
}

// missingDatabases records the databases to grant on that the instance does not have.
func (p *AccessPlan) missingDatabases(ctx context.Context, api rdsapi.API, dbs []string) error {
	all, err := ListAllDatabases(ctx, api, p.Request.InstanceID)
	if err != nil {
		return fmt.Errorf("DescribeDatabases on %s: %w", p.Request.InstanceID, err)
	}
	var names []string
	for _, d := range all {
		if d.DBStatus != rdsapi.DatabaseStatusDeleting {
			names = append(names, d.DBName)
		}
	}
	for _, db := range dbs {
		if !slices.Contains(names, db) {
			p.Facts.MissingDBs = append(p.Facts.MissingDBs, fmt.Sprintf("%q", db))
		}
	}
	return nil
}

// GrantedOn lists, sorted, the databases on which account holds privilege.
func GrantedOn(account *rdsapi.DBInstanceAccount, privilege string) []string {
	var out []string
	for _, p := range account.DatabasePrivileges.DatabasePrivilege {
		if p.AccountPrivilege == privilege {
			out = append(out, p.DBName)
		}
	}
	slices.Sort(out)
	return out
}

func without(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	for _, v := range a {
		if slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// operation is the plan's operation of action, or nil.
func (p AccessPlan) operation(action string) *Operation {
	for i, op := range p.Program.Operations {
		if op.Action == action {
			return &p.Program.Operations[i]
		}
	}
	return nil
}
