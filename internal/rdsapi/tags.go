package rdsapi

import (
	"context"
	"errors"
	"fmt"
)

// Tags and resource groups: TagResources, UntagResources and ListTagResources (ResourceType
// INSTANCE), and ModifyResourceGroup. Limits per call (RDS API reference): 1 to 50 resource ids,
// 1 to 20 tags or tag keys.
const (
	TagResourceType        = "INSTANCE"
	MaxTagResourcesPerCall = 50
	MaxTagsPerCall         = 20
)

// TagResourcesRequest adds or overwrites tags on instances.
type TagResourcesRequest struct {
	RegionID    string
	ResourceIDs []string
	Tags        []Tag
}

// UntagResourcesRequest removes tags (by key) from instances.
type UntagResourcesRequest struct {
	RegionID    string
	ResourceIDs []string
	TagKeys     []string
}

// ListTagResourcesRequest lists the tags of up to 50 instances; NextToken pages.
type ListTagResourcesRequest struct {
	RegionID    string
	ResourceIDs []string
	NextToken   string
}

// TagResource is one tag of one instance.
type TagResource struct {
	ResourceID   string `json:"ResourceId"`
	ResourceType string `json:"ResourceType"`
	TagKey       string `json:"TagKey"`
	TagValue     string `json:"TagValue"`
}

// ListTagResourcesResponse is one page of tags.
type ListTagResourcesResponse struct {
	RequestID    string `json:"RequestId"`
	NextToken    string `json:"NextToken"`
	TagResources struct {
		TagResource []TagResource `json:"TagResource"`
	} `json:"TagResources"`
}

func tagTargets(action string, ids []string, region string) (params, error) {
	if len(ids) == 0 || len(ids) > MaxTagResourcesPerCall {
		return nil, fmt.Errorf("RDS %s: 1 to %d resource ids per call, got %d", action, MaxTagResourcesPerCall, len(ids))
	}
	p := params{}
	p.set("RegionId", region)
	p.set("ResourceType", TagResourceType)
	for i, id := range ids {
		if err := requireInstanceID(id); err != nil {
			return nil, fmt.Errorf("RDS %s: %w", action, err)
		}
		p.set(fmt.Sprintf("ResourceId.%d", i+1), id)
	}
	return p, nil
}

// TagResources adds or overwrites up to 20 tags. Setting a tag to the value it has is harmless,
// so the call is resent on transient errors.
func (c *Client) TagResources(ctx context.Context, req *TagResourcesRequest) error {
	p, err := tagTargets("TagResources", req.ResourceIDs, firstNonEmpty(req.RegionID, c.regionID))
	if err != nil {
		return err
	}
	if len(req.Tags) == 0 || len(req.Tags) > MaxTagsPerCall {
		return fmt.Errorf("RDS TagResources: 1 to %d tags per call, got %d", MaxTagsPerCall, len(req.Tags))
	}
	for i, t := range req.Tags {
		if t.Key == "" {
			return errors.New("RDS TagResources: a tag key is empty")
		}
		p[fmt.Sprintf("Tag.%d.Key", i+1)] = t.Key
		p[fmt.Sprintf("Tag.%d.Value", i+1)] = t.Value // an empty value is a value
	}
	return c.call(ctx, "TagResources", p, true, nil)
}

// UntagResources removes up to 20 tag keys; removing a missing key is harmless.
func (c *Client) UntagResources(ctx context.Context, req *UntagResourcesRequest) error {
	p, err := tagTargets("UntagResources", req.ResourceIDs, firstNonEmpty(req.RegionID, c.regionID))
	if err != nil {
		return err
	}
	if len(req.TagKeys) == 0 || len(req.TagKeys) > MaxTagsPerCall {
		return fmt.Errorf("RDS UntagResources: 1 to %d tag keys per call, got %d", MaxTagsPerCall, len(req.TagKeys))
	}
	for i, k := range req.TagKeys {
		p.set(fmt.Sprintf("TagKey.%d", i+1), k)
	}
	return c.call(ctx, "UntagResources", p, true, nil)
}

// ListTagResources returns one page of the tags of up to 50 instances.
func (c *Client) ListTagResources(ctx context.Context, req *ListTagResourcesRequest) (*ListTagResourcesResponse, error) {
	p, err := tagTargets("ListTagResources", req.ResourceIDs, firstNonEmpty(req.RegionID, c.regionID))
	if err != nil {
		return nil, err
	}
	p.set("NextToken", req.NextToken)
	var out ListTagResourcesResponse
	if err := c.call(ctx, "ListTagResources", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyResourceGroup moves an instance to another resource group; moving it to the group it is
// in is harmless.
func (c *Client) ModifyResourceGroup(ctx context.Context, dbInstanceID, resourceGroupID string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyResourceGroup: %w", err)
	}
	if resourceGroupID == "" {
		return errors.New("RDS ModifyResourceGroup: the resource group id is empty")
	}
	p.set("ResourceGroupId", resourceGroupID)
	return c.call(ctx, "ModifyResourceGroup", p, true, nil)
}
