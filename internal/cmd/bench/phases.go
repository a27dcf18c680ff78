package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Figure 6 breaks the time before a plan's first API call (and after its last) down once, from
// one more plan of the fleet run with Terraform's own trace log (TF_LOG_CORE=trace: its steps
// and the provider RPCs it sends, not the provider's log, which would slow the plan far more).
// The plan runs without a quota: the work before the first call and after the last does not
// depend on it.

// planPhase is one step of a traced plan, in seconds after the terraform process started.
type planPhase struct {
	Name string  `json:"name"`
	At   float64 `json:"at_seconds"`
}

// phaseMarker names a step by a line of Terraform's trace log: its first such line, or its last.
type phaseMarker struct {
	name, line string
	last       bool
}

// phaseMarkers are the steps in the order Terraform takes them (Terraform 1.11's messages).
var phaseMarkers = []phaseMarker{
	{"Terraform logging", "Terraform version:", false},
	{"state read", "statemgr.Filesystem: read snapshot", false},
	{"GetProviderSchema", "GRPCProvider.v6: GetProviderSchema", false},
	{"validate walk", "Building and walking validate graph", false},
	{"plan walk", "Building and walking plan graph", false},
	{"ConfigureProvider", "GRPCProvider.v6: ConfigureProvider", false},
	{"first UpgradeResourceState", "GRPCProvider.v6: UpgradeResourceState", false},
	{"first ReadResource", "GRPCProvider.v6: ReadResource", false},
	{"last PlanResourceChange", "GRPCProvider.v6: PlanResourceChange", true},
	{"Close sent to the provider", "GRPCProvider.v6: Close", true},
	{"plan complete", "Plan is complete", false},
	{"plan operation completed", "backend/local: plan operation completed", false},
	{"state unlocked", "statemgr.Filesystem: unlocking", true},
}

// traceLogTime reads the timestamp that starts a line of Terraform's log.
func traceLogTime(line string) (time.Time, bool) {
	stamp, _, found := strings.Cut(line, " ")
	if !found {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02T15:04:05.000Z0700", stamp)
	return t, err == nil
}

// parsePhases finds the markers' times in a trace log, as seconds after start. Markers the log
// does not have are left out.
func parsePhases(scanner *bufio.Scanner, start time.Time) []planPhase {
	found := map[string]time.Time{}
	var phases []planPhase
	for scanner.Scan() {
		line := scanner.Text()
		for _, m := range phaseMarkers {
			if _, seen := found[m.name]; (seen && !m.last) || !strings.Contains(line, m.line) {
				continue
			}
			if t, ok := traceLogTime(line); ok {
				found[m.name] = t
			}
		}
	}
	for _, m := range phaseMarkers {
		if t, ok := found[m.name]; ok {
			phases = append(phases, planPhase{m.name, seconds(t.Sub(start))})
		}
	}
	return phases
}

// tracedPlan plans dir once with Terraform's trace log and returns its steps, with the first and
// last API call (from the simulator) and the process's end among them.
func (b *bench) tracedPlan(ctx context.Context, fl *fleet, dir string) ([]planPhase, error) {
	logPath := filepath.Join(b.tf.logDir, fmt.Sprintf("trace-%s.log", filepath.Base(dir)))
	if err := fl.sim.ClearFaults(ctx); err != nil {
		return nil, err
	}
	if err := fl.sim.ResetStats(ctx); err != nil {
		return nil, err
	}
	env := append(simEnv(fl.sim), "TF_LOG_CORE=trace", "TF_LOG_PATH="+logPath)
	res, _, err := b.tf.plan(ctx, dir, env, nil)
	if err != nil {
		return nil, err
	}
	st, err := fl.sim.Stats(ctx)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(logPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 16<<20)
	phases := parsePhases(scanner, res.Start)
	split := splitPlan(res.Start, res.End, st)
	phases = append(phases,
		planPhase{"first API call", split.Pre},
		planPhase{"last API call", split.Pre + split.Calls},
		planPhase{"terraform exited", seconds(res.Duration)})
	// Stable: steps of one instant keep their order.
	slices.SortStableFunc(phases, func(a, b planPhase) int { return cmp.Compare(a.At, b.At) })
	return phases, scanner.Err()
}

// phasesShown is the timeline as a figure's note prints it.
func phasesShown(p []planPhase) string {
	parts := make([]string, len(p))
	for i, ph := range p {
		parts[i] = fmt.Sprintf("%s +%.2f", ph.Name, ph.At)
	}
	return "one plan traced (TF_LOG_CORE=trace, no quota), seconds after terraform started: " + strings.Join(parts, ", ")
}

// traceFigure6 adds the traced plan's steps to figure 6 (information, not judged).
func (b *bench) traceFigure6(ctx context.Context, f *figure, fl *fleet) {
	b.logf("figure 6: one more plan of %d instances without a quota, traced (TF_LOG_CORE=trace)", fl.big)
	phases, err := b.tracedPlan(ctx, fl, fl.bigDir)
	info := ""
	if err != nil {
		info = "the traced plan failed: " + err.Error()
	} else {
		info = phasesShown(phases)
		f.Detail["trace_timeline"] = phases
	}
	f.Note = strings.TrimPrefix(f.Note+"; "+info, "; ")
}
