package rdsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Parameter groups (parameter templates the user keeps, applied to instances): CreateParameterGroup,
// ModifyParameterGroup, DescribeParameterGroup and DeleteParameterGroup (sources in
// internal/simulator/README.md, "Parameter groups").

// Values of ModifyParameterGroup's ModifyMode.
const (
	// ParameterGroupModeCollectivity adds or changes the parameters sent and keeps the others (the
	// API's default).
	ParameterGroupModeCollectivity = "Collectivity"
	// ParameterGroupModeIndividual replaces the group's parameters with the ones sent: a parameter
	// left out is removed from the group.
	ParameterGroupModeIndividual = "Individual"
)

// CodeParameterGroupNotFound is the error code of an id the region has no group for.
const CodeParameterGroupNotFound = "ParamGroupsNotExist"

// IsParameterGroupNotFound reports whether err says the parameter group does not exist.
func IsParameterGroupNotFound(err error) bool { return ErrorCode(err) == CodeParameterGroupNotFound }

// CreateParameterGroupRequest creates a parameter group.
type CreateParameterGroupRequest struct {
	RegionID        string
	Name            string
	Description     string
	Engine          string
	EngineVersion   string
	Parameters      map[string]string
	ResourceGroupID string
}

// ModifyParameterGroupRequest changes a parameter group; ModifyMode says whether Parameters
// replace the group's parameters (Individual) or are merged into them (Collectivity).
type ModifyParameterGroupRequest struct {
	RegionID    string
	ID          string
	Name        string
	Description string
	Parameters  map[string]string
	ModifyMode  string
}

// ParameterGroup is a group as DescribeParameterGroup answers it.
type ParameterGroup struct {
	ID            string
	Name          string
	Description   string
	Engine        string
	EngineVersion string
	// ForceRestart: applying the group restarts an instance (one of its parameters needs it).
	ForceRestart bool
	Parameters   map[string]string
	// Instances are the instances the group was applied to.
	Instances []string
	// Created is the group's CreateTime (zero when not answered).
	Created time.Time
}

// parameterGroupItem is one group as DescribeParameterGroup and DescribeParameterGroups answer it.
type parameterGroupItem struct {
	ParameterGroupID   string     `json:"ParameterGroupId"`
	ParameterGroupName string     `json:"ParameterGroupName"`
	ParameterGroupDesc string     `json:"ParameterGroupDesc"`
	Engine             string     `json:"Engine"`
	EngineVersion      FlexString `json:"EngineVersion"`
	ForceRestart       FlexString `json:"ForceRestart"`
	CreateTime         string     `json:"CreateTime"`
	ParamDetail        struct {
		ParameterDetail []struct {
			ParamName  string `json:"ParamName"`
			ParamValue string `json:"ParamValue"`
		} `json:"ParameterDetail"`
	} `json:"ParamDetail"`
}

func (g parameterGroupItem) group() ParameterGroup {
	pg := ParameterGroup{ID: g.ParameterGroupID, Name: g.ParameterGroupName, Description: g.ParameterGroupDesc, Engine: g.Engine,
		EngineVersion: string(g.EngineVersion), ForceRestart: string(g.ForceRestart) == "1" || strings.EqualFold(string(g.ForceRestart), "true"),
		Parameters: map[string]string{}}
	for _, d := range g.ParamDetail.ParameterDetail {
		pg.Parameters[d.ParamName] = d.ParamValue
	}
	pg.Created, _ = time.Parse(time.RFC3339, g.CreateTime)
	return pg
}

type parameterGroupAnswer struct {
	ParamGroup struct {
		ParameterGroup []parameterGroupItem `json:"ParameterGroup"`
	} `json:"ParamGroup"`
	RelatedCustinsInfo struct {
		RelatedCustinsInfo []struct {
			DBInstanceName string `json:"DBInstanceName"`
		} `json:"RelatedCustinsInfo"`
	} `json:"RelatedCustinsInfo"`
}

func encodeParameterMap(m map[string]string) (string, error) {
	for name := range m {
		if strings.TrimSpace(name) == "" {
			return "", errors.New("the Parameters map has an empty parameter name")
		}
	}
	body, err := json.Marshal(m) // sorted keys: a stable body
	if err != nil {
		return "", fmt.Errorf("encoding Parameters: %w", err)
	}
	return string(body), nil
}

// CreateParameterGroup creates a group and returns its id. It carries no idempotency token, so it
// is not resent after a lost answer.
func (c *Client) CreateParameterGroup(ctx context.Context, req *CreateParameterGroupRequest) (string, error) {
	if req.Name == "" || req.Engine == "" || req.EngineVersion == "" || len(req.Parameters) == 0 {
		return "", errors.New("RDS CreateParameterGroup: ParameterGroupName, Engine, EngineVersion and Parameters are required")
	}
	body, err := encodeParameterMap(req.Parameters)
	if err != nil {
		return "", fmt.Errorf("RDS CreateParameterGroup: %w", err)
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("ParameterGroupName", req.Name)
	p.set("ParameterGroupDesc", req.Description)
	p.set("Engine", req.Engine)
	p.set("EngineVersion", req.EngineVersion)
	p.set("Parameters", body)
	p.set("ResourceGroupId", req.ResourceGroupID)
	var out struct {
		ParameterGroupID string `json:"ParameterGroupId"`
	}
	if err := c.call(ctx, "CreateParameterGroup", p, false, &out); err != nil {
		return "", err
	}
	return out.ParameterGroupID, nil
}

// ModifyParameterGroup changes a group's name, description and parameters. Sending the same
// request again leaves the same group, so it is resent on transient errors.
func (c *Client) ModifyParameterGroup(ctx context.Context, req *ModifyParameterGroupRequest) error {
	if req.ID == "" || len(req.Parameters) == 0 {
		return errors.New("RDS ModifyParameterGroup: ParameterGroupId and Parameters are required")
	}
	body, err := encodeParameterMap(req.Parameters)
	if err != nil {
		return fmt.Errorf("RDS ModifyParameterGroup: %w", err)
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("ParameterGroupId", req.ID)
	p.set("ParameterGroupName", req.Name)
	p.set("ParameterGroupDesc", req.Description)
	p.set("Parameters", body)
	p.set("ModifyMode", req.ModifyMode)
	return c.call(ctx, "ModifyParameterGroup", p, true, nil)
}

// DescribeParameterGroup reads one group, with the instances it was applied to.
func (c *Client) DescribeParameterGroup(ctx context.Context, id string) (*ParameterGroup, error) {
	if strings.TrimSpace(id) == "" {
		return nil, errors.New("RDS DescribeParameterGroup: ParameterGroupId is required")
	}
	p := params{}
	p.set("RegionId", c.regionID)
	p.set("ParameterGroupId", id)
	var out parameterGroupAnswer
	if err := c.call(ctx, "DescribeParameterGroup", p, true, &out); err != nil {
		return nil, err
	}
	groups := out.ParamGroup.ParameterGroup
	if len(groups) == 0 {
		return nil, &Error{Code: CodeParameterGroupNotFound, Message: "DescribeParameterGroup answered no group for " + id}
	}
	pg := groups[0].group()
	for _, r := range out.RelatedCustinsInfo.RelatedCustinsInfo {
		pg.Instances = append(pg.Instances, r.DBInstanceName)
	}
	return &pg, nil
}

// DeleteParameterGroup deletes a group; the instances it was applied to keep their values.
func (c *Client) DeleteParameterGroup(ctx context.Context, id string) error {
	if strings.TrimSpace(id) == "" {
		return errors.New("RDS DeleteParameterGroup: ParameterGroupId is required")
	}
	p := params{}
	p.set("RegionId", c.regionID)
	p.set("ParameterGroupId", id)
	return c.call(ctx, "DeleteParameterGroup", p, true, nil)
}

// DescribeParameterGroupsRequest lists the region's parameter groups; ResourceGroupID narrows the
// list, EnableDetail asks for each group's parameters.
type DescribeParameterGroupsRequest struct {
	RegionID        string
	ResourceGroupID string
	EnableDetail    bool
}

type parameterGroupsAnswer struct {
	ParameterGroups struct {
		ParameterGroup []parameterGroupItem `json:"ParameterGroup"`
	} `json:"ParameterGroups"`
}

// DescribeParameterGroups lists the region's groups (the names G1's uniqueness is checked
// against, the rds_parameter_groups data source, the list resource and adoption of a killed
// create). Parameters are filled only with EnableDetail.
func (c *Client) DescribeParameterGroups(ctx context.Context, req *DescribeParameterGroupsRequest) ([]ParameterGroup, error) {
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("ResourceGroupId", req.ResourceGroupID)
	if req.EnableDetail {
		p.set("EnableDetail", "true")
	}
	var out parameterGroupsAnswer
	if err := c.call(ctx, "DescribeParameterGroups", p, true, &out); err != nil {
		return nil, err
	}
	groups := make([]ParameterGroup, 0, len(out.ParameterGroups.ParameterGroup))
	for _, g := range out.ParameterGroups.ParameterGroup {
		groups = append(groups, g.group())
	}
	return groups, nil
}
