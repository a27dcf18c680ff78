package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// Figure statuses.
const (
	statusPass   = "pass"
	statusFail   = "fail"
	statusNotRun = "not run"
	statusError  = "error"
)

// figure is one row of the table and one entry of results.json.
type figure struct {
	ID     string         `json:"id"`
	Name   string         `json:"name"`
	Value  *float64       `json:"value,omitempty"`
	Shown  string         `json:"shown"`
	Unit   string         `json:"unit,omitempty"`
	Target string         `json:"target"`
	Status string         `json:"status"`
	Note   string         `json:"note,omitempty"`
	Detail map[string]any `json:"detail,omitempty"`
}

func (f *figure) set(v float64, shown string) {
	f.Value = &v
	f.Shown = shown
}

// judge sets the status from a boolean outcome.
func (f *figure) judge(ok bool) {
	if ok {
		f.Status = statusPass
	} else {
		f.Status = statusFail
	}
}

func (f *figure) fail(err error) {
	f.Status = statusError
	f.Note = err.Error()
}

// report is results.json.
type report struct {
	Started          time.Time `json:"started"`
	DurationSeconds  float64   `json:"duration_seconds"`
	TerraformVersion string    `json:"terraform_version"`
	GoVersion        string    `json:"go_version"`
	CPUs             int       `json:"cpus"`
	Commit           string    `json:"commit,omitempty"`
	Figures          []*figure `json:"figures"`
	AllTargetsMet    bool      `json:"all_targets_met"`
}

// allPass is true when every figure met its target.
func allPass(figs []*figure) bool {
	for _, f := range figs {
		if f.Status != statusPass {
			return false
		}
	}
	return len(figs) > 0
}

// printTable writes the human-readable table.
func printTable(w io.Writer, figs []*figure) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tfigure\tvalue\ttarget\tresult")
	for _, f := range figs {
		shown := f.Shown
		if shown == "" {
			shown = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.ID, f.Name, shown, f.Target, strings.ToUpper(f.Status))
	}
	_ = tw.Flush()
	for _, f := range figs {
		if f.Note != "" {
			fmt.Fprintf(w, "  [%s] %s\n", f.ID, strings.ReplaceAll(f.Note, "\n", "\n      "))
		}
	}
}

// writeJSON writes the report, creating the directory.
func writeJSON(path string, r *report) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}
