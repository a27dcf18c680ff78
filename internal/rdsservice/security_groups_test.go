package rdsservice

import (
	"fmt"
	"testing"
	"time"
)

// Issue 42 §2: security_group_ids refusals at once; the list goes out only when it changes.
func TestSecurityGroupsPlan(t *testing.T) {
	var eleven []string
	for i := range 11 {
		eleven = append(eleven, fmt.Sprintf("sg-g%02d", i))
	}
	if ps := ruleIDs(SecurityGroupProblems(append([]string{"Default"}, eleven...))); fmt.Sprint(ps) != fmt.Sprint([]RuleID{RuleSecurityGroupID, RuleSecurityGroupsLimit}) {
		t.Fatalf("problems %v", ps)
	}
	if ps := SecurityGroupProblems(eleven[:10]); len(ps) != 0 {
		t.Fatalf("ten groups: %v", ruleIDs(ps))
	}
	now := time.Now()
	prior := programPrior()
	desired := programDesired()
	desired.SecurityGroups = IDSetPlan{Want: []string{"sg-a", "sg-b"}, Prior: []string{"sg-a", "sg-b"}}
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); findOp(d.Program, OpSecurityGroups) != nil {
		t.Fatalf("same groups: %v", stepsOf(d.Program))
	}
	desired.SecurityGroups.Want = []string{}
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpSecurityGroups); op == nil || op.SecurityGroups == nil || len(op.SecurityGroups.Want) != 0 {
		t.Fatalf("every group removed: %v", stepsOf(d.Program))
	}
	desired.SecurityGroups = IDSetPlan{Want: eleven}
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); !hasRule(d.Errors(), RuleSecurityGroupsLimit) {
		t.Fatalf("eleven groups at plan: %v", ruleIDs(d.Problems))
	}
}
