package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// leaveInterruptedCreate writes the entry a killed apply leaves for an instance create (its run's
// lock is gone with its process).
func leaveInterruptedCreate(t *testing.T, dir, kind, key, action, token, id string, started time.Time) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "key": key, "action": action, "token": token, "id": id, "started": started, "run": "killed-run"})
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "killed-run-"+token+".json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Issue 41, item 19: `count = 2` read-only instances with identical arguments, the apply killed
// while one had been answered (rr-A) and the other not: each twin takes one of them, at plan and
// at apply, whatever order they run in, instead of both refusing.
func TestReadOnlyTwinsTakeInterruptedCreates(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, accessSimOptions())
	primary := env.plantInstance(t, "8.0", "")
	made := env.plantInstance(t, "8.0", primary)
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	open := func() *rdsservice.CreateJournal {
		return rdsservice.OpenCreateJournal(work, func(string) string { return "" })
	}
	env.data.Journal = open()
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"master_instance_id": tftypes.String}}
	config := tfsdk.Config{Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"master_instance_id": tftypes.NewValue(tftypes.String, primary)})}
	kind := "rds_readonly_instance"
	key := configKey(kind, config)
	leaveInterruptedCreate(t, env.data.Journal.Dir(), kind, key, actionReadOnly, "tok-a", made, time.Now().Add(-2*time.Minute))
	leaveInterruptedCreate(t, env.data.Journal.Dir(), kind, key, actionReadOnly, "tok-b", "", time.Now().Add(-time.Minute))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var plans [2]diag.Diagnostics
	for i := range plans {
		addProblems(&plans[i], rdsservice.PlanInterruptedCreate(ctx, env.data.planEnv(), kind, configKey(kind, config)))
		if plans[i].HasError() {
			t.Fatalf("twin %d's plan refused: %s", i, problemsOf(plans[i]))
		}
	}
	if !strings.Contains(problemsOf(plans[0]), "Adopting "+made) || !strings.Contains(problemsOf(plans[0]), "one of this configuration's twins") {
		t.Fatalf("first twin: %q; want the adoption of %s, saying it is a twin's", problemsOf(plans[0]), made)
	}
	if !strings.Contains(problemsOf(plans[1]), "Resending a create") {
		t.Fatalf("second twin: %q; want the resend of the unanswered create", problemsOf(plans[1]))
	}

	env.data.Journal = open() // the apply runs in another provider process, its twins in any order
	var creates [2]*rdsservice.CreateRequest
	for _, i := range []int{1, 0} {
		creates[i] = &rdsservice.CreateRequest{ReadOnly: &rdsapi.CreateReadOnlyDBInstanceRequest{}}
		var apply diag.Diagnostics
		if claimInstanceCreate(ctx, env.data, config, types.StringUnknown(), creates[i], &apply) == nil {
			t.Fatalf("twin %d's apply refused: %s", i, problemsOf(apply))
		}
	}
	if creates[1].AdoptID != made || creates[0].AdoptID != "" || creates[0].ReadOnly.ClientToken != "tok-b" {
		t.Fatalf("apply: the twin applied first adopts %q, the other adopts %q with token %q; want %s, and a resend of tok-b",
			creates[1].AdoptID, creates[0].AdoptID, creates[0].ReadOnly.ClientToken, made)
	}
}
