package rdsapi

import (
	"context"
	"fmt"
	"strconv"
)

// Whitelist templates (issue 42 §2): account-wide IP lists linked to instances. ModifyWhitelistTemplate
// creates one (no TemplateId: its answer does not carry the new id, so the creator finds it by name
// with DescribeAllWhitelistTemplate), changes one, and deletes one (an empty IpWhitelist): RDS has no
// DeleteWhitelistTemplate (the official provider's alicloud_rds_whitelist_template does the same).

// CodeTemplateNotFound is the simulator's answer for an unknown TemplateId (its README: the
// reference documents none).
const CodeTemplateNotFound = "InvalidTemplateId.NotFound"

// IsTemplateNotFound reports whether err says the template does not exist.
func IsTemplateNotFound(err error) bool { return ErrorCode(err) == CodeTemplateNotFound }

// WhitelistTemplate is one template as the Describe actions list it.
type WhitelistTemplate struct {
	ID           FlexInt `json:"Id"`
	TemplateID   FlexInt `json:"TemplateId"`
	TemplateName string  `json:"TemplateName"`
	// Ips is the template's entries, comma-separated.
	Ips    string  `json:"Ips"`
	UserID FlexInt `json:"UserId"`
}

// ModifyWhitelistTemplateRequest creates (TemplateID 0), changes, or deletes (IPWhitelist empty) a template.
type ModifyWhitelistTemplateRequest struct {
	TemplateID   int64
	TemplateName string
	IPWhitelist  string
}

// WhitelistTemplatePage is one page of DescribeAllWhitelistTemplate.
type WhitelistTemplatePage struct {
	Templates        []WhitelistTemplate `json:"Templates"`
	HasNext          FlexBool            `json:"HasNext"`
	CurrPageNumbers  FlexInt             `json:"CurrPageNumbers"`
	TotalPageNumbers FlexInt             `json:"TotalPageNumbers"`
}

// ModifyWhitelistTemplate sends one ModifyWhitelistTemplate.
func (c *Client) ModifyWhitelistTemplate(ctx context.Context, req *ModifyWhitelistTemplateRequest) error {
	p := params{"RegionId": c.regionID, "TemplateName": req.TemplateName}
	p["IpWhitelist"] = req.IPWhitelist // sent even when empty: that deletes the template
	if req.TemplateID != 0 {
		p.setInt("TemplateId", req.TemplateID)
	}
	// A create is not replayed: a lost answer to it may have created the template.
	return c.call(ctx, "ModifyWhitelistTemplate", p, req.TemplateID != 0, nil)
}

// DescribeWhitelistTemplate reads one template.
func (c *Client) DescribeWhitelistTemplate(ctx context.Context, templateID int64) (*WhitelistTemplate, error) {
	var out struct {
		Data struct {
			Template WhitelistTemplate `json:"Template"`
		} `json:"Data"`
	}
	p := params{"RegionId": c.regionID, "TemplateId": strconv.FormatInt(templateID, 10)}
	if err := c.call(ctx, "DescribeWhitelistTemplate", p, true, &out); err != nil {
		return nil, err
	}
	return &out.Data.Template, nil
}

// DescribeAllWhitelistTemplate reads one page of the account's templates; a name with fuzzy
// false matches that name exactly.
func (c *Client) DescribeAllWhitelistTemplate(ctx context.Context, name string, fuzzy bool, page, perPage int64) (*WhitelistTemplatePage, error) {
	var out struct {
		Data WhitelistTemplatePage `json:"Data"`
	}
	p := params{"RegionId": c.regionID, "TemplateName": name}
	p.setBool("FuzzySearch", fuzzy)
	p.setInt("PageNumbers", page)
	p.setInt("MaxRecordsPerPage", perPage)
	if err := c.call(ctx, "DescribeAllWhitelistTemplate", p, true, &out); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// ListWhitelistTemplates reads every page of DescribeAllWhitelistTemplate.
func ListWhitelistTemplates(ctx context.Context, api API, name string, fuzzy bool) ([]WhitelistTemplate, error) {
	var all []WhitelistTemplate
	for page := int64(1); ; page++ {
		resp, err := api.DescribeAllWhitelistTemplate(ctx, name, fuzzy, page, 100)
		if err != nil {
			return nil, err
		}
		all = append(all, resp.Templates...)
		if !bool(resp.HasNext) || len(resp.Templates) == 0 {
			return all, nil
		}
	}
}

// AttachWhitelistTemplateToInstance links a template to an instance.
func (c *Client) AttachWhitelistTemplateToInstance(ctx context.Context, templateID int64, instanceID string) error {
	return c.templateLink(ctx, "AttachWhitelistTemplateToInstance", templateID, instanceID)
}

// DetachWhitelistTemplateToInstance unlinks a template from an instance.
func (c *Client) DetachWhitelistTemplateToInstance(ctx context.Context, templateID int64, instanceID string) error {
	return c.templateLink(ctx, "DetachWhitelistTemplateToInstance", templateID, instanceID)
}

func (c *Client) templateLink(ctx context.Context, action string, templateID int64, instanceID string) error {
	if err := requireInstanceID(instanceID); err != nil {
		return fmt.Errorf("RDS %s: %w", action, err)
	}
	p := params{"RegionId": c.regionID, "InsName": instanceID, "TemplateId": strconv.FormatInt(templateID, 10)}
	return c.call(ctx, action, p, true, nil)
}

// DescribeInstanceLinkedWhitelistTemplate lists the templates linked to an instance.
func (c *Client) DescribeInstanceLinkedWhitelistTemplate(ctx context.Context, instanceID string) ([]WhitelistTemplate, error) {
	if err := requireInstanceID(instanceID); err != nil {
		return nil, fmt.Errorf("RDS DescribeInstanceLinkedWhitelistTemplate: %w", err)
	}
	var out struct {
		Data struct {
			Templates []WhitelistTemplate `json:"Templates"`
		} `json:"Data"`
	}
	if err := c.call(ctx, "DescribeInstanceLinkedWhitelistTemplate", params{"RegionId": c.regionID, "InsName": instanceID}, true, &out); err != nil {
		return nil, err
	}
	return out.Data.Templates, nil
}
