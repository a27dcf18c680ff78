package rdsservice

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// stmtAPI answers the reads of X8 at the instances' plans: the proxies started, each instance's
// running max_prepared_stmt_count, the primary's read-only instances and the 8.0 template. Any
// write panics (the embedded API is nil): the plans send nothing.
type stmtAPI struct {
	rdsapi.API
	proxies map[string]bool
	running map[string]string
	ro      []string
}

func (a *stmtAPI) DescribeDBProxy(_ context.Context, id string) (*rdsapi.DBProxy, error) {
	return &rdsapi.DBProxy{Started: a.proxies[id]}, nil
}

func (a *stmtAPI) DescribeParameters(_ context.Context, id string) (*rdsapi.DescribeParametersResponse, error) {
	var out rdsapi.DescribeParametersResponse
	out.RunningParameters.DBInstanceParameter = []rdsapi.InstanceParameter{{ParameterName: PreparedStmtParameter, ParameterValue: a.running[id]}}
	return &out, nil
}

func (a *stmtAPI) DescribeDBInstanceAttribute(_ context.Context, id string) (*rdsapi.DBInstanceAttribute, error) {
	return &rdsapi.DBInstanceAttribute{DBInstanceID: id, ReadOnlyDBInstanceIDs: a.ro}, nil
}

func (a *stmtAPI) DescribeParameterTemplates(context.Context, *rdsapi.DescribeParameterTemplatesRequest) (*rdsapi.DescribeParameterTemplatesResponse, error) {
	var out rdsapi.DescribeParameterTemplatesResponse
	out.Parameters.TemplateRecord = []rdsapi.ParameterTemplateRecord{{ParameterName: PreparedStmtParameter, ParameterValue: "16382",
		CheckingCode: "[0-1048576]", ForceModify: true}}
	return &out, nil
}

// stmtEnv: primary rm-1 with a started proxy and read-only instances rr-1, rr-2, rr-3, all at 16382.
func stmtEnv() (Env, *stmtAPI) {
	api := &stmtAPI{proxies: map[string]bool{"rm-1": true}, ro: []string{"rr-1", "rr-2", "rr-3"},
		running: map[string]string{"rm-1": "16382", "rr-1": "16382", "rr-2": "16382", "rr-3": "16382"}}
	return Env{API: api, Now: func() time.Time { return time.Unix(0, 0) }, Classes: &Catalogue{}, Templates: &TemplateCache{}, Ledger: &Ledger{}}, api
}

func stmtParams(v string) DesiredParameters {
	if v == "" {
		return DesiredParameters{}
	}
	return DesiredParameters{Set: true, Values: map[string]string{PreparedStmtParameter: v}}
}

// A read-only instance's plan refuses a value unlike its primary's, as this run plans it or as it
// runs, once a proxy is started or configured in this run; the message names both and the values.
func TestReadOnlyPreparedStmtBehindProxy(t *testing.T) {
	ctx := context.Background()
	prior := &ExistingInstance{ID: "rr-1"}
	for _, c := range []struct {
		name, mine, primaryPlanned string
		proxyInCloud, proxyPlanned bool
		want                       []RuleID
		detail                     string
	}{
		{name: "primary changes, read-only keeps its value", primaryPlanned: "8000", proxyInCloud: true,
			want: []RuleID{RulePreparedStmtReadOnly}, detail: "rr-1 would run max_prepared_stmt_count = 16382 and its primary rm-1 (as this run plans it) has 8000"},
		{name: "both change alike", mine: "8000", primaryPlanned: "8000", proxyInCloud: true},
		{name: "read-only alone changes", mine: "4000", proxyInCloud: true,
			want: []RuleID{RulePreparedStmtReadOnly}, detail: "rr-1 would run max_prepared_stmt_count = 4000 and its primary rm-1 has 16382"},
		{name: "proxy configured in this run", mine: "4000", proxyPlanned: true, want: []RuleID{RulePreparedStmtReadOnly}},
		{name: "no proxy", mine: "4000"},
		{name: "nothing configured", proxyInCloud: true},
	} {
		env, api := stmtEnv()
		api.proxies["rm-1"] = c.proxyInCloud
		if c.proxyPlanned {
			env.Ledger.RecordProxy("rm-1")
		}
		if c.primaryPlanned != "" {
			env.Ledger.RecordPreparedStmt("rm-1", c.primaryPlanned)
		}
		in := PlanInput{Role: RoleReadOnly, Label: "rr-1", Prior: prior, Desired: Desired{Parameters: stmtParams(c.mine)}}
		got := ReadOnlyPreparedStmt(ctx, env, "rr-1", "rm-1", in)
		if !slices.Equal(proxyRules(got), c.want) || (c.detail != "" && !strings.Contains(got[0].Detail, c.detail)) {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}

// The primary's plan of a new value refuses it unlike a read-only instance this run planned
// before it, warns of one not planned yet, and leaves out one this run releases; nothing without
// a proxy, nothing when the value does not change.
func TestPrimaryPreparedStmtBehindProxy(t *testing.T) {
	ctx := context.Background()
	in := PlanInput{Label: "rm-1", Prior: &ExistingInstance{ID: "rm-1"}, Desired: Desired{Parameters: stmtParams("8000")}}
	env, api := stmtEnv()
	env.Ledger.RecordPreparedStmt("rr-1", "16382")
	env.Ledger.RecordReleased("rr-3")
	got := PrimaryPreparedStmt(ctx, env, "rm-1", in)
	if !slices.Equal(proxyRules(got), []RuleID{RulePreparedStmtPrimary, RulePreparedStmtPrimaryFollow}) ||
		!strings.Contains(got[0].Detail, "changes to 8000, and this run plans its read-only instance rr-1 with 16382") ||
		!strings.Contains(got[1].Detail, "rr-2 runs 16382") || got[0].Severity != SeverityError || got[1].Severity != SeverityWarning {
		t.Fatalf("primary change behind a proxy: %v", got)
	}
	if v, ok := env.Ledger.PreparedStmt("rm-1"); v != "8000" || !ok {
		t.Fatalf("the primary's planned value is not recorded: %q", v)
	}
	api.proxies["rm-1"] = false
	if got := PrimaryPreparedStmt(ctx, env, "rm-1", in); len(got) != 0 {
		t.Fatalf("no proxy: %v", got)
	}
	api.proxies["rm-1"], api.running["rm-1"] = true, "8000"
	if got := PrimaryPreparedStmt(ctx, env, "rm-1", in); len(got) != 0 {
		t.Fatalf("unchanged value: %v", got)
	}
}

// PlanInstance raises X8 on a primary's in-place plan, and a read-only instance's plan follows
// what the primary's plan recorded in the run's ledger.
func TestPlanInstancePreparedStmtBehindProxy(t *testing.T) {
	ctx := context.Background()
	env, _ := stmtEnv()
	env.Ledger.RecordPreparedStmt("rr-1", "16382")
	prior := ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
		InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning}
	desired := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(100)), ApplyRestarts: ApplyRestartsImmediately, Parameters: stmtParams("8000")}
	plan := PlanInstance(ctx, env, InstanceRequest{ID: "rm-1", Input: PlanInput{Label: "rm-1", Prior: &prior, Desired: desired},
		Parameters: ParameterQuery{InstanceID: "rm-1", Engine: "MySQL", Version: "8.0", Category: "HighAvailability"}})
	if got := proxyRules(plan.Problems); !slices.Contains(got, RulePreparedStmtPrimary) || !slices.Contains(got, RulePreparedStmtPrimaryFollow) {
		t.Fatalf("primary's plan: %v", plan.Problems)
	}
	if v, _ := env.Ledger.PreparedStmt("rm-1"); v != "8000" {
		t.Fatalf("ledger after the primary's plan: %q", v)
	}
}

// The proxy's plan checks the values as this run plans them: a primary planned to 8000 with a
// read-only instance kept at 16382 is refused though the cloud runs both at 16382.
func TestProxyPreparedStmtAsPlanned(t *testing.T) {
	var l Ledger
	l.RecordPreparedStmt("rm-1", "8000")
	req := proxyRequest()
	req.Primary.PreparedStmt = PlannedPreparedStmt(&l, map[string]string{"rm-1": "16382", "rr-1": "16382", "rr-2": "16382"})
	if got := proxyRules(PlanProxy(req, nil).Problems); !slices.Equal(got, []RuleID{RuleProxyPreparedStmt}) {
		t.Fatalf("planned values: %v", got)
	}
	l.RecordPreparedStmt("rr-1", "8000")
	l.RecordPreparedStmt("rr-2", "8000")
	req.Primary.PreparedStmt = PlannedPreparedStmt(&l, map[string]string{"rm-1": "16382", "rr-1": "16382", "rr-2": "16382"})
	if got := PlanProxy(req, nil).Problems; len(got) != 0 {
		t.Fatalf("all planned alike: %v", got)
	}
}
