package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// fleetParallelism speeds up creating the fleet; the figures then plan it with Terraform's
// default parallelism (10), as users do.
const fleetParallelism = 50

// fleetSmallShare: figure 7's smaller plan covers the first fifth of the fleet (200 of 1,000).
const fleetSmallShare = 5

// fleet is the simulator holding the instances figures 6 and 7 plan: a configuration of all of
// them, and one of the first fifth whose state is cut from the first (the same instances, so
// the two plans differ only in their number).
type fleet struct {
	sim      *simProcess
	bigDir   string
	smallDir string
	big      int
	small    int
	// unquotedSeconds is figure 7's median plan time of the whole fleet without a quota.
	unquotedSeconds float64
}

// floorDirs are figure 7's floors: terraform_data at both sizes (Terraform's own scaling) and
// the do-nothing provider with rds_instance's schema at the large size (the framework's memory).
type floorDirs struct {
	tdBig, tdSmall, sameBig string
}

// fleetSetup creates the fleet once; stopFleet ends its simulator.
func (b *bench) fleetSetup(ctx context.Context) (*fleet, error) {
	if b.fleet != nil {
		return b.fleet, nil
	}
	n := b.nFleet
	sim, err := b.startSim(ctx, "fleet", simOptions{CreateDuration: fastCreate, RestartDuration: time.Second, FlagLag: time.Second,
		NoQuotaHeader: !b.quotaHeader})
	if err != nil {
		return nil, err
	}
	fl := &fleet{sim: sim, big: n, small: max(1, n/fleetSmallShare),
		bigDir: filepath.Join(b.work, fmt.Sprintf("fleet-%d", n))}
	fl.smallDir = filepath.Join(b.work, fmt.Sprintf("fleet-%d", fl.small))
	err = func() error {
		if err := writeConfig(fl.bigDir, manyInstancesConfig(fl.big)); err != nil {
			return err
		}
		b.logf("figures 6 and 7: creating %d instances (-parallelism=%d)", fl.big, fleetParallelism)
		if _, err := b.tf.apply(ctx, fl.bigDir, simEnv(sim), fleetParallelism, nil); err != nil {
			return err
		}
		if err := writeConfig(fl.smallDir, manyInstancesConfig(fl.small)); err != nil {
			return err
		}
		return cutState(filepath.Join(fl.bigDir, "terraform.tfstate"), filepath.Join(fl.smallDir, "terraform.tfstate"), fl.small)
	}()
	if err != nil {
		sim.Stop()
		return nil, err
	}
	b.fleet = fl
	return fl, nil
}

func (b *bench) stopFleet() {
	if b.fleet != nil {
		b.fleet.sim.Stop()
		b.fleet = nil
	}
}

// cutState writes the state at src keeping only rds_instance.bench[0..keep-1] and the first
// keep ids of the ids output, which is the state manyInstancesConfig(keep) would have.
func cutState(src, dst string, keep int) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var state map[string]any
	if err := json.Unmarshal(data, &state); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	resources, _ := state["resources"].([]any)
	kept := 0
	for _, r := range resources {
		res, _ := r.(map[string]any)
		if res["type"] != "rds_instance" || res["name"] != "bench" {
			continue
		}
		instances, _ := res["instances"].([]any)
		var out []any
		for _, inst := range instances {
			if idx, ok := inst.(map[string]any)["index_key"].(float64); ok && int(idx) < keep {
				out = append(out, inst)
			}
		}
		res["instances"] = out
		kept = len(out)
	}
	if kept != keep {
		return fmt.Errorf("%s holds %d of the %d instances to keep", src, kept, keep)
	}
	outputs, _ := state["outputs"].(map[string]any)
	if ids, ok := outputs["ids"].(map[string]any); ok {
		list, _ := ids["value"].([]any)
		if len(list) < keep {
			return errors.New("the ids output is shorter than the instances")
		}
		ids["value"] = list[:keep]
		if t, ok := ids["type"].([]any); ok && len(t) == 2 {
			if elems, ok := t[1].([]any); ok && len(elems) >= keep {
				t[1] = elems[:keep]
			}
		}
	}
	out, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(dst, out, 0o644)
}

// figure7: plan time of the whole fleet over a fifth of it, without a quota (linear scaling
// gives 5), and the provider's peak RSS during the plan of the whole fleet. The same two plans
// of terraform_data, timed in the same rounds, show how Terraform itself scales; the do-nothing
// provider with rds_instance's schema shows the framework's peak RSS at the large size.
func (b *bench) figure7(ctx context.Context) *figure {
	const maxRSSMiB = 150
	f := &figure{ID: "7", Name: fmt.Sprintf("plan of %d / plan of %d instances (no quota); provider peak RSS at %d", b.nFleet, max(1, b.nFleet/fleetSmallShare), b.nFleet),
		Unit: "ratio", Target: fmt.Sprintf("<= 5.5, RSS <= %d MiB", maxRSSMiB)}
	err := func() error {
		fl, err := b.fleetSetup(ctx)
		if err != nil {
			return err
		}
		env := simEnv(fl.sim)
		floors, err := b.fleetFloors(ctx, fl)
		if err != nil {
			return err
		}
		dirs := []string{fl.bigDir, fl.smallDir, floors.tdBig, floors.tdSmall}
		b.logf("figure 7: %d interleaved rounds of plans of %d and %d instances and terraform_data", b.fleetRounds, fl.big, fl.small)
		times, changes, err := b.interleavedPlans(ctx, dirs, b.fleetRounds, env, fl.bigDir, fl.smallDir)
		if err != nil {
			return err
		}
		big, small := median(times[fl.bigDir]), median(times[fl.smallDir])
		fl.unquotedSeconds = big
		ratio := big / small
		tdRatio := median(times[floors.tdBig]) / median(times[floors.tdSmall])
		b.logf("figure 7: plans of %d against the provider and the do-nothing provider in debug mode, for their peak RSS", fl.big)
		usage, err := b.providerUsage(ctx, fl.bigDir, env)
		if err != nil {
			return err
		}
		floorUsage, err := b.debugPlanUsage(ctx, b.nullProviderBin, floors.sameBig, env)
		if err != nil {
			return err
		}
		rssMiB := float64(usage.PeakRSSKiB) / 1024
		floorMiB := float64(floorUsage.PeakRSSKiB) / 1024
		f.set(ratio, fmt.Sprintf("%.2f (%.2f s / %.2f s), provider peak RSS %.1f MiB", ratio, big, small, rssMiB))
		f.Detail = map[string]any{
			"big":                          fl.big,
			"small":                        fl.small,
			"big_plan_seconds":             times[fl.bigDir],
			"small_plan_seconds":           times[fl.smallDir],
			"terraform_data_big_seconds":   times[floors.tdBig],
			"terraform_data_small_seconds": times[floors.tdSmall],
			"terraform_data_ratio":         tdRatio,
			"provider_peak_rss_kib":        usage.PeakRSSKiB,
			"same_schema_peak_rss_kib":     floorUsage.PeakRSSKiB,
			"rss_over_same_schema":         rssMiB / floorMiB,
			"reattached_provider_cpu_s":    seconds(usage.ProviderCPU),
			"reattached_terraform_cpu_s":   seconds(usage.TerraformCPU),
			"same_schema_provider_cpu_s":   seconds(floorUsage.ProviderCPU),
			"plan_shows_changes":           changes,
		}
		f.Note = fmt.Sprintf("side by side: terraform_data scales %.2f over the same sizes (Terraform alone); at %d the do-nothing "+
			"provider with rds_instance's schema peaks at %.1f MiB (the framework alone; the provider %.2f times that), both with the "+
			"provider's soft memory limit (internal/memlimit, unless GOMEMLIMIT is set); one plan of %d (attached in debug mode): "+
			"terraform CPU %.1f s, provider CPU %.1f s, do-nothing provider CPU %.1f s",
			tdRatio, fl.big, floorMiB, rssMiB/floorMiB, fl.big, seconds(usage.TerraformCPU), seconds(usage.ProviderCPU), seconds(floorUsage.ProviderCPU))
		f.judge(ratio <= 5.5 && rssMiB <= maxRSSMiB && !changes)
		if changes {
			f.Note += "; a plan is not empty"
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}

// fleetFloors creates figure 7's floor configurations (no simulator needed).
func (b *bench) fleetFloors(ctx context.Context, fl *fleet) (floorDirs, error) {
	d := floorDirs{
		tdBig:   filepath.Join(b.work, fmt.Sprintf("fleet-terraform_data-%d", fl.big)),
		tdSmall: filepath.Join(b.work, fmt.Sprintf("fleet-terraform_data-%d", fl.small)),
		sameBig: filepath.Join(b.work, fmt.Sprintf("fleet-null-same-schema-%d", fl.big)),
	}
	b.logf("figure 7: creating %d and %d terraform_data and %d do-nothing resources with rds_instance's schema", fl.big, fl.small, fl.big)
	for dir, config := range map[string]string{d.tdBig: terraformDataConfig(fl.big), d.tdSmall: terraformDataConfig(fl.small),
		d.sameBig: sameSchemaConfig(fl.big)} {
		if err := writeConfig(dir, config); err != nil {
			return d, err
		}
		if _, err := b.tf.apply(ctx, dir, nil, fleetParallelism, nil); err != nil {
			return d, err
		}
	}
	return d, nil
}
