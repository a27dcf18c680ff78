package provider

import (
	"context"
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
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// A restore from a cross-region backup whose apply was killed goes through the create journal as
// a clone does (issue 29): killed after the cloud answered, the next plan and apply adopt the
// instance and send nothing; killed before the answer came, the next apply resends the request
// with its ClientToken and the cloud answers with the instance the first one made (no second
// billed instance).
func TestCrossRestoreKilledCreateIsAdopted(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	src := env.restoreSource(t, "mysql.n2.medium.2c", time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC))
	copyID := env.crossCopy(t, src)
	work := t.TempDir()
	if err := os.Mkdir(filepath.Join(work, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	env.data.Journal = rdsservice.OpenCreateJournal(work, func(string) string { return "" })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	request := func(token string) *rdsapi.CreateDdrInstanceRequest {
		return &rdsapi.CreateDdrInstanceRequest{RegionID: crossDest, SourceRegion: simulator.DefaultRegion, SourceDBInstanceID: src,
			BackupSetID: copyID, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20,
			DBInstanceStorageType: "cloud_essd", ClientToken: token}
	}
	config := func(name string) tfsdk.Config {
		typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"instance_name": tftypes.String}}
		return tfsdk.Config{Raw: tftypes.NewValue(typ, map[string]tftypes.Value{"instance_name": tftypes.NewValue(tftypes.String, name)})}
	}
	sent := func(token string) string {
		out, err := env.api.CreateDdrInstance(ctx, request(token))
		if err != nil {
			t.Fatal(err)
		}
		return out.DBInstanceID
	}

	// Killed after the answer: the entry has the instance's id.
	answered := sent("tok-answered")
	key := configKey("rds_instance", config("answered"))
	leaveInterruptedCreate(t, env.data.Journal.Dir(), "rds_instance", key, actionDdr, "tok-answered", answered, time.Now().Add(-time.Minute))
	var plan, apply diag.Diagnostics
	addProblems(&plan, rdsservice.PlanInterruptedCreate(ctx, env.data.planEnv(), "rds_instance", configKey("rds_instance", config("answered"))))
	if got := problemsOf(plan); plan.HasError() || !strings.Contains(got, "Adopting "+answered) {
		t.Fatalf("plan after a killed restore: %q, want the adoption of %s", got, answered)
	}
	create := &rdsservice.CreateRequest{Ddr: request("")}
	if claimInstanceCreate(ctx, env.data, config("answered"), types.StringUnknown(), create, &apply) == nil || create.AdoptID != answered {
		t.Fatalf("apply after a killed restore: %q, adopts %q; want %s", problemsOf(apply), create.AdoptID, answered)
	}

	// Killed before the answer: the entry has only the token, and the resend finds the first instance.
	lost := sent("tok-lost")
	key = configKey("rds_instance", config("lost"))
	leaveInterruptedCreate(t, env.data.Journal.Dir(), "rds_instance", key, actionDdr, "tok-lost", "", time.Now().Add(-time.Minute))
	plan, apply = nil, nil
	addProblems(&plan, rdsservice.PlanInterruptedCreate(ctx, env.data.planEnv(), "rds_instance", configKey("rds_instance", config("lost"))))
	if got := problemsOf(plan); plan.HasError() || !strings.Contains(got, "Resending a create") {
		t.Fatalf("plan after an unanswered restore: %q, want the resend", got)
	}
	create = &rdsservice.CreateRequest{Ddr: request("")}
	if claimInstanceCreate(ctx, env.data, config("lost"), types.StringUnknown(), create, &apply) == nil || create.Ddr.ClientToken != "tok-lost" {
		t.Fatalf("apply after an unanswered restore: %q, token %q; want a resend of tok-lost", problemsOf(apply), create.Ddr.ClientToken)
	}
	id, err := rdsservice.CreateDdrInstance(ctx, env.api, env.data.Waiter, create.Ddr)
	if err != nil || id != lost {
		t.Fatalf("the resent restore: %q, %v; want %s, the instance the first request made", id, err, lost)
	}
	items, err := rdsservice.ListAllDBInstances(ctx, env.api, &rdsapi.DescribeDBInstancesRequest{RegionID: crossDest})
	if err != nil || len(items) != 2 || env.requests("CreateDdrInstance") != 3 {
		t.Fatalf("%d instances in %s (%v) after %d CreateDdrInstance requests; want 2 after 3", len(items), crossDest, err, env.requests("CreateDdrInstance"))
	}
}
