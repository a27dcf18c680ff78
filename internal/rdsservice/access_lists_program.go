package rdsservice

import "slices"

// ipGroupOperations adds the OpSecurityIPGroups of configured lists that differ from the state's
// (after a create: any configured list).
func (b *programBuilder) ipGroupOperations(label string, when When) {
	g := b.in.Desired.IPGroups
	switch {
	case g.WantUnknown:
		b.add(Operation{Instance: label, Action: OpSecurityIPGroups, When: when})
	case g.Want == nil:
	case when == WhenAfterCreate && len(g.Want) == 0:
	case when == WhenAfterCreate || g.Prior == nil || !sameIPGroups(g.Want, g.Prior):
		b.add(Operation{Instance: label, Action: OpSecurityIPGroups, When: when, IPGroups: &IPGroupsCall{Want: g.Want}})
	}
}

// securityGroupOperations adds the OpSecurityGroups of a configured list that differs from the
// state's (after a create: a non-empty one).
func (b *programBuilder) securityGroupOperations(label string, when When) {
	g := b.in.Desired.SecurityGroups
	switch {
	case g.WantUnknown:
		b.add(Operation{Instance: label, Action: OpSecurityGroups, When: when})
	case g.Want == nil:
	case when == WhenAfterCreate && len(g.Want) == 0:
	case when == WhenAfterCreate || g.Prior == nil || !slices.Equal(g.Want, g.Prior):
		b.add(Operation{Instance: label, Action: OpSecurityGroups, When: when, SecurityGroups: &SecurityGroupsCall{Want: g.Want}})
	}
}

// templateLinkOperations adds the OpWhitelistTemplates of a configured list that differs from
// the state's (after a create: a non-empty one).
func (b *programBuilder) templateLinkOperations(label string, when When) {
	g := b.in.Desired.TemplateLinks
	switch {
	case g.WantUnknown:
		b.add(Operation{Instance: label, Action: OpWhitelistTemplates, When: when})
	case g.Want == nil:
	case when == WhenAfterCreate && len(g.Want) == 0:
	case when == WhenAfterCreate || g.Prior == nil || !slices.Equal(g.Want, g.Prior):
		b.add(Operation{Instance: label, Action: OpWhitelistTemplates, When: when, TemplateLinks: &TemplateLinksCall{Want: g.Want}})
	}
}
