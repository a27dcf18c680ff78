package rdsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// ECS security groups of an instance (issue 42 §2): every ECS instance of a group the RDS
// instance is added to may connect to it. ModifySecurityGroupConfiguration sets the whole list
// (an empty SecurityGroupId removes every group); DescribeSecurityGroupConfiguration reads it.

// MaxSecurityGroups is how many ECS security groups an instance takes (ModifySecurityGroupConfiguration
// reference: "up to 10"; older pages said 3).
const MaxSecurityGroups = 10

// EcsSecurityGroupRelation is one ECS security group of an instance.
type EcsSecurityGroupRelation struct {
	SecurityGroupID string `json:"SecurityGroupId"`
	RegionID        string `json:"RegionId"`
	NetworkType     string `json:"NetworkType"`
}

// SecurityGroupList decodes {"EcsSecurityGroupRelation":[…]}; an empty string or null is none.
type SecurityGroupList []EcsSecurityGroupRelation

// UnmarshalJSON accepts the nested object form, an empty string, or null.
func (l *SecurityGroupList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" || string(data) == `""` {
		*l = nil
		return nil
	}
	var wire struct {
		Relations []EcsSecurityGroupRelation `json:"EcsSecurityGroupRelation"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return fmt.Errorf("decoding Items: %w", err)
	}
	*l = wire.Relations
	return nil
}

// SecurityGroupConfiguration is the answer of both actions: the instance's groups.
type SecurityGroupConfiguration struct {
	RequestID      string            `json:"RequestId"`
	DBInstanceName string            `json:"DBInstanceName"`
	Items          SecurityGroupList `json:"Items"`
}

// IDs are the groups' ids in the order the cloud lists them.
func (c *SecurityGroupConfiguration) IDs() []string {
	out := make([]string, 0, len(c.Items))
	for _, r := range c.Items {
		out = append(out, r.SecurityGroupID)
	}
	return out
}

// DescribeSecurityGroupConfiguration reads the instance's ECS security groups.
func (c *Client) DescribeSecurityGroupConfiguration(ctx context.Context, dbInstanceID string) (*SecurityGroupConfiguration, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeSecurityGroupConfiguration: %w", err)
	}
	var out SecurityGroupConfiguration
	if err := c.call(ctx, "DescribeSecurityGroupConfiguration", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifySecurityGroupConfiguration makes groupIDs the instance's ECS security groups (none: every
// group is removed).
func (c *Client) ModifySecurityGroupConfiguration(ctx context.Context, dbInstanceID string, groupIDs []string) error {
	p, err := encodeModifySecurityGroupConfiguration(dbInstanceID, groupIDs)
	if err != nil {
		return fmt.Errorf("RDS ModifySecurityGroupConfiguration: %w", err)
	}
	return c.call(ctx, "ModifySecurityGroupConfiguration", p, true, nil)
}

func encodeModifySecurityGroupConfiguration(dbInstanceID string, groupIDs []string) (params, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, err
	}
	p["SecurityGroupId"] = strings.Join(groupIDs, ",") // sent even when empty: that removes them all
	return p, nil
}
