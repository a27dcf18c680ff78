package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// X12: a proxy started outside any state is refused by name at plan (nothing sent); a Startup
// killed before Terraform recorded rds_db_proxy (its journal entry left by a dead run, the proxy
// forgotten by the state) is adopted: the plan says so, the apply configures the running proxy
// without a second Startup, and the journal forgets the entry.
func TestDBProxy_killedStartupAdopted(t *testing.T) {
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_DATA_DIR", filepath.Join(work, ".terraform")) // the journal the harness's providers open
	journal := rdsservice.OpenCreateJournal(work, func(string) string { return "" })
	env, w := envWorld(t, testSimOptions())
	w.applyChecked(t, "instances", readonlyOnResources(true, "mysqlro.n2.medium.1c", 100, false))
	primary := w.stateAttr(t, "rds_instance.primary", "id")
	ctx := context.Background()
	if err := env.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: primary, Service: rdsapi.ProxyStartup, InstanceNum: 2}); err != nil {
		t.Fatal(err)
	}
	before := env.mutations()
	if text := w.planErrorOf(t, proxyResources(nil)); !strings.Contains(text, "already started") || !strings.Contains(text, "terraform import rds_db_proxy.<name> "+primary) {
		t.Fatalf("a proxy nothing names: %s", text)
	}
	if n := env.mutations() - before; n != 0 {
		t.Fatalf("the refused plan sent %d mutating requests", n)
	}
	if err := env.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: primary, Service: rdsapi.ProxyShutdown}); err != nil {
		t.Fatal(err)
	}
	config := proxyResources(map[string]any{"max_delay_seconds": 15})
	var entries []rdsservice.JournalEntry
	w.applyChecked(t, "create", config, func(*terraform.State) error {
		for _, e := range journalEntries(t, journal.Dir()) { // as the Create left them, before a refresh reads the proxy
			if e.Kind == proxyKind && e.ID == rdsservice.ProxyJournalID(primary) {
				entries = append(entries, e)
			}
		}
		return nil
	})
	killRun(t, journal.Dir(), entries)
	delete(w.state, proxyRes)
	delete(w.priv, proxyRes)
	startups := env.requests("ModifyDBProxy")
	plan := mustPlan(t, w, config)
	if p := plan.res[proxyRes]; p == nil || p.action != actCreate || !strings.Contains(diagText(p.diags), "Adopting "+primary) && !strings.Contains(diagText(p.diags), "Adopting the database proxy of "+primary) {
		t.Fatalf("the plan after the kill: %+v", plan.res[proxyRes])
	}
	w.applyChecked(t, "adopt", config)
	if n := env.requests("ModifyDBProxy") - startups; n != 0 {
		t.Fatalf("the adoption sent ModifyDBProxy %d times, want no second Startup", n)
	}
	if left := journal.Interrupted(proxyKind, entries[0].Key); len(left) != 0 {
		t.Fatalf("entries left after the adoption: %+v", left)
	}
	expectEmptyPlan(t, "adopted", mustPlan(t, w, config))
}

// journalEntries reads the journal's entries.
func journalEntries(t *testing.T, dir string) []rdsservice.JournalEntry {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []rdsservice.JournalEntry
	for _, f := range files {
		raw, err := os.ReadFile(f)
		var e rdsservice.JournalEntry
		if err != nil || json.Unmarshal(raw, &e) != nil {
			t.Fatalf("journal entry %s: %v", f, err)
		}
		out = append(out, e)
	}
	return out
}

// killRun writes entries back as left by a run whose process is gone and whose Create never
// returned.
func killRun(t *testing.T, dir string, entries []rdsservice.JournalEntry) {
	t.Helper()
	if len(entries) == 0 {
		t.Fatal("the create left no journal entry")
	}
	for i, e := range entries {
		e.Run, e.Returned = "killed-run", nil
		raw, _ := json.Marshal(e)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("killed-run-%d.json", i)), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
