package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// releasedPairResources is a primary with atomic_write_16k = flag and, unless released, its
// read-only instance leaving the flag to it.
func releasedPairResources(flag, released bool) []oracleResource {
	order := []oracleResource{{addr: "rds_instance.primary", attrs: map[string]any{"engine": "MySQL", "engine_version": "8.0",
		"instance_type": "mysql.n2.medium.2c", "storage": 100, "instance_name": "orders", "atomic_write_16k": flag}}}
	if released {
		return order
	}
	return append(order, oracleResource{addr: testRO, attrs: map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"},
		"instance_type": "mysqlro.n2.medium.1c", "storage": 100}})
}

// namesRestartOf reports whether any of p's decisions names a restart of instance id.
func namesRestartOf(p *oraclePlanned, id string) bool {
	for _, d := range p.decisions {
		for _, r := range d.Program.Restarts() {
			if strings.HasPrefix(r.InstanceID, id) {
				return true
			}
		}
	}
	return false
}

// A read-only instance released in the run that turns its primary's 16K atomic write on is gone
// before the toggle (Terraform destroys it before it updates the primary it depends on), so it never
// restarts with it. Planned after the primary, its destroy plan corrects the restart the primary's
// plan named (readonly-released-before-primary); planned before it, the primary's plan leaves it out.
func TestReadonlyReleasedBeforePrimaryToggle(t *testing.T) {
	t.Parallel()
	for _, destroyFirst := range []bool{false, true} {
		env, w := envWorld(t, testSimOptions())
		if _, err := w.applyStep(releasedPairResources(false, false)); err != nil {
			t.Fatalf("create: %v", err)
		}
		primaryID, roID := w.stateAttr(t, "rds_instance.primary", "id"), w.stateAttr(t, testRO, "id")
		order := releasedPairResources(true, true)
		primary, ro := planReleasedPair(t, w, order, destroyFirst)
		warned := false
		for _, d := range ro.diags {
			warned = warned || (d.Severity == tfprotov6.DiagnosticSeverityWarning && renderedFrom(rdsservice.RuleReadOnlyReleasedFirst, d.Summary))
		}
		if named := namesRestartOf(primary, roID); named != warned || named == destroyFirst {
			t.Errorf("destroy planned first %t: the primary's plan names %s's restart: %t, the destroy plan corrects it: %t; want %t and %t",
				destroyFirst, roID, named, warned, !destroyFirst, !destroyFirst)
		}
		if _, err := w.applyStep(order); err != nil {
			t.Fatalf("toggle and release: %v", err)
		}
		if got := env.sim.Stats().Restarts; got[roID] != 0 || got[primaryID] != 1 {
			t.Errorf("destroy planned first %t: restarts %s %d, %s %d; want 0 and 1", destroyFirst, roID, got[roID], primaryID, got[primaryID])
		}
	}
}

// planReleasedPair plans the primary of order and the destroy of the read-only instance, in either
// order, with one provider as Terraform's plan walk does.
func planReleasedPair(t *testing.T, w *oracleWorld, order []oracleResource, destroyFirst bool) (primary, ro *oraclePlanned) {
	t.Helper()
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.refresh(server, append(append([]oracleResource(nil), order...), w.orphans(order)...)); err != nil {
		t.Fatal(err)
	}
	planRO := func() {
		if ro, err = w.planDestroy(server, oracleResource{addr: testRO}); err != nil {
			t.Fatal(err)
		}
	}
	if destroyFirst {
		planRO()
	}
	primary = w.planOne(server, order[0], w.config(order[0], nil))
	if !destroyFirst {
		planRO()
	}
	if diagsHaveError(primary.diags) || diagsHaveError(ro.diags) {
		t.Fatalf("plan: %s %s", diagText(primary.diags), diagText(ro.diags))
	}
	return primary, ro
}
