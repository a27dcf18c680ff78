package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// fastCreate is the create duration of simulators whose creates are only set-up, not measured.
const fastCreate = 100 * time.Millisecond

// setupParallelism speeds up creating the instances that a figure then measures.
const setupParallelism = 25

// bench holds what every figure needs.
type bench struct {
	simBin          string
	providerBin     string
	nullProviderBin string
	// pprofProviderBin is the provider built with -tags benchprofile (figure 3's profile).
	pprofProviderBin string
	// outDir receives results.json and the provider's CPU profile.
	outDir   string
	work     string
	tf       *tfRunner
	progress io.Writer

	nRefresh        int
	nScale          int
	rounds          int
	restartDuration time.Duration
	flagLag         time.Duration
	toggles         int
	createDuration  time.Duration
	throttleRate    float64
	nThrottle       int
	nFleet          int
	fleetRounds     int
	quota           int
	lowQuota        int
	quotaHeader     bool
	tracePhases     bool

	// fleet is the simulator and configurations figures 6 and 7 share.
	fleet *fleet
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.progress, "bench: "+format+"\n", args...)
}

func (b *bench) startSim(ctx context.Context, name string, opts simOptions) (*simProcess, error) {
	return startSimulator(ctx, b.simBin, simLogPath(b.work, name), opts)
}

// figure1: requests the provider makes for one refresh of N existing instances.
func (b *bench) figure1(ctx context.Context) *figure {
	n := b.nRefresh
	f := &figure{ID: "1", Name: fmt.Sprintf("API calls per instance per refresh (plan of %d)", n),
		Unit: "calls/instance", Target: fmt.Sprintf("<= 1 + 1/%d", n)}
	err := func() error {
		sim, err := b.startSim(ctx, "fig1", simOptions{CreateDuration: fastCreate, RestartDuration: time.Second, FlagLag: time.Second})
		if err != nil {
			return err
		}
		defer sim.Stop()
		dir := filepath.Join(b.work, "fig1")
		if err := writeConfig(dir, manyInstancesConfig(n)); err != nil {
			return err
		}
		b.logf("figure 1: creating %d instances", n)
		if _, err := b.tf.apply(ctx, dir, simEnv(sim), setupParallelism, nil); err != nil {
			return err
		}
		if err := sim.ResetStats(ctx); err != nil {
			return err
		}
		b.logf("figure 1: terraform plan of %d instances", n)
		res, changes, err := b.tf.plan(ctx, dir, simEnv(sim), nil)
		if err != nil {
			return err
		}
		st, err := sim.Stats(ctx)
		if err != nil {
			return err
		}
		v := float64(st.TotalRequests()) / float64(n)
		f.set(v, fmt.Sprintf("%.2f", v))
		f.Detail = map[string]any{
			"instances":          n,
			"requests":           st.Requests,
			"plan_seconds":       seconds(res.Duration),
			"plan_shows_changes": changes,
		}
		// One DescribeAttribute per instance, and one DescribeHistoryTasks per refresh for the
		// region's changes waiting for a maintenance window (ordered outside Terraform).
		f.judge(v <= 1+1/float64(n)+1e-9)
		if changes {
			f.Note = "the plan right after the create is not empty: " + res.Log
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// figure2: time an apply spends beyond the restart itself, relative to the restart duration.
func (b *bench) figure2(ctx context.Context) *figure {
	restart := b.restartDuration
	f := &figure{ID: "2", Name: fmt.Sprintf("Restart-wait overhead (toggle apply - no-op apply) / restart %s", restart),
		Unit: "x restart duration", Target: "<= 1.05"}
	err := func() error {
		sim, err := b.startSim(ctx, "fig2", simOptions{CreateDuration: fastCreate, RestartDuration: restart, FlagLag: b.flagLag})
		if err != nil {
			return err
		}
		defer sim.Stop()
		dir := filepath.Join(b.work, "fig2")
		if err := writeConfig(dir, manyInstancesConfig(1)); err != nil {
			return err
		}
		env := simEnv(sim)
		b.logf("figure 2: creating the instance")
		if _, err := b.tf.apply(ctx, dir, env, 10, map[string]string{"flag": "true"}); err != nil {
			return err
		}
		if err := sim.ResetStats(ctx); err != nil {
			return err
		}
		// Two no-op applies and two toggles, interleaved, each no-op with the configuration the
		// instance already matches.
		type stepT struct {
			flag   string
			toggle bool
		}
		var steps []stepT
		for i := 0; i < max(1, b.toggles/2); i++ {
			steps = append(steps, stepT{"true", false}, stepT{"false", true}, stepT{"false", false}, stepT{"true", true})
		}
		var noops, toggles []float64
		for _, s := range steps {
			kind := "no-op"
			if s.toggle {
				kind = "toggle"
			}
			b.logf("figure 2: %s apply (atomic_write_16k = %s)", kind, s.flag)
			res, err := b.tf.apply(ctx, dir, env, 10, map[string]string{"flag": s.flag})
			if err != nil {
				return err
			}
			if s.toggle {
				toggles = append(toggles, seconds(res.Duration))
			} else {
				noops = append(noops, seconds(res.Duration))
			}
		}
		st, err := sim.Stats(ctx)
		if err != nil {
			return err
		}
		overhead := mean(toggles) - mean(noops)
		v := overhead / restart.Seconds()
		f.set(v, fmt.Sprintf("%.3f (toggle %.2f s, no-op %.2f s)", v, mean(toggles), mean(noops)))
		f.Detail = map[string]any{
			"restart_seconds":        restart.Seconds(),
			"flag_lag_seconds":       b.flagLag.Seconds(),
			"toggle_apply_seconds":   toggles,
			"noop_apply_seconds":     noops,
			"overhead_seconds":       overhead,
			"restarts":               st.TotalRestarts(),
			"requests":               st.Requests,
			"describe_attribute_per": float64(st.Requests["DescribeDBInstanceAttribute"]) / float64(len(steps)),
		}
		f.judge(v <= 1.05 && st.TotalRestarts() == len(toggles))
		if st.TotalRestarts() != len(toggles) {
			f.Note = fmt.Sprintf("%d toggles caused %d restarts", len(toggles), st.TotalRestarts())
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// figure3: plan of N rds_instance against the same plan of N do-nothing resources with
// rds_instance's schema (benchnull_instance): what the provider's own code adds to what the
// framework costs with that schema. terraform_data and a two-attribute do-nothing provider are
// measured alongside as information, and one more plan is profiled.
func (b *bench) figure3(ctx context.Context) *figure {
	n := b.nScale
	f := &figure{ID: "3", Name: fmt.Sprintf("plan -refresh=true: %d rds_instance / %d do-nothing resources with its schema", n, n),
		Unit: "ratio", Target: "<= 1.15"}
	err := func() error {
		if _, err := os.Stat(b.nullProviderBin); err != nil {
			return fmt.Errorf("%s is missing: make bench builds it (go build -o bin/terraform-provider-benchnull ./internal/cmd/bench/nullprovider)", b.nullProviderBin)
		}
		sim, err := b.startSim(ctx, "fig3", simOptions{CreateDuration: fastCreate, RestartDuration: time.Second, FlagLag: time.Second})
		if err != nil {
			return err
		}
		defer sim.Stop()
		env := simEnv(sim)
		rdsDir := filepath.Join(b.work, "fig3-rds")
		sameDir := filepath.Join(b.work, "fig3-null-same-schema")
		tdDir := filepath.Join(b.work, "fig3-terraform_data")
		nullDir := filepath.Join(b.work, "fig3-null-provider")
		configs := map[string]string{rdsDir: manyInstancesConfig(n), sameDir: sameSchemaConfig(n),
			tdDir: terraformDataConfig(n), nullDir: nullProviderConfig(n)}
		dirs := []string{rdsDir, sameDir, tdDir, nullDir}
		b.logf("figure 3: creating %d instances, and %d of each floor resource", n, n)
		for _, dir := range dirs {
			if err := writeConfig(dir, configs[dir]); err != nil {
				return err
			}
			if _, err := b.tf.apply(ctx, dir, env, setupParallelism, nil); err != nil {
				return err
			}
		}
		b.logf("figure 3: %d interleaved rounds of the four plans", b.rounds)
		times, changes, err := b.interleavedPlans(ctx, dirs, b.rounds, env, rdsDir)
		if err != nil {
			return err
		}
		rds, same, td, null := median(times[rdsDir]), median(times[sameDir]), median(times[tdDir]), median(times[nullDir])
		ratio := rds / same
		// The best rounds are information on a shared machine: other jobs only ever add time.
		bestRatio := minimum(times[rdsDir]) / minimum(times[sameDir])

		b.logf("figure 3: plan against a provider in debug mode, for its peak RSS and CPU")
		usage, err := b.providerUsage(ctx, rdsDir, env)
		if err != nil {
			return err
		}
		// CPU time, unlike wall time, hardly depends on what else the machine runs.
		floorUsage, err := b.debugPlanUsage(ctx, b.nullProviderBin, sameDir, env)
		if err != nil {
			return err
		}
		f.set(ratio, fmt.Sprintf("%.2f (%.2f s / %.2f s); / terraform_data %.2f", ratio, rds, same, rds/td))
		f.Detail = map[string]any{
			"resources":                         n,
			"rds_plan_seconds":                  times[rdsDir],
			"null_same_schema_plan_seconds":     times[sameDir],
			"terraform_data_plan_seconds":       times[tdDir],
			"null_provider_plan_seconds":        times[nullDir],
			"best_round_ratio":                  bestRatio,
			"rds_over_terraform_data":           rds / td,
			"same_schema_over_terraform_data":   same / td,
			"null_provider_over_terraform_data": null / td,
			"provider_peak_rss_kib":             usage.PeakRSSKiB,
			"reattached_plan_seconds":           seconds(usage.Plan),
			"reattached_terraform_cpu_s":        seconds(usage.TerraformCPU),
			"reattached_provider_cpu_s":         seconds(usage.ProviderCPU),
			"same_schema_provider_cpu_s":        seconds(floorUsage.ProviderCPU),
			"plan_shows_changes":                changes,
		}
		f.Note = fmt.Sprintf("information: best rounds %.2f (%.2f s / %.2f s); over %d terraform_data %.2f; the do-nothing provider scores %.2f with rds_instance's schema "+
			"and %.2f with two attributes; one plan's CPU (provider attached in debug mode): terraform %.2f s, provider %.2f s, "+
			"do-nothing provider with the same schema %.2f s; provider peak RSS %.1f MiB", bestRatio, minimum(times[rdsDir]), minimum(times[sameDir]),
			n, rds/td, same/td, null/td, seconds(usage.TerraformCPU), seconds(usage.ProviderCPU), seconds(floorUsage.ProviderCPU),
			float64(usage.PeakRSSKiB)/1024)

		b.logf("figure 3: one more plan with a CPU profile of the provider")
		profilePath := filepath.Join(b.outDir, "provider-cpu.pprof")
		if entries, err := b.profilePlan(ctx, rdsDir, env, profilePath); err != nil {
			f.Note += "; no profile: " + err.Error()
		} else {
			f.Detail["provider_profile"] = profilePath
			f.Detail["provider_own_functions_cum_pct"] = entries
			f.Note += fmt.Sprintf("; the provider's own code in its CPU profile (%s): %s", profilePath, describeProfile(entries, 6))
		}
		f.judge(ratio <= 1.15 && !changes)
		if changes {
			f.Note += "; the rds_instance plan is not empty after the create"
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// providerUsage is what figure 3 reads from a provider the bench runs itself.
type providerUsage struct {
	PeakRSSKiB   int64
	ProviderCPU  time.Duration
	TerraformCPU time.Duration
	Plan         time.Duration
}

// providerUsage runs one plan against a provider the bench started in debug mode and returns the
// provider's VmHWM and CPU time. Reattached, Terraform does not stop the provider at the end, so
// the process is still there to be read; the bench stops it afterwards.
// interleavedPlans plans each directory once untimed (warming the page cache and the simulator),
// then times rounds of one plan each, rotating the order so that no configuration always runs
// first or last. It returns each directory's times and whether a plan of watched showed changes.
func (b *bench) interleavedPlans(ctx context.Context, dirs []string, rounds int, env []string, watched ...string) (map[string][]float64, bool, error) {
	for _, dir := range dirs {
		if _, _, err := b.tf.plan(ctx, dir, env, nil); err != nil {
			return nil, false, err
		}
	}
	times := map[string][]float64{}
	changes := false
	for i := 0; i < rounds; i++ {
		for j := range dirs {
			dir := dirs[(i+j)%len(dirs)]
			res, ch, err := b.tf.plan(ctx, dir, env, nil)
			if err != nil {
				return nil, false, err
			}
			times[dir] = append(times[dir], seconds(res.Duration))
			changes = changes || (ch && slices.Contains(watched, dir))
		}
	}
	return times, changes, nil
}

func (b *bench) providerUsage(ctx context.Context, dir string, env []string) (providerUsage, error) {
	return b.debugPlanUsage(ctx, b.providerBin, dir, env)
}

// debugPlanUsage is providerUsage for any provider binary with a -debug flag.
func (b *bench) debugPlanUsage(ctx context.Context, bin, dir string, env []string) (providerUsage, error) {
	var u providerUsage
	provEnv := append(append([]string{}, b.tf.env...), env...)
	prov, err := startDebugProvider(ctx, bin, provEnv, filepath.Join(b.work, "logs", filepath.Base(bin)+"-debug.log"))
	if err != nil {
		return u, err
	}
	defer prov.Stop()
	cpuBefore, err := prov.CPU()
	if err != nil {
		return u, err
	}
	planEnv := append(append([]string{}, env...), "TF_REATTACH_PROVIDERS="+prov.Reattach)
	res, _, err := b.tf.plan(ctx, dir, planEnv, nil)
	if err != nil {
		return u, err
	}
	u.Plan, u.TerraformCPU = res.Duration, res.CPU
	if u.PeakRSSKiB, err = prov.PeakRSSKiB(); err != nil {
		return u, err
	}
	cpuAfter, err := prov.CPU()
	u.ProviderCPU = cpuAfter - cpuBefore
	return u, err
}

// figure4: creating instances while a fifth of all calls are throttled, against the same create
// without throttling.
func (b *bench) figure4(ctx context.Context) *figure {
	n := b.nThrottle
	f := &figure{ID: "4", Name: fmt.Sprintf("create %d (-parallelism=10, create %s): %.0f%% throttled / unthrottled",
		n, b.createDuration, b.throttleRate*100), Unit: "ratio",
		Target: "<= 1.3, 0 failures, 0 duplicates"}
	type run struct {
		Seconds    float64        `json:"seconds"`
		InState    int            `json:"in_state"`
		InCloud    int            `json:"in_cloud"`
		Failures   int            `json:"failures"`
		Duplicates int            `json:"duplicates"`
		ApplyError string         `json:"apply_error,omitempty"`
		Requests   map[string]int `json:"requests"`
	}
	measure := func(name string, rate float64) (*run, error) {
		sim, err := b.startSim(ctx, name, simOptions{CreateDuration: b.createDuration, RestartDuration: time.Second, FlagLag: time.Second, ThrottleRate: rate})
		if err != nil {
			return nil, err
		}
		defer sim.Stop()
		dir := filepath.Join(b.work, name)
		if err := writeConfig(dir, manyInstancesConfig(n)); err != nil {
			return nil, err
		}
		b.logf("figure 4: creating %d instances, throttle rate %.2f", n, rate)
		r := &run{}
		res, applyErr := b.tf.apply(ctx, dir, simEnv(sim), 10, nil)
		r.Seconds = seconds(res.Duration)
		if applyErr != nil {
			if res.Log == "" {
				return nil, applyErr
			}
			// A failed apply is a result (failures), not a harness error.
			r.ApplyError = applyErr.Error()
		}
		st, err := sim.Stats(ctx)
		if err != nil {
			return nil, err
		}
		r.Requests = st.Requests
		if err := sim.ClearFaults(ctx); err != nil {
			return nil, err
		}
		ids, err := sim.ListInstances(ctx)
		if err != nil {
			return nil, err
		}
		r.InCloud = len(ids)
		if r.InState, err = b.tf.stateCount(ctx, dir, simEnv(sim)); err != nil {
			return nil, err
		}
		r.Failures = n - r.InState
		if r.ApplyError != "" && r.Failures == 0 {
			r.Failures = 1
		}
		r.Duplicates = max(0, r.InCloud-r.InState)
		return r, nil
	}
	err := func() error {
		clean, err := measure("fig4-unthrottled", 0)
		if err != nil {
			return err
		}
		throttled, err := measure("fig4-throttled", b.throttleRate)
		if err != nil {
			return err
		}
		ratio := throttled.Seconds / clean.Seconds
		failures := clean.Failures + throttled.Failures
		dups := clean.Duplicates + throttled.Duplicates
		f.set(ratio, fmt.Sprintf("%.2f (%.1f s / %.1f s), %d failures, %d duplicates",
			ratio, throttled.Seconds, clean.Seconds, failures, dups))
		f.Detail = map[string]any{"unthrottled": clean, "throttled": throttled, "throttle_rate": b.throttleRate}
		f.judge(ratio <= 1.3 && failures == 0 && dups == 0)
		var notes []string
		for _, r := range []*run{clean, throttled} {
			if r.ApplyError != "" {
				notes = append(notes, r.ApplyError)
			}
		}
		f.Note = strings.Join(notes, "\n")
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// figure5 counts restarts per change from the simulator's counters: a toggle on a primary with
// two read-only instances, a class+flag change in one apply, and a no-op apply.
func (b *bench) figure5(ctx context.Context) []*figure {
	fa := &figure{ID: "5a", Name: "restarts: toggle on a primary with 2 read-only instances",
		Unit: "restarts per affected instance", Target: "1 each (3 instances)"}
	fb := &figure{ID: "5b", Name: "restarts: class + flag in one apply", Unit: "restarts", Target: "1"}
	fc := &figure{ID: "5c", Name: "restarts: no-op apply", Unit: "restarts", Target: "0"}
	figs := []*figure{fa, fb, fc}
	err := func() error {
		sim, err := b.startSim(ctx, "fig5", simOptions{CreateDuration: fastCreate, RestartDuration: time.Second, FlagLag: time.Second})
		if err != nil {
			return err
		}
		defer sim.Stop()
		env := simEnv(sim)
		dir := filepath.Join(b.work, "fig5")
		if err := writeConfig(dir, requiredProviders); err != nil {
			return err
		}
		types, err := b.tf.resourceTypes(ctx, dir, env)
		if err != nil {
			return err
		}
		withRO := types["rds_readonly_instance"]
		if err := writeConfig(dir, restartsConfig(withRO)); err != nil {
			return err
		}
		vars := map[string]string{"primary_flag": "false", "solo_flag": "true", "solo_class": benchClass}
		b.logf("figure 5: creating the instances (read-only instances: %v)", withRO)
		if _, err := b.tf.apply(ctx, dir, env, 10, vars); err != nil {
			return err
		}
		outs, err := b.tf.outputs(ctx, dir, env)
		if err != nil {
			return err
		}
		var primaryID, soloID string
		var roIDs []string
		if err := json.Unmarshal(outs["primary_id"], &primaryID); err != nil {
			return fmt.Errorf("output primary_id: %w", err)
		}
		if err := json.Unmarshal(outs["solo_id"], &soloID); err != nil {
			return fmt.Errorf("output solo_id: %w", err)
		}

		// step applies vars after a counter reset and returns the restarts it caused.
		step := func(what string) (map[string]int, bool, error) {
			if err := sim.ResetStats(ctx); err != nil {
				return nil, false, err
			}
			b.logf("figure 5: %s", what)
			if _, err := b.tf.apply(ctx, dir, env, 10, vars); err != nil {
				return nil, false, err
			}
			st, err := sim.Stats(ctx)
			if err != nil {
				return nil, false, err
			}
			// Nothing may be left to do after the apply: a leftover diff would restart again.
			_, changes, err := b.tf.plan(ctx, dir, env, vars)
			return nonZero(st.Restarts), changes, err
		}

		if !withRO {
			fa.Status = statusNotRun
			fa.Note = "the provider has no rds_readonly_instance resource"
		} else {
			if err := json.Unmarshal(outs["ro_ids"], &roIDs); err != nil {
				return fmt.Errorf("output ro_ids: %w", err)
			}
			vars["primary_flag"] = "true"
			restarts, changes, err := step("turning the primary on")
			if err != nil {
				fa.fail(err)
			} else {
				want := map[string]int{primaryID: 1}
				for _, id := range roIDs {
					want[id] = 1
				}
				fa.set(float64(sumValues(restarts))/float64(len(want)), describeRestarts(restarts, primaryID, roIDs))
				fa.Detail = map[string]any{"restarts": restarts, "expected": want, "diff_left_after_apply": changes}
				fa.judge(equalCounts(restarts, want) && !changes)
				if changes {
					fa.Note = "a plan after the apply still shows changes"
				}
			}
		}

		vars["solo_flag"] = "false"
		vars["solo_class"] = benchClassLarge
		restarts, changes, err := step("class + flag change in one apply")
		if err != nil {
			fb.fail(err)
		} else {
			got := restarts[soloID]
			fb.set(float64(got), strconv.Itoa(got))
			fb.Detail = map[string]any{"restarts": restarts, "diff_left_after_apply": changes}
			fb.judge(equalCounts(restarts, map[string]int{soloID: 1}) && !changes)
			if len(restarts) > 1 || changes {
				fb.Note = fmt.Sprintf("restarts %v, diff left after apply: %v", restarts, changes)
			}
		}

		restarts, changes, err = step("no-op apply")
		if err != nil {
			fc.fail(err)
		} else {
			got := sumValues(restarts)
			fc.set(float64(got), strconv.Itoa(got))
			fc.Detail = map[string]any{"restarts": restarts, "diff_left_after_apply": changes}
			fc.judge(got == 0)
		}
		return nil
	}()
	if err != nil {
		for _, f := range figs {
			if f.Status == "" {
				f.fail(err)
			}
		}
	}
	return figs
}

func describeRestarts(restarts map[string]int, primary string, ros []string) string {
	parts := []string{fmt.Sprintf("primary %d", restarts[primary])}
	for i, id := range ros {
		parts = append(parts, fmt.Sprintf("ro%d %d", i, restarts[id]))
	}
	others := 0
	for id, n := range restarts {
		if id != primary && !contains(ros, id) {
			others += n
		}
	}
	if others > 0 {
		parts = append(parts, fmt.Sprintf("others %d", others))
	}
	return strings.Join(parts, ", ")
}

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

func equalCounts(got, want map[string]int) bool {
	got, want = nonZero(got), nonZero(want)
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func minimum(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64{}, xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
