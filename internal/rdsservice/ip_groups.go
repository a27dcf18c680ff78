package rdsservice

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Named IP lists (issue 42 §2): security_ip_groups on rds_instance and rds_readonly_instance, each
// list a DBInstanceIPArrayName of ModifySecurityIps beside the `default` one (security_ips). While
// it is set, the lists are the instance's visible arrays other than `default`: one the
// configuration no longer names is removed (ModifyMode Delete of its last entries). Arrays the
// cloud marks hidden (DTS, DMS, DAS) are never shown, changed or removed; their entries and places
// count against the instance's limits (simulator README "IP arrays").

// OpSecurityIPGroups is the operation that makes the instance's named lists the configured ones.
const OpSecurityIPGroups = "ModifySecurityIps (security_ip_groups)"

// AttrSecurityIPGroups is the attribute the named-list rules point at.
const AttrSecurityIPGroups = "security_ip_groups"

// The instance-wide limits of ModifySecurityIps: entries across every array, and arrays.
const (
	MaxSecurityIPEntries = 1000
	MaxSecurityIPArrays  = 200
)

const (
	RuleIPGroupDefaultTwice RuleID = "security-ip-groups-default-twice"
	RuleIPGroupName         RuleID = "security-ip-groups-name"
	RuleIPGroupEmpty        RuleID = "security-ip-groups-empty"
	RuleIPGroupHidden       RuleID = "security-ip-groups-hidden"
	RuleIPEntriesLimit      RuleID = "security-ips-entries-limit"
	RuleIPArraysLimit       RuleID = "security-ip-groups-limit"
)

// ipGroupName is the console's rule for a list's name (assumption IA2 of the simulator README).
var ipGroupName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,30}[a-z0-9]$`)

// IPGroupsPlan is what the planner knows of an instance's named IP lists.
type IPGroupsPlan struct {
	// Want is security_ip_groups: nil when not set (the lists are left alone); WantUnknown while
	// it is known only at apply.
	Want        map[string][]string
	WantUnknown bool
	// DefaultSet is whether security_ips is set; DefaultIPs its entries when known.
	DefaultSet bool
	DefaultIPs []string
	// Prior is security_ip_groups in the state (nil: not managed, or a create).
	Prior map[string][]string
	// Hidden is the instance's hidden arrays and their entries, read at plan (nil for a create).
	Hidden map[string][]string
}

// IPGroupsCall is what an OpSecurityIPGroups sends: the lists to have.
type IPGroupsCall struct {
	Want map[string][]string
}

// hidden reports whether name is one of the instance's hidden arrays.
func (g IPGroupsPlan) hidden(name string) bool {
	_, ok := g.Hidden[name]
	return ok
}

// isDefaultArray reports whether name is the default array (the API spells it both ways).
func isDefaultArray(name string) bool { return strings.EqualFold(name, rdsapi.DefaultSecurityIPArray) }

// checkIPGroups raises the named-list rules of a known configuration.
func checkIPGroups(in PlanInput, d *Decision) {
	d.add(IPGroupProblems(in.Desired.IPGroups)...)
}

// IPGroupProblems is every refusal of the configured lists, all at once: the apply re-checks
// with the same rows (and the hidden arrays it reads).
func IPGroupProblems(g IPGroupsPlan) []Problem {
	if g.Want == nil {
		return nil
	}
	var out []Problem
	for _, name := range slices.Sorted(maps.Keys(g.Want)) {
		ips := g.Want[name]
		switch {
		case isDefaultArray(name) && g.DefaultSet:
			out = append(out, problem(RuleIPGroupDefaultTwice, name, name))
		case !isDefaultArray(name) && !ipGroupName.MatchString(name):
			out = append(out, problem(RuleIPGroupName, name, name))
		case g.hidden(name):
			out = append(out, problem(RuleIPGroupHidden, name, name))
		case len(ips) == 0:
			out = append(out, problem(RuleIPGroupEmpty, name, name))
		}
		for _, ip := range ips {
			for _, p := range CheckSecurityIP(ip) {
				out = append(out, p.At(AttrSecurityIPGroups))
			}
		}
	}
	return append(out, ipLimitProblems(g)...)
}

// ipLimitProblems counts the configured lists, security_ips and the hidden arrays against the
// instance's limits.
func ipLimitProblems(g IPGroupsPlan) []Problem {
	entries, arrays := len(g.DefaultIPs), 1
	for name, ips := range g.Want {
		entries += len(ips)
		if !isDefaultArray(name) {
			arrays++
		}
	}
	for _, ips := range g.Hidden {
		entries, arrays = entries+len(ips), arrays+1
	}
	var out []Problem
	if entries > MaxSecurityIPEntries {
		out = append(out, problem(RuleIPEntriesLimit, fmt.Sprint(entries), entries, MaxSecurityIPEntries))
	}
	if arrays > MaxSecurityIPArrays {
		out = append(out, problem(RuleIPArraysLimit, fmt.Sprint(arrays), arrays, MaxSecurityIPArrays))
	}
	return out
}

func sameIPGroups(a, b map[string][]string) bool {
	return maps.EqualFunc(a, b, func(x, y []string) bool {
		return slices.Equal(slices.Sorted(slices.Values(x)), slices.Sorted(slices.Values(y)))
	})
}

// IPGroupCalls is the ModifySecurityIps calls that turn the instance's arrays (as
// DescribeDBInstanceIPArrayList lists them) into want: a Cover for each list that differs, a
// Delete of every entry of a visible named list want does not name. Hidden arrays are never
// touched; a configured name that is hidden is refused with the plan's rows, before any call.
func IPGroupCalls(id string, want map[string][]string, live []rdsapi.DBInstanceIPArray) ([]rdsapi.ModifySecurityIpsRequest, error) {
	g := IPGroupsPlan{Want: want, Hidden: map[string][]string{}}
	current := map[string][]string{}
	for _, a := range live {
		if a.DBInstanceIPArrayAttribute == rdsapi.IPArrayHidden {
			g.Hidden[a.DBInstanceIPArrayName] = SplitList(a.SecurityIPList)
			continue
		}
		current[a.DBInstanceIPArrayName] = SplitList(a.SecurityIPList)
	}
	if problems := IPGroupProblems(g); len(problems) > 0 {
		errs := make([]error, len(problems))
		for i, p := range problems {
			errs[i] = p
		}
		return nil, errors.Join(errs...)
	}
	var calls []rdsapi.ModifySecurityIpsRequest
	for _, name := range slices.Sorted(maps.Keys(want)) {
		ips := slices.Sorted(slices.Values(want[name]))
		if have, ok := current[name]; (!ok && len(ips) > 0) || ok && !slices.Equal(have, ips) {
			calls = append(calls, rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, DBInstanceIPArrayName: name, SecurityIps: strings.Join(ips, ",")})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(current)) {
		if _, kept := want[name]; !kept && !isDefaultArray(name) && len(current[name]) > 0 {
			calls = append(calls, rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, DBInstanceIPArrayName: name,
				SecurityIps: strings.Join(current[name], ","), ModifyMode: "Delete"})
		}
	}
	return calls, nil
}
