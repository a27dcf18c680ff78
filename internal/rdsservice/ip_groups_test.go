package rdsservice

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Issue 42 §2: every refusal of the named IP lists at once, each a row of the rule table.
func TestIPGroupProblemsAllAtOnce(t *testing.T) {
	g := IPGroupsPlan{DefaultSet: true, DefaultIPs: []string{"10.0.0.1"},
		Want:   map[string][]string{"default": {"10.0.0.2"}, "Office-VPN": {"10.1.0.0/16"}, "empty": {}, "dtspublic": {"1.2.3.4"}, "app": {"10.0.0.300"}},
		Hidden: map[string][]string{"dtspublic": nil}}
	got := ruleIDs(IPGroupProblems(g))
	want := []RuleID{RuleIPGroupName, RuleSecurityIP, RuleIPGroupDefaultTwice, RuleIPGroupHidden, RuleIPGroupEmpty}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("problems %v, want %v", got, want)
	}
	for _, p := range IPGroupProblems(g) {
		if p.Attribute != AttrSecurityIPGroups {
			t.Errorf("%s points at %s", p.Rule, p.Attribute)
		}
	}
	if ps := IPGroupProblems(IPGroupsPlan{Want: map[string][]string{"default": {"10.0.0.2"}, "office_vpn": {"10.1.0.0/16"}}}); len(ps) != 0 {
		t.Fatalf("default without security_ips and a valid name: %v", ruleIDs(ps))
	}
}

// The limits count security_ips, the lists and the hidden arrays together.
func TestIPGroupLimits(t *testing.T) {
	many := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("10.%d.%d.1", i/250, i%250))
		}
		return out
	}
	g := IPGroupsPlan{DefaultIPs: many(1), Want: map[string][]string{"app": many(499)}, Hidden: map[string][]string{"dtspublic": many(500)}}
	if ps := IPGroupProblems(g); len(ps) != 0 {
		t.Fatalf("1,000 entries: %v", ruleIDs(ps))
	}
	g.Want["extra"] = []string{"192.168.0.1"}
	if ps := IPGroupProblems(g); !hasRule(ps, RuleIPEntriesLimit) || hasRule(ps, RuleIPArraysLimit) {
		t.Fatalf("1,001 entries: %v", ruleIDs(ps))
	}
	lists := IPGroupsPlan{Want: map[string][]string{}, Hidden: map[string][]string{"dtspublic": {"1.1.1.1"}}}
	for i := range MaxSecurityIPArrays - 2 {
		lists.Want[fmt.Sprintf("g%d", i)] = []string{"172.16.0.1"}
	}
	if ps := IPGroupProblems(lists); len(ps) != 0 {
		t.Fatalf("200 lists: %v", ruleIDs(ps))
	}
	lists.Want["one_more"] = []string{"172.16.0.1"}
	if ps := IPGroupProblems(lists); !hasRule(ps, RuleIPArraysLimit) {
		t.Fatalf("201 lists: %v", ruleIDs(ps))
	}
}

// The plan sends the lists only when they differ from the state's; after a create, when any is set.
func TestIPGroupProgram(t *testing.T) {
	now := time.Now()
	prior := programPrior()
	desired := programDesired()
	desired.IPGroups = IPGroupsPlan{Want: map[string][]string{"office": {"10.1.0.0/16", "10.2.0.1"}}, Prior: map[string][]string{"office": {"10.2.0.1", "10.1.0.0/16"}}}
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); findOp(d.Program, OpSecurityIPGroups) != nil || d.Action != ActionNoop {
		t.Fatalf("same lists: %v %v", d.Action, stepsOf(d.Program))
	}
	desired.IPGroups.Want = map[string][]string{}
	d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}})
	if op := findOp(d.Program, OpSecurityIPGroups); op == nil || op.IPGroups == nil || len(op.IPGroups.Want) != 0 {
		t.Fatalf("a list removed: %v", stepsOf(d.Program))
	}
	desired.IPGroups = IPGroupsPlan{Want: map[string][]string{"bad name": {"10.0.0.1"}}}
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); !hasRule(d.Errors(), RuleIPGroupName) {
		t.Fatalf("a bad name is refused at plan: %v", ruleIDs(d.Problems))
	}
	desired.IPGroups = IPGroupsPlan{WantUnknown: true}
	if d := Plan(PlanInput{Label: "rm-1", Prior: &prior, Desired: desired, Facts: Facts{Now: now}}); findOp(d.Program, OpSecurityIPGroups) == nil {
		t.Fatalf("lists known only at apply: %v", stepsOf(d.Program))
	}
}

// The calls cover what differs, delete the visible named lists no longer configured, and leave
// default (when not configured) and hidden arrays alone; a hidden name is refused before any call.
func TestIPGroupCalls(t *testing.T) {
	live := []rdsapi.DBInstanceIPArray{
		{DBInstanceIPArrayName: "default", SecurityIPList: "127.0.0.1"},
		{DBInstanceIPArrayName: "dtspublic", DBInstanceIPArrayAttribute: rdsapi.IPArrayHidden, SecurityIPList: "100.104.0.0/16"},
		{DBInstanceIPArrayName: "office", SecurityIPList: "10.1.0.0/16"},
		{DBInstanceIPArrayName: "old", SecurityIPList: "10.9.0.1,10.9.0.2"},
		{DBInstanceIPArrayName: "same", SecurityIPList: "10.3.0.1"},
	}
	calls, err := IPGroupCalls("rm-1", map[string][]string{"office": {"10.1.0.0/16", "10.2.0.1"}, "same": {"10.3.0.1"}, "vpn": {"10.4.0.1"}}, live)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.DBInstanceIPArrayName+":"+firstNonEmpty(c.ModifyMode, "Cover")+"="+c.SecurityIps)
	}
	want := "office:Cover=10.1.0.0/16,10.2.0.1 vpn:Cover=10.4.0.1 old:Delete=10.9.0.1,10.9.0.2"
	if strings.Join(got, " ") != want {
		t.Fatalf("calls %v, want %s", got, want)
	}
	if _, err := IPGroupCalls("rm-1", map[string][]string{"dtspublic": {"1.2.3.4"}}, live); err == nil || !strings.Contains(err.Error(), "hidden") {
		t.Fatalf("a hidden name: %v", err)
	}
}
