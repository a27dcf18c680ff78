package rdsservice

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// X8 at the instances' plans (issue 44 §2): once a database proxy is configured on a primary,
// max_prepared_stmt_count stays equal on the primary and its read-only instances, so a
// `parameters` change of either resource that breaks it is refused at plan, naming both instances,
// their values and the fix. A proxy counts when the cloud has it started or this run's plan of
// rds_db_proxy configures it (RecordProxy).
//
// Terraform plans a read-only instance after the primary it references, and a proxy after its
// primary; a proxy and a read-only instance come in either order. Each plan records in the run's
// Ledger the value it plans, and whichever plan comes second compares:
//   - a read-only instance's plan refuses its value (configured, or the one it keeps) unlike its
//     primary's (as this run plans it, else as it runs), when either of the two is configured;
//   - the primary's plan of a new value refuses it unlike the value of a read-only instance this
//     run planned before it, and warns of a read-only instance not planned yet that runs another
//     value (its plan refuses it there unless it sets the same; one outside the configuration
//     must be changed alongside);
//   - the proxy's plan checks the values as this run plans them (PlannedPreparedStmt).
//
// A new read-only instance that leaves the parameter to the cloud is not checked here: it starts
// from the template's default, which the proxy's next plan compares.

// Rule ids of X8 at the instances' plans.
const (
	RulePreparedStmtReadOnly      RuleID = "proxy-prepared-stmt-readonly"
	RulePreparedStmtPrimary       RuleID = "proxy-prepared-stmt-primary"
	RulePreparedStmtPrimaryFollow RuleID = "proxy-prepared-stmt-primary-follow"
)

// RecordProxy records that this run's plan of rds_db_proxy configures the proxy of primary.
func (l *Ledger) RecordProxy(primary string) { l.add(&l.proxies, primary) }

// ProxyPlanned reports whether RecordProxy recorded primary.
func (l *Ledger) ProxyPlanned(primary string) bool { return l.has(&l.proxies, primary) }

// RecordPreparedStmt records the max_prepared_stmt_count this run plans for instance id.
func (l *Ledger) RecordPreparedStmt(id, value string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.prepared == nil {
		l.prepared = map[string]string{}
	}
	l.prepared[id] = value
}

// PreparedStmt is the max_prepared_stmt_count this run planned for instance id (false: none).
func (l *Ledger) PreparedStmt(id string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.prepared[id]
	return v, ok
}

// PlannedPreparedStmt is the proxy's X8 facts (instance id to the value the cloud runs) with the
// values this run's plans of those instances planned instead.
func PlannedPreparedStmt(l *Ledger, running map[string]string) map[string]string {
	out := make(map[string]string, len(running))
	for id, v := range running {
		if planned, ok := l.PreparedStmt(id); ok {
			v = planned
		}
		out[id] = v
	}
	return out
}

// configuredPreparedStmt is the max_prepared_stmt_count `parameters` (or the parameter group)
// sets, when it is known at plan.
func configuredPreparedStmt(dp DesiredParameters) (string, bool) {
	if dp.Unknown || dp.UnknownValues[PreparedStmtParameter] {
		return "", false
	}
	if v, ok := dp.Values[PreparedStmtParameter]; ok {
		return v, true
	}
	if dp.Group != nil {
		v, ok := dp.Group.Values[PreparedStmtParameter]
		return v, ok
	}
	return "", false
}

// hasProxy: primary has a database proxy, started in the cloud or configured by this run. A failed
// read counts as none (the proxy's own plan checks the values again).
func hasProxy(ctx context.Context, env Env, primary string) bool {
	if env.Ledger.ProxyPlanned(primary) {
		return true
	}
	px, err := env.API.DescribeDBProxy(ctx, primary)
	if err != nil {
		tflog.Warn(ctx, "reading the database proxy failed", map[string]any{"primary": primary, "error": err.Error()})
		return false
	}
	return px.Started
}

// runningPreparedStmt is the max_prepared_stmt_count instance id runs: from facts when they hold
// it, else read ("" when the read fails).
func runningPreparedStmt(ctx context.Context, env Env, id string, facts *ParameterFacts) string {
	if facts != nil {
		if v, ok := facts.Running[PreparedStmtParameter]; ok {
			return v
		}
	}
	answer, err := env.API.DescribeParameters(ctx, id)
	if err != nil {
		tflog.Warn(ctx, "reading max_prepared_stmt_count failed", map[string]any{"instance": id, "error": err.Error()})
		return ""
	}
	return answer.RunningParameters.Values()[PreparedStmtParameter]
}

// ReadOnlyPreparedStmt is X8 at the plan of read-only instance id (label in messages) of
// primary, with in its planner input.
func ReadOnlyPreparedStmt(ctx context.Context, env Env, id, primary string, in PlanInput) []Problem {
	mine, configured := configuredPreparedStmt(in.Desired.Parameters)
	theirs, primaryPlanned := env.Ledger.PreparedStmt(primary)
	if primary == "" || (!configured && (!primaryPlanned || in.Prior == nil)) {
		return nil
	}
	if !configured {
		mine = runningPreparedStmt(ctx, env, id, in.Facts.Parameters)
	}
	if id != "" && mine != "" {
		env.Ledger.RecordPreparedStmt(id, mine)
	}
	label := primary + " (as this run plans it)"
	if !primaryPlanned {
		theirs, label = runningPreparedStmt(ctx, env, primary, nil), primary
	}
	if mine == "" || theirs == "" || samePrepared(mine, theirs) || !hasProxy(ctx, env, primary) {
		return nil
	}
	return []Problem{Raise(RulePreparedStmtReadOnly, mine, in.Label, mine, label, theirs)}
}

// PrimaryPreparedStmt is X8 at the in-place plan of primary id, with in its planner input.
func PrimaryPreparedStmt(ctx context.Context, env Env, id string, in PlanInput) []Problem {
	want, ok := configuredPreparedStmt(in.Desired.Parameters)
	if !ok || id == "" {
		return nil
	}
	env.Ledger.RecordPreparedStmt(id, want)
	if running := runningPreparedStmt(ctx, env, id, in.Facts.Parameters); samePrepared(running, want) || !hasProxy(ctx, env, id) {
		return nil
	}
	attr, err := env.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return nil // the read-only instances' plans and the proxy's still compare
	}
	var problems []Problem
	for _, ro := range attr.ReadOnlyDBInstanceIDs {
		if env.Ledger.Released(ro) {
			continue
		}
		if theirs, planned := env.Ledger.PreparedStmt(ro); planned {
			if !samePrepared(theirs, want) {
				problems = append(problems, Raise(RulePreparedStmtPrimary, want, in.Label, want, ro, theirs))
			}
			continue
		}
		if theirs := runningPreparedStmt(ctx, env, ro, nil); theirs != "" && !samePrepared(theirs, want) {
			problems = append(problems, Raise(RulePreparedStmtPrimaryFollow, want, in.Label, want, ro, theirs))
		}
	}
	return problems
}

// samePrepared compares two values of max_prepared_stmt_count as numbers.
func samePrepared(a, b string) bool { return SameParameterValue(ParameterSpec{}, a, b) }
