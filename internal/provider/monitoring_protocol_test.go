package provider

import (
	"context"
	"regexp"
	"testing"
)

func monitored(period any) []oracleResource {
	attrs := map[string]any{"engine": "MySQL", "engine_version": "8.0", "instance_type": "mysql.n2.medium.2c", "storage": 20,
		"instance_name": "acctest"}
	if period != nil {
		attrs["monitoring_period"] = period
	}
	return []oracleResource{{addr: testRes, attrs: attrs}}
}

// monitoring_period (M1-M3): refused at plan outside 5/10/60/300 and off 300 on the Basic edition,
// with nothing sent; 5 seconds is named as billed; sent after the create and in place; a change
// made outside Terraform is read back and set again; left out, it is neither sent nor read.
func TestMonitoringPeriod(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	ctx := context.Background()
	expectErrorText(t, "30 s", w.planErrorOf(t, monitored(30)), regexp.MustCompile(`monitoring_period = 30: the cloud samples`))
	basic := monitored(60)
	basic[0].attrs["category"], basic[0].attrs["instance_type"] = "Basic", "mysql.n1.micro.1"
	expectErrorText(t, "basic", w.planErrorOf(t, basic), regexp.MustCompile(`monitoring_period = 60: a Basic-edition instance is monitored every 300 seconds only`))
	if n := env.mutations(); n != 0 {
		t.Fatalf("the refused plans sent %d mutating requests", n)
	}
	var id string
	plan := w.checkedStep(t, "create", monitored(5), &id)
	expectWarning(t, "create", plan, testRes, regexp.MustCompile(`monitoring_period = 5 is billed`))
	period := func() int64 {
		p, err := env.api.DescribeDBInstanceMonitor(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := period(); got != 5 || env.requests("ModifyDBInstanceMonitor") != 1 {
		t.Fatalf("created: period %d, %d ModifyDBInstanceMonitor", got, env.requests("ModifyDBInstanceMonitor"))
	}
	if err := env.api.ModifyDBInstanceMonitor(ctx, id, 300); err != nil {
		t.Fatal(err)
	}
	env.sim.ResetStats()
	w.applyChecked(t, "set back", monitored(5))
	if got := period(); got != 5 || env.requests("ModifyDBInstanceMonitor") != 1 {
		t.Fatalf("drift set back: period %d, %d ModifyDBInstanceMonitor", got, env.requests("ModifyDBInstanceMonitor"))
	}
	plan = w.applyChecked(t, "60 s", monitored(60))
	if text := warningText(plan.res[testRes].diags); regexp.MustCompile(`is billed`).MatchString(text) || period() != 60 {
		t.Fatalf("60 s: warnings %q, period %d", text, period())
	}
	w.applyChecked(t, "left out", monitored(nil))
	env.sim.ResetStats()
	expectEmptyPlan(t, "left out", mustPlan(t, w, monitored(nil)))
	if n := env.requests("DescribeDBInstanceMonitor"); n != 0 || period() != 60 {
		t.Fatalf("unmanaged: %d DescribeDBInstanceMonitor at refresh and plan", n)
	}
	w.destroyStep(t, env)
}
