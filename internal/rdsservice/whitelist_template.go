package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Whitelist templates (issue 42 §2): rds_whitelist_template, an account-wide IP list, and
// whitelist_template_ids on the instance resources, the templates linked to an instance.
// ModifyWhitelistTemplate creates (its answer has no id: the template is then found by its name,
// unique per account), changes and deletes (an empty list) a template (simulator README).

// AttrWhitelistTemplateIDs is the instance attribute the template-link rules point at;
// OpWhitelistTemplates the operation that links and unlinks templates.
const (
	AttrWhitelistTemplateIDs = "whitelist_template_ids"
	OpWhitelistTemplates     = "AttachWhitelistTemplateToInstance/DetachWhitelistTemplateToInstance"
)

const (
	RuleTemplateNameTaken RuleID = "whitelist-template-name-taken"
	RuleTemplateEmpty     RuleID = "whitelist-template-empty"
	RuleTemplateName      RuleID = "whitelist-template-name"
	RuleTemplateID        RuleID = "whitelist-template-ids-format"
)

// WhitelistTemplateSpec is what rds_whitelist_template asks for.
type WhitelistTemplateSpec struct {
	Name string
	IPs  []string
}

// WhitelistTemplateProblems is every refusal of a template, all at once: its entries, and its
// name when another template of the account (existing, as DescribeAllWhitelistTemplate lists
// them) has it. id is the template's own id (0 for a create).
func WhitelistTemplateProblems(spec WhitelistTemplateSpec, id int64, existing []rdsapi.WhitelistTemplate) []Problem {
	var out []Problem
	if strings.TrimSpace(spec.Name) == "" || strings.Contains(spec.Name, ",") {
		out = append(out, problem(RuleTemplateName, spec.Name, spec.Name))
	}
	if len(spec.IPs) == 0 {
		out = append(out, problem(RuleTemplateEmpty, ""))
	}
	for _, ip := range spec.IPs {
		for _, p := range CheckSecurityIP(ip) {
			out = append(out, p.At("ip_whitelist"))
		}
	}
	if len(spec.IPs) > MaxSecurityIPEntries {
		out = append(out, problem(RuleIPEntriesLimit, fmt.Sprint(len(spec.IPs)), len(spec.IPs), MaxSecurityIPEntries).At("ip_whitelist"))
	}
	for _, t := range existing {
		if t.TemplateName == spec.Name && int64(t.TemplateID) != id {
			out = append(out, problem(RuleTemplateNameTaken, spec.Name, spec.Name, int64(t.TemplateID)))
		}
	}
	return out
}

// ApplyWhitelistTemplate creates (id 0) or changes the template and returns its id. A create
// finds the new template by its name.
func ApplyWhitelistTemplate(ctx context.Context, api rdsapi.API, w *Waiter, id int64, spec WhitelistTemplateSpec) (int64, error) {
	ips := slices.Sorted(slices.Values(spec.IPs))
	req := &rdsapi.ModifyWhitelistTemplateRequest{TemplateID: id, TemplateName: spec.Name, IPWhitelist: strings.Join(ips, ",")}
	if err := w.RetryBusy(ctx, func() error { return api.ModifyWhitelistTemplate(ctx, req) }); err != nil {
		return id, fmt.Errorf("ModifyWhitelistTemplate %s: %w", spec.Name, err)
	}
	if id != 0 {
		return id, nil
	}
	found, err := rdsapi.ListWhitelistTemplates(ctx, api, spec.Name, false)
	if err != nil {
		return 0, fmt.Errorf("DescribeAllWhitelistTemplate %s: %w", spec.Name, err)
	}
	for _, t := range found {
		if t.TemplateName == spec.Name {
			return int64(t.TemplateID), nil
		}
	}
	return 0, fmt.Errorf("the whitelist template %q was created but DescribeAllWhitelistTemplate does not list it", spec.Name)
}

// DeleteWhitelistTemplate deletes a template: ModifyWhitelistTemplate with an empty list.
func DeleteWhitelistTemplate(ctx context.Context, api rdsapi.API, w *Waiter, id int64, name string) error {
	req := &rdsapi.ModifyWhitelistTemplateRequest{TemplateID: id, TemplateName: name}
	return w.RetryBusy(ctx, func() error { return api.ModifyWhitelistTemplate(ctx, req) })
}

// TemplateLinksCall is what an OpWhitelistTemplates sends.
type TemplateLinksCall struct {
	Want []string
}

// TemplateIDProblems refuses ids that are not template ids (whole numbers).
func TemplateIDProblems(ids []string) []Problem {
	var out []Problem
	for _, id := range ids {
		if n, err := strconv.ParseInt(id, 10, 64); err != nil || n <= 0 {
			out = append(out, problem(RuleTemplateID, id, id))
		}
	}
	return out
}

func checkTemplateLinks(in PlanInput, d *Decision) {
	d.add(TemplateIDProblems(in.Desired.TemplateLinks.Want)...)
}
