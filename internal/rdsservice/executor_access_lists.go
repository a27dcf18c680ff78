package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"strconv"
)

// securityIPGroups runs an OpSecurityIPGroups: one read of the arrays, then its calls.
func (x *executor) securityIPGroups(ctx context.Context, op Operation) error {
	if op.IPGroups == nil {
		return fmt.Errorf("the security_ip_groups of %s is not known at apply", x.out.ID)
	}
	live, err := x.api.DescribeDBInstanceIPArrayList(ctx, x.out.ID)
	if err != nil {
		return fmt.Errorf("DescribeDBInstanceIPArrayList %s: %w", x.out.ID, err)
	}
	calls, err := IPGroupCalls(x.out.ID, op.IPGroups.Want, live.Items)
	if err != nil {
		return err
	}
	for i := range calls {
		if err := x.w.RetryBusy(ctx, func() error { return x.api.ModifySecurityIps(ctx, &calls[i]) }); err != nil {
			return fmt.Errorf("ModifySecurityIps %s (%s): %w", x.out.ID, calls[i].DBInstanceIPArrayName, err)
		}
	}
	return nil
}

// securityGroups runs an OpSecurityGroups, re-checking the list known only now.
func (x *executor) securityGroups(ctx context.Context, op Operation) error {
	if op.SecurityGroups == nil {
		return fmt.Errorf("the security_group_ids of %s is not known at apply", x.out.ID)
	}
	if problems := SecurityGroupProblems(op.SecurityGroups.Want); len(problems) > 0 {
		return problems[0]
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ModifySecurityGroupConfiguration(ctx, x.out.ID, op.SecurityGroups.Want) })
}

// templateLinks runs an OpWhitelistTemplates: one read of the linked templates, then an attach
// of each missing one and a detach of each one no longer wanted.
func (x *executor) templateLinks(ctx context.Context, op Operation) error {
	if op.TemplateLinks == nil {
		return fmt.Errorf("the whitelist_template_ids of %s is not known at apply", x.out.ID)
	}
	if problems := TemplateIDProblems(op.TemplateLinks.Want); len(problems) > 0 {
		return problems[0]
	}
	linked, err := x.api.DescribeInstanceLinkedWhitelistTemplate(ctx, x.out.ID)
	if err != nil {
		return fmt.Errorf("DescribeInstanceLinkedWhitelistTemplate %s: %w", x.out.ID, err)
	}
	var have []string
	for _, t := range linked {
		have = append(have, strconv.FormatInt(int64(t.TemplateID), 10))
	}
	for _, id := range op.TemplateLinks.Want {
		if n, _ := strconv.ParseInt(id, 10, 64); !slices.Contains(have, id) {
			if err := x.w.RetryBusy(ctx, func() error { return x.api.AttachWhitelistTemplateToInstance(ctx, n, x.out.ID) }); err != nil {
				return fmt.Errorf("AttachWhitelistTemplateToInstance %s to %s: %w", id, x.out.ID, err)
			}
		}
	}
	for _, id := range have {
		if n, _ := strconv.ParseInt(id, 10, 64); !slices.Contains(op.TemplateLinks.Want, id) {
			if err := x.w.RetryBusy(ctx, func() error { return x.api.DetachWhitelistTemplateToInstance(ctx, n, x.out.ID) }); err != nil {
				return fmt.Errorf("DetachWhitelistTemplateToInstance %s from %s: %w", id, x.out.ID, err)
			}
		}
	}
	return nil
}
