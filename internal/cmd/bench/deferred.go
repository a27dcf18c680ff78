package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"
)

// deferredRestart is figure 8's simulator restart duration: long enough that an apply which waited
// for a restart could not hide it.
const deferredRestart = time.Hour

// deferredConfig is one instance whose restarts wait for a maintenance window that starts five to
// six hours from now; the class, the flag and a restart-needing parameter come from variables.
func deferredConfig() string {
	start := (time.Now().UTC().Hour() + 6) % 24
	return requiredProviders + `
variable "class" {
  type = string
}

variable "flag" {
  type = bool
}

variable "back_log" {
  type = string
}

resource "rds_instance" "bench" {
` + instanceBody(`"bench-deferred"`, "var.class", "var.flag") + fmt.Sprintf(`  maintenance_window = "%02d:00Z-%02d:00Z"
  apply_restarts     = "in_maintenance_window"
  parameters = {
    back_log = var.back_log
  }
}
`, start, (start+1)%24)
}

// figure8: wall time of an apply whose restart waits for the maintenance window (flag, class and a
// parameter that needs a restart, changed together) against a no-op apply of the same instance,
// with the simulator's restart at one hour (issue 15: the deferred apply returns at once, whatever
// the restart duration). Interleaved; every deferred apply replaces the pending change, so none
// of them restarts anything.
func (b *bench) figure8(ctx context.Context) *figure {
	f := &figure{ID: "8", Name: fmt.Sprintf("Deferred apply (flag + class + parameter, restart %s) / no-op apply", deferredRestart),
		Unit: "x no-op apply", Target: "<= 2, 0 restarts"}
	err := func() error {
		sim, err := b.startSim(ctx, "fig8", simOptions{CreateDuration: fastCreate, RestartDuration: deferredRestart})
		if err != nil {
			return err
		}
		defer sim.Stop()
		dir := filepath.Join(b.work, "fig8")
		if err := writeConfig(dir, deferredConfig()); err != nil {
			return err
		}
		env := simEnv(sim)
		b.logf("figure 8: creating the instance")
		vars := map[string]string{"class": benchClass, "flag": "false", "back_log": "3000"}
		if _, err := b.tf.apply(ctx, dir, env, 10, vars); err != nil {
			return err
		}
		if err := sim.ResetStats(ctx); err != nil {
			return err
		}
		targets := []map[string]string{
			{"class": "mysql.n2.large.2c", "flag": "true", "back_log": "4000"},
			{"class": "mysql.x4.large.2c", "flag": "true", "back_log": "5000"},
		}
		var noops, deferred []float64
		for i := 0; i < max(2, b.toggles); i++ {
			b.logf("figure 8: no-op apply, then a deferred apply")
			res, err := b.tf.apply(ctx, dir, env, 10, vars)
			if err != nil {
				return err
			}
			noops = append(noops, seconds(res.Duration))
			vars = targets[i%2]
			if res, err = b.tf.apply(ctx, dir, env, 10, vars); err != nil {
				return err
			}
			deferred = append(deferred, seconds(res.Duration))
		}
		st, err := sim.Stats(ctx)
		if err != nil {
			return err
		}
		v := mean(deferred) / mean(noops)
		f.set(v, fmt.Sprintf("%.2f (deferred %.2f s, no-op %.2f s)", v, mean(deferred), mean(noops)))
		f.Detail = map[string]any{
			"restart_seconds":        deferredRestart.Seconds(),
			"deferred_apply_seconds": deferred,
			"noop_apply_seconds":     noops,
			"restarts":               st.TotalRestarts(),
			"requests":               st.Requests,
		}
		f.judge(v <= 2 && st.TotalRestarts() == 0)
		if st.TotalRestarts() != 0 {
			f.Note = fmt.Sprintf("%d deferred applies caused %d restarts", len(deferred), st.TotalRestarts())
		}
		return nil
	}()
	if err != nil {
		f.fail(err)
	}
	return f
}
