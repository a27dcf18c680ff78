package rdsapi

import (
	"context"
	"fmt"
	"strings"
)

// Resource groups are Resource Manager's (API 2020-03-31, endpoint resourcemanager.aliyuncs.com,
// the API reference "ListResourceGroups"): the plan reads whether a configured resource_group_id
// exists before the apply moves an instance into it. With `endpoint` overridden, the calls go to
// that endpoint too (the simulator serves the action).

// ResourceManagerAPIVersion is the version of the Resource Manager API.
const ResourceManagerAPIVersion = "2020-03-31"

// ResourceManagerEndpoint is the Resource Manager API's (central) endpoint.
const ResourceManagerEndpoint = "resourcemanager.aliyuncs.com"

// resourceManagerActions are the Resource Manager actions this client sends.
var resourceManagerActions = map[string]bool{"ListResourceGroups": true}

// ResourceGroup is one resource group of the account; Status is Creating, OK or PendingDelete.
type ResourceGroup struct {
	ID          string `json:"Id"`
	Name        string `json:"Name"`
	DisplayName string `json:"DisplayName"`
	Status      string `json:"Status"`
}

// ListResourceGroups returns the account's resource group with the given id: none when it does
// not exist (the API's ResourceGroupId filter; one page is enough for one id).
func (c *Client) ListResourceGroups(ctx context.Context, resourceGroupID string) ([]ResourceGroup, error) {
	if !strings.HasPrefix(resourceGroupID, "rg-") {
		return nil, fmt.Errorf("resource Manager ListResourceGroups: %q is not a resource group id (rg-...)", resourceGroupID)
	}
	p := params{}
	p.set("ResourceGroupId", resourceGroupID)
	var out struct {
		ResourceGroups struct {
			ResourceGroup []ResourceGroup `json:"ResourceGroup"`
		} `json:"ResourceGroups"`
	}
	if err := c.call(ctx, "ListResourceGroups", p, true, &out); err != nil {
		return nil, err
	}
	return out.ResourceGroups.ResourceGroup, nil
}
