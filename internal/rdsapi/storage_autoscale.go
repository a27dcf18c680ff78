package rdsapi

import (
	"context"
	"fmt"
	"strings"
)

// Storage autoscaling (issue 27 §2). The RDS API writes it (ModifyDasInstanceConfig, 2014-08-15)
// but has no action that reads it; the Database Autonomy Service (DAS) API 2020-01-16 reads it
// (DescribeAutoScalingConfig), from its own endpoint in cn-shanghai whatever the instance's region
// (DAS API reference). With `endpoint` overridden, DAS calls go to that endpoint too (the
// simulator serves both APIs).

// DASAPIVersion is the version of the DAS API.
const DASAPIVersion = "2020-01-16"

// DASEndpoint is the DAS API's endpoint.
const DASEndpoint = "das.cn-shanghai.aliyuncs.com"

// dasActions are the DAS API's actions this client sends.
var dasActions = map[string]bool{"DescribeAutoScalingConfig": true, "ModifySqlLogConfig": true, "DescribeSqlLogConfig": true}

// target is the endpoint and API version of an action: the RDS API's, or DAS's or Resource
// Manager's (resource_groups.go), each at its own endpoint unless `endpoint` overrides them all.
func (c *Client) target(action string) (endpoint, version string) {
	host, version := DASEndpoint, DASAPIVersion
	switch {
	case resourceManagerActions[action]:
		host, version = ResourceManagerEndpoint, ResourceManagerAPIVersion
	case !dasActions[action]:
		return c.endpoint, APIVersion
	}
	if c.endpoint == "https://"+EndpointForRegion(c.regionID)+"/" {
		return "https://" + host + "/", version
	}
	return c.endpoint, version
}

// StorageAutoScale is an instance's storage autoscaling: Threshold is the free space (percent:
// 10, 20, 30, 40 or 50) at which the cloud grows the disk, UpperBound the size (GB) it grows to
// at most.
type StorageAutoScale struct {
	Enabled               bool
	Threshold, UpperBound int64
}

// ModifyDasInstanceConfig turns storage autoscaling on (with its threshold and upper bound) or
// off. Sending the same configuration again is harmless, so the call is resent on transient errors.
func (c *Client) ModifyDasInstanceConfig(ctx context.Context, dbInstanceID string, cfg StorageAutoScale) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDasInstanceConfig: %w", err)
	}
	p.set("StorageAutoScale", "Disable")
	if cfg.Enabled {
		p.set("StorageAutoScale", "Enable")
		p.setInt("StorageThreshold", cfg.Threshold)
		p.setInt("StorageUpperBound", cfg.UpperBound)
	}
	return c.call(ctx, "ModifyDasInstanceConfig", p, true, nil)
}

// autoScalingConfigResponse is DescribeAutoScalingConfig's answer (DAS SDK model
// DescribeAutoScalingConfigResponseBody): Code and Success are strings in DAS answers.
type autoScalingConfigResponse struct {
	Code    string `json:"Code"`
	Message string `json:"Message"`
	Success string `json:"Success"`
	Data    struct {
		Storage struct {
			Upgrade                 bool  `json:"Upgrade"`
			MaxStorage              int64 `json:"MaxStorage"`
			DiskUsageUpperThreshold int64 `json:"DiskUsageUpperThreshold"`
		} `json:"Storage"`
	} `json:"Data"`
}

// DescribeAutoScalingConfig reads an instance's storage autoscaling from DAS. DAS states the
// threshold as used space (DiskUsageUpperThreshold); the threshold returned here is free space,
// 100 minus it, as ModifyDasInstanceConfig takes it (an assumption: the references do not state
// the relation).
func (c *Client) DescribeAutoScalingConfig(ctx context.Context, dbInstanceID string) (*StorageAutoScale, error) {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return nil, fmt.Errorf("DAS DescribeAutoScalingConfig: %w", err)
	}
	var out autoScalingConfigResponse
	if err := c.call(ctx, "DescribeAutoScalingConfig", params{"InstanceId": dbInstanceID}, true, &out); err != nil {
		return nil, err
	}
	if strings.EqualFold(out.Success, "false") {
		return nil, fmt.Errorf("DAS DescribeAutoScalingConfig %s: %s %s", dbInstanceID, out.Code, out.Message)
	}
	s := out.Data.Storage
	if !s.Upgrade {
		return &StorageAutoScale{}, nil
	}
	return &StorageAutoScale{Enabled: true, Threshold: 100 - s.DiskUsageUpperThreshold, UpperBound: s.MaxStorage}, nil
}
