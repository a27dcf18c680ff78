package rdsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Values of ModifyParameter's SwitchTimeMode: when a change takes effect.
const (
	SwitchTimeImmediately  = "Immediately" // the default; the client leaves it out
	SwitchTimeMaintainTime = "MaintainTime"
	SwitchTimeScheduleTime = "ScheduleTime"
)

// DescribeParameterTemplatesRequest asks for the default parameter template of an engine, version
// and edition: every parameter users may see, with its default, its allowed values and whether a
// change restarts the instance.
type DescribeParameterTemplatesRequest struct {
	RegionID      string
	Engine        string
	EngineVersion string
	Category      string // Basic, HighAvailability, cluster...; empty: the cloud's default edition
}

// DescribeParameterTemplatesResponse is the template.
type DescribeParameterTemplatesResponse struct {
	RequestID      string     `json:"RequestId"`
	Engine         string     `json:"Engine"`
	EngineVersion  FlexString `json:"EngineVersion"`
	ParameterCount FlexInt    `json:"ParameterCount"`
	Parameters     struct {
		TemplateRecord []ParameterTemplateRecord `json:"TemplateRecord"`
	} `json:"Parameters"`
}

// ParameterTemplateRecord is one parameter of a template.
type ParameterTemplateRecord struct {
	ParameterName string `json:"ParameterName"`
	// ParameterValue is the default: a literal, or a formula such as {DBInstanceClassMemory*3/4}.
	ParameterValue string `json:"ParameterValue"`
	// CheckingCode is the allowed values: "[min-max]" for a range, "[a|b|c]" for a set.
	CheckingCode         string `json:"CheckingCode"`
	ParameterDescription string `json:"ParameterDescription"`
	// ForceModify is whether users may change the parameter at all.
	ForceModify FlexBool `json:"ForceModify"`
	// ForceRestart is whether a change takes effect only after a restart.
	ForceRestart FlexBool `json:"ForceRestart"`
}

// DescribeParametersResponse holds an instance's parameters. RunningParameters are the values in
// effect; ConfigParameters are values that have been set but do not run yet, because they wait for
// a restart.
type DescribeParametersResponse struct {
	RequestID         string                `json:"RequestId"`
	Engine            string                `json:"Engine"`
	EngineVersion     FlexString            `json:"EngineVersion"`
	ConfigParameters  InstanceParameterList `json:"ConfigParameters"`
	RunningParameters InstanceParameterList `json:"RunningParameters"`
}

// InstanceParameterList is the {"DBInstanceParameter":[...]} wrapper of DescribeParameters.
type InstanceParameterList struct {
	DBInstanceParameter []InstanceParameter `json:"DBInstanceParameter"`
}

// InstanceParameter is one parameter of an instance.
type InstanceParameter struct {
	ParameterName        string `json:"ParameterName"`
	ParameterValue       string `json:"ParameterValue"`
	ParameterDescription string `json:"ParameterDescription"`
}

// Values returns the list as a name -> value map.
func (l InstanceParameterList) Values() map[string]string {
	out := make(map[string]string, len(l.DBInstanceParameter))
	for _, p := range l.DBInstanceParameter {
		if name := strings.TrimSpace(p.ParameterName); name != "" {
			out[name] = p.ParameterValue
		}
	}
	return out
}

// ModifyParameterRequest sets parameters of one instance. A parameter that takes effect only after
// a restart is applied by that restart: with Forcerestart the cloud restarts the instance at once;
// without it the value waits (DescribeParameters lists it under ConfigParameters) until the next
// restart, whatever causes it.
type ModifyParameterRequest struct {
	DBInstanceID string
	// Parameters are sent as one JSON object of strings, as the API takes them.
	Parameters   map[string]string
	Forcerestart bool
	// SwitchTimeMode is SwitchTimeImmediately when empty; SwitchTime goes with SwitchTimeScheduleTime.
	SwitchTimeMode string
	SwitchTime     string
	// ClientToken makes a resent request a no-op; the client fills one in when it is empty.
	ClientToken string
	// ParameterGroupID applies a parameter group's parameters instead of Parameters.
	ParameterGroupID string
}

func encodeModifyParameter(req *ModifyParameterRequest) (params, error) {
	if err := requireInstanceID(req.DBInstanceID); err != nil {
		return nil, err
	}
	if len(req.Parameters) == 0 && req.ParameterGroupID == "" {
		return nil, errors.New("the Parameters map must name at least one parameter, or ParameterGroupId a group")
	}
	names := make([]string, 0, len(req.Parameters))
	for name := range req.Parameters {
		if strings.TrimSpace(name) == "" {
			return nil, errors.New("the Parameters map has an empty parameter name")
		}
		names = append(names, name)
	}
	sort.Strings(names) // a stable body, so that a resent request carries the same fingerprint
	body, err := json.Marshal(req.Parameters)
	if err != nil {
		return nil, fmt.Errorf("encoding Parameters: %w", err)
	}
	if len(req.Parameters) == 0 {
		body = nil
	}
	// The default goes unsent: ModifyParameter spells it "Immediately" where ModifyDBInstanceSpec
	// says "Immediate", and leaving it out cannot be misspelt.
	mode := req.SwitchTimeMode
	if mode == SwitchTimeImmediately {
		mode = ""
	}
	if mode == SwitchTimeScheduleTime && req.SwitchTime == "" {
		return nil, errors.New("SwitchTimeMode ScheduleTime needs SwitchTime")
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, err
	}
	p := params{}
	p.set("DBInstanceId", req.DBInstanceID)
	p.set("Parameters", string(body))
	p.set("ParameterGroupId", req.ParameterGroupID)
	p.setBool("Forcerestart", req.Forcerestart)
	p.set("SwitchTimeMode", mode)
	p.set("SwitchTime", req.SwitchTime)
	p.set("ClientToken", token)
	return p, nil
}

// DescribeParameterTemplates returns the default template of an engine, version and edition.
func (c *Client) DescribeParameterTemplates(ctx context.Context, req *DescribeParameterTemplatesRequest) (*DescribeParameterTemplatesResponse, error) {
	if strings.TrimSpace(req.Engine) == "" || strings.TrimSpace(req.EngineVersion) == "" {
		return nil, errors.New("RDS DescribeParameterTemplates: Engine and EngineVersion are required")
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("Engine", req.Engine)
	p.set("EngineVersion", req.EngineVersion)
	p.set("Category", req.Category)
	var out DescribeParameterTemplatesResponse
	if err := c.call(ctx, "DescribeParameterTemplates", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DescribeParameters returns the running and the waiting parameters of an instance.
func (c *Client) DescribeParameters(ctx context.Context, dbInstanceID string) (*DescribeParametersResponse, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeParameters: %w", err)
	}
	var out DescribeParametersResponse
	if err := c.call(ctx, "DescribeParameters", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyParameter sets parameters; its ClientToken makes a resent request a no-op.
func (c *Client) ModifyParameter(ctx context.Context, req *ModifyParameterRequest) error {
	p, err := encodeModifyParameter(req)
	if err != nil {
		return fmt.Errorf("RDS ModifyParameter: %w", err)
	}
	return c.call(ctx, "ModifyParameter", p, true, nil)
}
