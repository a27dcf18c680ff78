package rdsservice

import (
	"context"
	"fmt"
)

// GroupQuery names the parameter group an instance's plan reads (P8).
type GroupQuery struct {
	// ID is parameter_group_id as planned: null for none, unknown while this run creates it.
	ID Val[string]
	// PriorID is the group the state holds ("" for none, a new instance or a replacement).
	PriorID string
}

// readGroup reads the instance's parameter group for the planner (P8): nil without a group,
// Values nil while the id is not known, this run's plan of the group when it has one (the ledger).
// A failed read is a failure on parameter_group_id, with the group returned without values.
func readGroup(ctx context.Context, env Env, q GroupQuery) (*GroupParameters, *ReadFailure) {
	if q.ID.IsNull() || q.ID.Is("") {
		return nil, nil
	}
	g := &GroupParameters{ID: q.ID.Value(), PriorID: q.PriorID}
	if q.ID.IsUnknown() {
		return g, nil
	}
	if values, ok := env.Ledger.Group(g.ID); ok {
		g.Values = values
		return g, nil
	}
	answer, err := env.API.DescribeParameterGroup(ctx, g.ID)
	if err != nil {
		return g, &ReadFailure{Attribute: "parameter_group_id", Summary: "Cannot read the RDS parameter group",
			Detail: fmt.Sprintf("DescribeParameterGroup %s: %v. Check parameter_group_id.", g.ID, err)}
	}
	g.Values = answer.Parameters
	return g, nil
}

// groupFacts is a failed group read as the parameter facts of a read-only instance's plan (the
// plan's refusal, RuleParamFactsUnreadable).
func groupFacts(f ReadFailure, id string) *ParameterFacts {
	return &ParameterFacts{ErrorCall: "DescribeParameterGroup " + id, Error: f.Detail}
}
