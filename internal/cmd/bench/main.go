// Command bench measures the rds provider end to end: it drives the real terraform binary against
// the real simulator program (bin/rds-simulator) and the provider binary
// (bin/terraform-provider-rds), all on loopback, and prints the figures of issue 8 as a table and
// as JSON (issues 8 and 18). Every figure is a ratio or a count measured side by side in one run, so the targets hold
// on a noisy machine.
//
// Exit status: 0 when every target is met, 1 when a target is missed or a figure could not run,
// 2 when the harness itself could not start (missing binaries, no terraform).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(run())
}

func run() int {
	var (
		binDir    = flag.String("bin", "bin", "directory holding terraform-provider-rds and rds-simulator")
		terraform = flag.String("terraform", "", "terraform binary (default: the one on PATH)")
		out       = flag.String("out", "bench/results.json", "where to write the results as JSON")
		only      = flag.String("figures", "1,2,3,4,5,6,7,8,9,10,11", "comma-separated figures to run (6 includes 6b)")
		keep      = flag.Bool("keep", false, "keep the work directory (configurations, states, logs)")
		timeout   = flag.Duration("timeout", 25*time.Minute, "deadline for the whole run")
		b         = &bench{progress: os.Stderr}
	)
	flag.IntVar(&b.nRefresh, "refresh-instances", 50, "figure 1: instances in the refreshed plan")
	flag.IntVar(&b.nScale, "scale-instances", 200, "figure 3: resources in each plan")
	flag.IntVar(&b.rounds, "rounds", 7, "figure 3: interleaved timing rounds (the median is used)")
	flag.DurationVar(&b.restartDuration, "restart-duration", 10*time.Second, "figure 2: simulator restart duration")
	flag.IntVar(&b.toggles, "toggles", 4, "figure 2: measured toggles (half on, half off), each paired with a no-op apply")
	flag.DurationVar(&b.flagLag, "flag-lag", 0, "figure 2: simulator delay before a toggled flag shows after the restart "+
		"(0: the restart is the whole time the cloud takes, so the ratio measures only the provider's waiting)")
	flag.DurationVar(&b.createDuration, "create-duration", 10*time.Second, "figure 4: simulator create duration")
	flag.Float64Var(&b.throttleRate, "throttle-rate", 0.2, "figure 4: share of throttled calls")
	flag.IntVar(&b.nThrottle, "throttle-instances", 20, "figure 4: instances created")
	flag.IntVar(&b.nFleet, "fleet-instances", 1000, "figures 6 and 7: instances in the large plan (figure 7's small plan has a fifth)")
	flag.IntVar(&b.fleetRounds, "fleet-rounds", 3, "figure 7: interleaved timing rounds (the median is used)")
	flag.IntVar(&b.quota, "quota", 50, "figures 6, 10 and 11: the simulator's calls per second (figure 6: of DescribeDBInstanceAttribute; 10, 11: of every action)")
	flag.BoolVar(&b.quotaHeader, "quota-header", true, "figures 6, 10 and 11: the simulator states each quota window in x-ratelimit-user-api "+
		"(false: the provider learns the quota from throttling answers alone)")
	flag.BoolVar(&b.tracePhases, "trace-phases", true, "figure 6: one more plan of the fleet, with Terraform's trace log, for the timeline of its steps (information)")
	flag.IntVar(&b.lowQuota, "low-quota", 25, "figure 6b: figure 6 at this quota, where the quota dominates the machine (0: skip)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	started := time.Now()
	b.outDir = filepath.Dir(*out)
	rep, err := b.setup(*binDir, *terraform)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 2
	}
	// The work directory (configurations, states, every command's log) stays when asked for or
	// when a target is missed, so the logs the notes point to can be read.
	defer func() {
		if *keep || !allPass(rep.Figures) {
			fmt.Printf("work directory kept: %s\n", b.work)
			return
		}
		_ = os.RemoveAll(b.work)
	}()

	want := map[string]bool{}
	for _, f := range strings.Split(*only, ",") {
		want[strings.TrimSpace(f)] = true
	}
	if want["1"] {
		rep.Figures = append(rep.Figures, b.figure1(ctx))
	}
	if want["2"] {
		rep.Figures = append(rep.Figures, b.figure2(ctx))
	}
	if want["3"] {
		rep.Figures = append(rep.Figures, b.figure3(ctx))
	}
	if want["4"] {
		rep.Figures = append(rep.Figures, b.figure4(ctx))
	}
	if want["5"] {
		rep.Figures = append(rep.Figures, b.figure5(ctx)...)
	}
	if want["8"] {
		rep.Figures = append(rep.Figures, b.figure8(ctx))
	}
	if want["9"] {
		rep.Figures = append(rep.Figures, b.figure9(ctx))
	}
	// Figure 7 runs first: figure 6 compares its plan with figure 7's plan of the same fleet
	// without a quota.
	var fig7 *figure
	if want["7"] {
		fig7 = b.figure7(ctx)
	}
	if want["6"] {
		rep.Figures = append(rep.Figures, b.figure6(ctx)...)
	}
	if fig7 != nil {
		rep.Figures = append(rep.Figures, fig7)
	}
	// Figure 10 changes the fleet's instances (security_ips, parameters, tags): it comes last.
	if want["11"] {
		rep.Figures = append(rep.Figures, b.figure11(ctx))
	}
	if want["10"] {
		rep.Figures = append(rep.Figures, b.figure10(ctx))
	}
	b.stopFleet()
	rep.Started = started.UTC().Truncate(time.Second)
	rep.DurationSeconds = seconds(time.Since(started).Round(100 * time.Millisecond))
	rep.AllTargetsMet = allPass(rep.Figures)

	fmt.Println()
	printTable(os.Stdout, rep.Figures)
	fmt.Printf("\n%s, %s, %d CPUs, %.0f s\n", rep.TerraformVersion, rep.GoVersion, rep.CPUs, rep.DurationSeconds)
	if err := writeJSON(*out, rep); err != nil {
		fmt.Fprintln(os.Stderr, "bench: write results:", err)
		return 2
	}
	fmt.Printf("results written to %s\n", *out)
	if !rep.AllTargetsMet {
		fmt.Println("some targets were not met (see the table)")
		return 1
	}
	return 0
}

// setup checks the binaries, makes the work directory and the CLI configuration.
func (b *bench) setup(binDir, terraform string) (*report, error) {
	absBin, err := filepath.Abs(binDir)
	if err != nil {
		return nil, err
	}
	b.providerBin = filepath.Join(absBin, "terraform-provider-rds")
	b.simBin = filepath.Join(absBin, "rds-simulator")
	// Figure 3's floor and profiling builds; figure 3 reports an error when they are missing.
	b.nullProviderBin = filepath.Join(absBin, "terraform-provider-benchnull")
	b.pprofProviderBin = filepath.Join(absBin, "terraform-provider-rds-pprof")
	for _, p := range []string{b.providerBin, b.simBin} {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return nil, fmt.Errorf("%s is missing: run `make build simulator` first", p)
		}
	}
	if terraform == "" {
		if terraform, err = exec.LookPath("terraform"); err != nil {
			return nil, fmt.Errorf("terraform is not on PATH: %w", err)
		}
	}
	b.work, err = os.MkdirTemp("", "rds-bench-")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(b.work, "logs"), 0o755); err != nil {
		return nil, err
	}
	cliPath := filepath.Join(b.work, "terraform.rc")
	if err := os.WriteFile(cliPath, []byte(cliConfig(absBin)), 0o644); err != nil {
		return nil, err
	}
	b.tf = &tfRunner{bin: terraform, env: baseEnv(os.Environ(), cliPath), logDir: filepath.Join(b.work, "logs")}

	rep := &report{GoVersion: runtime.Version(), CPUs: runtime.NumCPU()}
	if outp, err := exec.Command(terraform, "version", "-json").Output(); err == nil {
		var v struct {
			Version string `json:"terraform_version"`
		}
		if json.Unmarshal(outp, &v) == nil && v.Version != "" {
			rep.TerraformVersion = "Terraform " + v.Version
		}
	}
	if outp, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		rep.Commit = strings.TrimSpace(string(outp))
	}
	b.logf("work directory %s (logs in logs/)", b.work)
	return rep, nil
}
