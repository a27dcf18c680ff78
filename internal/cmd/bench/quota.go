package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Figures 6, 10 and 11 plan the fleet under per-action quotas (issue 30). Each is judged on its
// wall time over the larger of what the quota allows and the same plan without a quota in the
// same run: on a busy machine the plan may take longer than the quota allows even without one,
// and then the quota is not what bounds it. Beside that judged ratio each prints, not judged, the
// split of the plan around its API calls (split.go): the calls' span over the quota bound says
// how close the pacing came to the quota, the time before and after them is the fixed work of
// Terraform and the provider that no pacing shortens.

// quotaTarget is the most a plan under a quota may take over that bound; sharedQuotaTarget is the
// same for each of two plans sharing one quota.
const (
	quotaTarget       = 1.10
	sharedQuotaTarget = 1.15
)

// quotaPlan is one timed plan and what its user saw.
type quotaPlan struct {
	wall       float64
	start, end time.Time
	surfaced   int // throttling answers the plan's output shows
	errors     int
	changes    bool
	log        string
	err        error
}

// timedPlan runs one plan and reads its log for throttling answers and errors the user saw.
func (b *bench) timedPlan(ctx context.Context, dir string, env []string) (quotaPlan, error) {
	res, changes, planErr := b.tf.plan(ctx, dir, env, nil)
	if planErr != nil && res.Log == "" {
		return quotaPlan{}, planErr
	}
	logText, err := os.ReadFile(res.Log)
	if err != nil {
		return quotaPlan{}, err
	}
	p := quotaPlan{wall: seconds(res.Duration), start: res.Start, end: res.End, changes: changes, log: res.Log, err: planErr,
		surfaced: strings.Count(string(logText), "Throttling")}
	if planErr != nil {
		p.errors = 1 + strings.Count(string(logText), "Error: ")
	}
	return p, nil
}

// clean says the plan showed the user no error, no throttling and no change.
func (p quotaPlan) clean() bool {
	return p.err == nil && p.errors == 0 && p.surfaced == 0 && !p.changes
}

// problems describes what the user saw, for a figure's note.
func (p quotaPlan) problems() string {
	switch {
	case p.err != nil:
		return "; " + p.err.Error()
	case p.changes:
		return "; the plan is not empty: " + p.log
	case p.surfaced > 0:
		return "; throttling shown to the user: " + p.log
	}
	return ""
}

// unquotedPlan is the fleet's plan time without a quota: figure 7's median when it ran, else one
// plan timed now.
func (b *bench) unquotedPlan(ctx context.Context, fl *fleet) (float64, error) {
	if fl.unquotedSeconds > 0 {
		return fl.unquotedSeconds, nil
	}
	if err := fl.sim.ClearFaults(ctx); err != nil {
		return 0, err
	}
	b.logf("the fleet's plan of %d instances without a quota", fl.big)
	p, err := b.timedPlan(ctx, fl.bigDir, simEnv(fl.sim))
	if err != nil {
		return 0, err
	}
	if !p.clean() {
		return 0, fmt.Errorf("the plan without a quota was not clean%s", p.problems())
	}
	fl.unquotedSeconds = p.wall
	return p.wall, nil
}

// figure6: a plan of the fleet while the simulator allows q DescribeDBInstanceAttribute calls per
// second, at each quota. Refreshing N instances needs N such calls, so N/q seconds is the least
// any client can take.
func (b *bench) figure6(ctx context.Context) []*figure {
	var figs []*figure
	for i, q := range []int{b.quota, b.lowQuota} {
		if q <= 0 || (i > 0 && q == b.quota) {
			continue
		}
		id := "6"
		if i > 0 {
			id = "6b"
		}
		figs = append(figs, b.figure6At(ctx, id, q))
	}
	return figs
}

func (b *bench) figure6At(ctx context.Context, id string, q int) *figure {
	n := b.nFleet
	ideal := float64(n) / float64(q)
	f := &figure{ID: id, Name: fmt.Sprintf("plan of %d instances, quota %d DescribeDBInstanceAttribute/s: wall / max(%d/%d s, no quota)", n, q, n, q),
		Unit: "ratio", Target: fmt.Sprintf("<= %.2f, 0 errors, 0 throttled answers surfaced", quotaTarget)}
	err := func() error {
		fl, err := b.fleetSetup(ctx)
		if err != nil {
			return err
		}
		unquoted, err := b.unquotedPlan(ctx, fl)
		if err != nil {
			return err
		}
		b.logf("figure %s: plan of %d instances under a quota of %d DescribeDBInstanceAttribute/s", id, n, q)
		if err := b.quotaFigure(ctx, f, fl, map[string]int{"DescribeDBInstanceAttribute": q}, fl.bigDir, ideal, unquoted); err != nil {
			return err
		}
		if id == "6" && b.tracePhases {
			b.traceFigure6(ctx, f, fl)
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// quotaFigure times one plan of dir under qps and fills f: wall time over max(ideal, unquoted).
func (b *bench) quotaFigure(ctx context.Context, f *figure, fl *fleet, qps map[string]int, dir string, ideal, unquoted float64) error {
	if err := fl.sim.SetQuota(ctx, qps); err != nil {
		return err
	}
	defer func() { _ = fl.sim.ClearFaults(context.WithoutCancel(ctx)) }()
	if err := fl.sim.ResetStats(ctx); err != nil {
		return err
	}
	p, err := b.timedPlan(ctx, dir, simEnv(fl.sim))
	if err != nil {
		return err
	}
	st, err := fl.sim.Stats(ctx)
	if err != nil {
		return err
	}
	floor := max(ideal, unquoted)
	ratio := p.wall / floor
	split := splitPlan(p.start, p.end, st)
	q := cmp.Or(qps[boundAction], qps["*"])
	f.set(ratio, fmt.Sprintf("%.3f (%.1f s; quota bound %.0f s, no quota %.1f s), %d errors, %d throttled surfaced; simulator throttled %d of %d calls; %s; %s",
		ratio, p.wall, ideal, unquoted, p.errors, p.surfaced, sumValues(st.Throttled), st.TotalRequests(), split.shown(ideal), fillShown(st, boundAction, q)))
	f.Detail = map[string]any{
		"split":                 split.detail(ideal),
		"spans":                 st.Spans,
		"quota_per_second":      qps,
		"plan_seconds":          p.wall,
		"ideal_seconds":         ideal,
		"unquoted_plan_seconds": unquoted,
		"wall_over_ideal":       p.wall / ideal,
		"requests":              st.Requests,
		"simulator_throttled":   st.Throttled,
		"throttled_surfaced":    p.surfaced,
		"errors":                p.errors,
		"plan_shows_changes":    p.changes,
		"plan_log":              p.log,
	}
	f.judge(ratio <= quotaTarget && p.clean())
	f.Note = strings.TrimPrefix(p.problems(), "; ")
	return nil
}

// figure10: the fleet with security_ips, parameters and tags set, so that a refresh reads each
// instance's attribute, IP arrays and parameters (and the tags, in batches), with every action
// under its own quota of q calls per second: the actions are paced apart, so N/q still bounds the
// plan, not the sum of the actions' calls.
func (b *bench) figure10(ctx context.Context) *figure {
	n, q := b.nFleet, b.quota
	ideal := float64(n) / float64(q)
	f := &figure{ID: "10", Name: fmt.Sprintf("plan of %d instances with security_ips, parameters, tags; every action %d/s: wall / max(%d/%d s, no quota)", n, q, n, q),
		Unit: "ratio", Target: fmt.Sprintf("<= %.2f, 0 errors, 0 throttled answers surfaced", quotaTarget)}
	err := func() error {
		fl, err := b.fleetSetup(ctx)
		if err != nil {
			return err
		}
		dir, err := b.fleetWithExtras(ctx, fl)
		if err != nil {
			return err
		}
		b.logf("figure 10: plan of %d instances with extras, no quota", n)
		if err := fl.sim.ResetStats(ctx); err != nil {
			return err
		}
		unquoted, err := b.timedPlan(ctx, dir, simEnv(fl.sim))
		if err != nil {
			return err
		}
		if !unquoted.clean() {
			return fmt.Errorf("the plan without a quota was not clean%s", unquoted.problems())
		}
		st, err := fl.sim.Stats(ctx)
		if err != nil {
			return err
		}
		b.logf("figure 10: plan of %d instances with extras, every action at %d/s", n, q)
		if err := b.quotaFigure(ctx, f, fl, map[string]int{"*": q}, dir, ideal, unquoted.wall); err != nil {
			return err
		}
		// What the same plan spends outside its calls without a quota: the part no pacing shortens.
		free := splitPlan(unquoted.start, unquoted.end, st)
		f.Detail["unquoted_split"] = free.detail(ideal)
		f.Shown += fmt.Sprintf("; without a quota %.1f s before the first call and %.1f s after the last", free.Pre, free.Post)
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// fleetWithExtras copies the fleet's configuration and state to a directory whose configuration
// also sets security_ips, parameters and tags, and applies it (an update of every instance). The
// fleet's own configuration then no longer matches, so this comes after the figures that plan it.
func (b *bench) fleetWithExtras(ctx context.Context, fl *fleet) (string, error) {
	dir := filepath.Join(b.work, fmt.Sprintf("fleet-extras-%d", fl.big))
	if err := writeConfig(dir, fleetExtrasConfig(fl.big)); err != nil {
		return "", err
	}
	if err := copyFile(filepath.Join(fl.bigDir, "terraform.tfstate"), filepath.Join(dir, "terraform.tfstate")); err != nil {
		return "", err
	}
	b.logf("figure 10: setting security_ips, parameters and tags on %d instances (-parallelism=%d)", fl.big, fleetParallelism)
	if _, err := b.tf.apply(ctx, dir, simEnv(fl.sim), fleetParallelism, nil); err != nil {
		return "", err
	}
	return dir, nil
}

// figure11: two plans of the fleet at once (two Terraform runs sharing the account's quota), every
// action at q calls per second. Together they need 2N calls of DescribeDBInstanceAttribute, so
// 2N/q seconds is the least either can take; each is judged on its wall time over the larger of
// that and the same two plans at once without a quota.
func (b *bench) figure11(ctx context.Context) *figure {
	n, q := b.nFleet, b.quota
	ideal := 2 * float64(n) / float64(q)
	f := &figure{ID: "11", Name: fmt.Sprintf("two plans of %d instances at once sharing a quota of %d/s per action: each wall / max(2x%d/%d s, no quota)", n, q, n, q),
		Unit: "ratio", Target: fmt.Sprintf("<= %.2f each, 0 errors, 0 throttled answers surfaced", sharedQuotaTarget)}
	err := func() error {
		fl, err := b.fleetSetup(ctx)
		if err != nil {
			return err
		}
		twin := fl.bigDir + "-twin"
		if err := writeConfig(twin, manyInstancesConfig(fl.big)); err != nil {
			return err
		}
		if err := copyFile(filepath.Join(fl.bigDir, "terraform.tfstate"), filepath.Join(twin, "terraform.tfstate")); err != nil {
			return err
		}
		dirs := []string{fl.bigDir, twin}
		b.logf("figure 11: two plans of %d instances at once, no quota", n)
		unquoted, err := b.concurrentPlans(ctx, fl, dirs)
		if err != nil {
			return err
		}
		if err := fl.sim.SetQuota(ctx, map[string]int{"*": q}); err != nil {
			return err
		}
		defer func() { _ = fl.sim.ClearFaults(context.WithoutCancel(ctx)) }()
		if err := fl.sim.ResetStats(ctx); err != nil {
			return err
		}
		b.logf("figure 11: two plans of %d instances at once, every action at %d/s", n, q)
		plans, err := b.concurrentPlans(ctx, fl, dirs)
		if err != nil {
			return err
		}
		st, err := fl.sim.Stats(ctx)
		if err != nil {
			return err
		}
		judgeShared(f, plans, unquoted, ideal, q, st)
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// concurrentPlans runs one plan in each dir at the same time.
func (b *bench) concurrentPlans(ctx context.Context, fl *fleet, dirs []string) ([]quotaPlan, error) {
	plans := make([]quotaPlan, len(dirs))
	errs := make([]error, len(dirs))
	var wg sync.WaitGroup
	for i, dir := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			plans[i], errs[i] = b.timedPlan(ctx, dir, simEnv(fl.sim))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return plans, nil
}

// judgeShared fills figure 11 from the two plans under the quota and the two without.
func judgeShared(f *figure, plans, unquoted []quotaPlan, ideal float64, q int, st simStats) {
	floor := max(ideal, unquoted[0].wall, unquoted[1].wall)
	worst, ok := 0.0, true
	var shown []string
	for i, p := range plans {
		ratio := p.wall / floor
		worst = max(worst, ratio)
		ok = ok && p.clean() && unquoted[i].clean()
		shown = append(shown, fmt.Sprintf("%.1f s", p.wall))
		f.Note += p.problems() + unquoted[i].problems()
	}
	f.Note = strings.TrimPrefix(f.Note, "; ")
	// The simulator cannot tell the two plans' calls apart: the split is that of the two together.
	split := splitPlan(minTime(plans[0].start, plans[1].start), maxTime(plans[0].end, plans[1].end), st)
	f.set(worst, fmt.Sprintf("%.3f (plans %s; quota bound %.0f s, no quota %.1f s and %.1f s); simulator throttled %d of %d calls; both plans' %s; %s",
		worst, strings.Join(shown, " and "), ideal, unquoted[0].wall, unquoted[1].wall, sumValues(st.Throttled), st.TotalRequests(), split.shown(ideal), fillShown(st, boundAction, q)))
	f.Detail = map[string]any{
		"split":                 split.detail(ideal),
		"spans":                 st.Spans,
		"plan_seconds":          []float64{plans[0].wall, plans[1].wall},
		"unquoted_plan_seconds": []float64{unquoted[0].wall, unquoted[1].wall},
		"ideal_seconds":         ideal,
		"requests":              st.Requests,
		"simulator_throttled":   st.Throttled,
		"throttled_surfaced":    plans[0].surfaced + plans[1].surfaced,
		"errors":                plans[0].errors + plans[1].errors,
	}
	f.judge(ok && worst <= sharedQuotaTarget)
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
