package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ownPackage marks the provider's own functions in a profile.
const ownPackage = "terraform-provider-rds/internal/"

// profileEntry is one function of the provider's own code in a CPU profile: its cumulative
// share of the provider's CPU during one plan.
type profileEntry struct {
	Function string  `json:"function"`
	CumPct   float64 `json:"cum_pct"`
}

// profilePlan runs one plan against bin/terraform-provider-rds-pprof (the provider built with
// -tags benchprofile) in debug mode with a CPU profile, writes the profile to path and returns
// the provider's own functions by cumulative share. The profiling build exists only for this.
func (b *bench) profilePlan(ctx context.Context, dir string, env []string, path string) ([]profileEntry, error) {
	if _, err := os.Stat(b.pprofProviderBin); err != nil {
		return nil, fmt.Errorf("%s is missing (make bench builds it with -tags benchprofile)", b.pprofProviderBin)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, err
	}
	provEnv := append(append([]string{}, b.tf.env...), env...)
	provEnv = append(provEnv, "RDS_BENCH_CPUPROFILE="+abs)
	prov, err := startDebugProvider(ctx, b.pprofProviderBin, provEnv, filepath.Join(b.work, "logs", "provider-pprof.log"))
	if err != nil {
		return nil, err
	}
	planEnv := append(append([]string{}, env...), "TF_REATTACH_PROVIDERS="+prov.Reattach)
	_, _, planErr := b.tf.plan(ctx, dir, planEnv, nil)
	prov.Stop() // SIGTERM: the profiling build writes the profile and exits
	if planErr != nil {
		return nil, planErr
	}
	out, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-cum", "-nodecount=400", b.pprofProviderBin, abs).Output()
	if err != nil {
		return nil, fmt.Errorf("go tool pprof: %w", err)
	}
	return parsePprofTop(string(out), ownPackage, 12), nil
}

// parsePprofTop reads `go tool pprof -top -cum` output and returns up to n functions whose name
// contains pkg, by cumulative share.
func parsePprofTop(out, pkg string, n int) []profileEntry {
	var entries []profileEntry
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() && len(entries) < n {
		// flat flat% sum% cum cum% name...
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasSuffix(f[4], "%") {
			continue
		}
		name := strings.Join(f[5:], " ")
		if !strings.Contains(name, pkg) {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[4], "%"), 64)
		if err != nil {
			continue
		}
		name = name[strings.Index(name, pkg)+len(pkg):]
		entries = append(entries, profileEntry{Function: name, CumPct: pct})
	}
	return entries
}

func describeProfile(entries []profileEntry, limit int) string {
	parts := make([]string, 0, limit)
	for i, e := range entries {
		if i == limit {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", e.Function, e.CumPct))
	}
	return strings.Join(parts, ", ")
}
