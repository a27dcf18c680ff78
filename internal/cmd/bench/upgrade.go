package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Figure 9 (issue 25): the time an engine upgrade apply spends beyond the simulated upgrade
// itself, like figure 2 for a restart. The simulator takes an upgrade out of service for its
// restart duration.

// upgradeVersions are the versions figure 9 goes through, one major version per apply.
var upgradeVersions = []string{"5.6", "5.7", "8.0"}

// upgradeConfig is one rds_instance whose engine_version comes from var.version.
func upgradeConfig() string {
	body := instanceBody(`"bench-upgrade"`, fmt.Sprintf("%q", benchClass), "false")
	body = strings.Replace(body, `engine_version   = "8.0"`, `engine_version   = var.engine_version`, 1)
	return requiredProviders + `
variable "engine_version" {
  type = string
}

resource "rds_instance" "bench" {
` + body + "}\n"
}

// figure9: (upgrade apply - no-op apply) / upgrade duration, over 5.6 -> 5.7 -> 8.0.
func (b *bench) figure9(ctx context.Context) *figure {
	upgrade := b.restartDuration
	f := &figure{ID: "9", Name: fmt.Sprintf("Engine-upgrade-wait overhead (upgrade apply - no-op apply) / upgrade %s", upgrade),
		Unit: "x upgrade duration", Target: "<= 1.05"}
	err := func() error {
		sim, err := b.startSim(ctx, "fig9", simOptions{CreateDuration: fastCreate, RestartDuration: upgrade})
		if err != nil {
			return err
		}
		defer sim.Stop()
		dir := filepath.Join(b.work, "fig9")
		if err := writeConfig(dir, upgradeConfig()); err != nil {
			return err
		}
		env := simEnv(sim)
		b.logf("figure 9: creating the instance on MySQL %s", upgradeVersions[0])
		if _, err := b.tf.apply(ctx, dir, env, 10, map[string]string{"engine_version": upgradeVersions[0]}); err != nil {
			return err
		}
		if err := sim.ResetStats(ctx); err != nil {
			return err
		}
		var noops, upgrades []float64
		for i, version := range upgradeVersions {
			if i > 0 {
				b.logf("figure 9: upgrade apply to MySQL %s", version)
				res, err := b.tf.apply(ctx, dir, env, 10, map[string]string{"engine_version": version})
				if err != nil {
					return err
				}
				upgrades = append(upgrades, seconds(res.Duration))
			}
			b.logf("figure 9: no-op apply on MySQL %s", version)
			res, err := b.tf.apply(ctx, dir, env, 10, map[string]string{"engine_version": version})
			if err != nil {
				return err
			}
			noops = append(noops, seconds(res.Duration))
		}
		st, err := sim.Stats(ctx)
		if err != nil {
			return err
		}
		overhead := mean(upgrades) - mean(noops)
		v := overhead / upgrade.Seconds()
		f.set(v, fmt.Sprintf("%.3f (upgrade %.2f s, no-op %.2f s)", v, mean(upgrades), mean(noops)))
		f.Detail = map[string]any{
			"upgrade_seconds":       upgrade.Seconds(),
			"upgrade_apply_seconds": upgrades,
			"noop_apply_seconds":    noops,
			"overhead_seconds":      overhead,
			"restarts":              st.TotalRestarts(),
			"requests":              st.Requests,
		}
		ok := st.TotalRestarts() == len(upgrades) && st.Requests["UpgradeDBInstanceEngineVersion"] == len(upgrades)
		f.judge(v <= 1.05 && ok)
		if !ok {
			f.Note = fmt.Sprintf("%d upgrades caused %d restarts and %d UpgradeDBInstanceEngineVersion requests",
				len(upgrades), st.TotalRestarts(), st.Requests["UpgradeDBInstanceEngineVersion"])
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}
