package rdsservice

import (
	"fmt"
	"regexp"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// ECS security groups (issue 42 §2): security_group_ids on rds_instance and rds_readonly_instance,
// the whole list sent with one ModifySecurityGroupConfiguration after a create and in place. Unset,
// the groups are left alone; an empty set removes them all.

// OpSecurityGroups is the operation that sets the instance's ECS security groups.
const OpSecurityGroups = "ModifySecurityGroupConfiguration"

// AttrSecurityGroupIDs is the attribute the security-group rules point at.
const AttrSecurityGroupIDs = "security_group_ids"

const (
	RuleSecurityGroupsLimit RuleID = "security-group-ids-limit"
	RuleSecurityGroupID     RuleID = "security-group-ids-format"
)

// securityGroupID is an ECS security group id (simulator README, assumption SG1).
var securityGroupID = regexp.MustCompile(`^sg-[a-z0-9]{1,40}$`)

// IDSetPlan is what the planner knows of a set of ids attached to an instance (security_group_ids,
// whitelist_template_ids).
type IDSetPlan struct {
	// Want is the attribute, sorted: nil when not set (left alone); WantUnknown while it is known
	// only at apply.
	Want        []string
	WantUnknown bool
	// Prior is the attribute in the state, sorted (nil: not managed, or a create).
	Prior []string
}

// SecurityGroupsCall is what an OpSecurityGroups sends.
type SecurityGroupsCall struct {
	Want []string
}

// SecurityGroupProblems is every refusal of a known security_group_ids, all at once.
func SecurityGroupProblems(want []string) []Problem {
	var out []Problem
	for _, id := range want {
		if !securityGroupID.MatchString(id) {
			out = append(out, problem(RuleSecurityGroupID, id, id))
		}
	}
	if len(want) > rdsapi.MaxSecurityGroups {
		out = append(out, problem(RuleSecurityGroupsLimit, fmt.Sprint(len(want)), len(want), rdsapi.MaxSecurityGroups))
	}
	return out
}

func checkSecurityGroups(in PlanInput, d *Decision) {
	d.add(SecurityGroupProblems(in.Desired.SecurityGroups.Want)...)
}
