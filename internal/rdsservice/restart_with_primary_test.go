package rdsservice

import (
	"strings"
	"testing"
)

// The restart a read-only instance makes with its primary's scheduled toggle is not "this apply
// restarts": the summary names the primary's window, as the detail does. A restart of its own
// beside it keeps the apply's summary.
func TestRestartProblemWithPrimarySaysWhen(t *testing.T) {
	follow := Restart{InstanceID: "rr-1", ByPrimary: true, When: "in the maintenance window of its primary rm-1 (starts 2026-12-01T02:00:00Z)",
		Reasons: []string{"follows its primary rm-1 turning atomic_write_16k on"}, Downtime: "a few minutes"}
	p := RestartProblem([]Restart{follow}, false, false, AttrAtomicWrite)
	if p.Rule != RuleRestartWithPrimary || p.Summary != "RDS instance rr-1 restarts in its primary's maintenance window" ||
		strings.HasPrefix(p.Summary, "This apply restarts") || !strings.Contains(p.Detail, "not during this apply") {
		t.Fatalf("follow restart: rule %q summary %q detail %q", p.Rule, p.Summary, p.Detail)
	}
	own := Restart{InstanceID: "rr-1", Reasons: []string{"instance_type changes"}, Downtime: "a few minutes"}
	if p := RestartProblem([]Restart{own, follow}, false, false, AttrInstanceType); p.Rule != RuleRestart {
		t.Fatalf("own restart beside the follow: rule %q, want %q", p.Rule, RuleRestart)
	}
	if p := RestartProblem([]Restart{follow}, false, true, AttrAtomicWrite); p.Rule != RuleRestartRefused {
		t.Fatalf("prevent_restart: rule %q, want %q", p.Rule, RuleRestartRefused)
	}
}
