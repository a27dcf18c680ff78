package simulator

import (
	"regexp"
	"slices"
	"strings"
)

// ECS security groups of an instance (README "ECS security groups"): ModifySecurityGroupConfiguration
// sets the whole list, DescribeSecurityGroupConfiguration reads it.

func init() {
	actions["ModifySecurityGroupConfiguration"] = (*Simulator).modifySecurityGroupConfiguration
	actions["DescribeSecurityGroupConfiguration"] = (*Simulator).describeSecurityGroupConfiguration
}

// maxSecurityGroups: "up to 10" (ModifySecurityGroupConfiguration reference).
const maxSecurityGroups = 10

// securityGroupID is an ECS security group id as ECS hands them out (assumption SG1).
var securityGroupID = regexp.MustCompile(`^sg-[a-z0-9]{1,40}$`)

// modifySecurityGroupConfiguration replaces the instance's groups; an empty SecurityGroupId
// removes them all.
func (s *Simulator) modifySecurityGroupConfiguration(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, sent := c.p["SecurityGroupId"]; !sent {
		return nil, errMissing("SecurityGroupId")
	}
	var groups []string
	for _, id := range splitList(c.p.get("SecurityGroupId")) {
		if !securityGroupID.MatchString(id) {
			return nil, newErr(400, "InvalidSecurityGroupId.Malformed", "The specified parameter SecurityGroupId is not valid: %q.", truncate(id))
		}
		if !slices.Contains(groups, id) {
			groups = append(groups, id)
		}
	}
	if len(groups) > maxSecurityGroups {
		return nil, newErr(400, "AssociatedEcsSecurityGroupIdQuotaExceed", "Security groups quota exceeded")
	}
	if e := in.writable("ModifySecurityGroupConfiguration"); e != nil {
		return nil, e
	}
	in.SecurityGroups = groups
	c.dirty = true
	return in.securityGroupAnswer(), nil
}

func (s *Simulator) describeSecurityGroupConfiguration(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	return in.securityGroupAnswer(), nil
}

// securityGroupAnswer is both actions' answer: the groups with the instance's region and network.
func (in *instance) securityGroupAnswer() map[string]any {
	network := "Classic"
	if strings.EqualFold(in.NetworkType, "VPC") {
		network = "VPC"
	}
	items := []map[string]any{}
	for _, id := range in.SecurityGroups {
		items = append(items, map[string]any{"SecurityGroupId": id, "RegionId": in.RegionID, "NetworkType": network})
	}
	return map[string]any{"DBInstanceName": in.ID, "Items": map[string]any{"EcsSecurityGroupRelation": items}}
}
