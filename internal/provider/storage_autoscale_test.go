package provider

import (
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var autoScaleBase = oracleBase{engine: "MySQL", version: "8.0", storageType: "cloud_essd", category: "HighAvailability", class: "mysql.n2.medium.2c", arch: "x86"}

func autoScaleAttrs(storage int, upper int) map[string]any {
	a := primaryAttrs(autoScaleBase)
	a["storage"] = storage
	a["storage_auto_scale"] = map[string]any{"threshold": 30, "upper_bound": upper}
	return a
}

// growDisk fills an instance's disk to usedGB and moves the cloud's clock past the autoscaling
// check, so that the cloud grows it.
func growDisk(t *testing.T, w *oracleWorld, addr string, usedGB int64) {
	t.Helper()
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	before := w.sim.AutoScaleGrowths(id)
	if err := w.sim.SetDiskUsage(id, usedGB); err != nil {
		t.Fatal(err)
	}
	w.sim.AdvanceClock(2 * time.Minute)
	if w.sim.AutoScaleGrowths(id) != before+1 {
		t.Fatalf("the cloud did not grow %s", id)
	}
}

func intAttr(t *testing.T, v tftypes.Value, name string) int64 {
	t.Helper()
	var n big.Float
	if err := attrOf(v, name).As(&n); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	i, _ := n.Int64()
	return i
}

// Autoscaled storage never plans a change the user did not make: after the cloud grew the disk
// the plan is empty and storage_actual shows the growth; a storage above the actual size grows it;
// one below it sends nothing and warns once; each apply leaves an empty plan and the state as
// planned (the oracle's checks).
func TestAutoScaledStorageNeverPlansAChangeTheUserDidNotMake(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	before := []oracleResource{{addr, autoScaleAttrs(100, 500)}}
	sc := oracleScenario{name: "autoscaling on", role: "primary", base: autoScaleBase, before: before, after: before}
	if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
		t.Fatalf("setup: %+v", setup)
	}
	growDisk(t, w, addr, 75) // 25% free: 100 GB grows to 115
	w.sim.ResetStats()
	plan, err := w.planWalk(before)
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.res[addr]; p.action != actNoop || diagText(p.diags) != "" {
		t.Fatalf("after the cloud grew the disk: %s", planSummary(plan, before))
	}
	if storage, actual := intAttr(t, w.state[addr], "storage"), intAttr(t, w.state[addr], "storage_actual"); storage != 100 || actual != 115 {
		t.Fatalf("refreshed storage %d, storage_actual %d; want 100 and 115", storage, actual)
	}
	if n := w.sim.Stats().Requests["DescribeAutoScalingConfig"]; n != 1 {
		t.Fatalf("DescribeAutoScalingConfig per refresh: %d, want 1", n)
	}
	if out := w.run("grown by the cloud, nothing changed", before); len(out.disagreements) > 0 {
		t.Fatalf("%+v", out.disagreements)
	}

	below := []oracleResource{{addr, autoScaleAttrs(105, 500)}}
	w.sim.ResetStats()
	plan, err = w.planWalk(below)
	if err != nil {
		t.Fatal(err)
	}
	if text := diagText(plan.res[addr].diags); !strings.Contains(text, "below the size the cloud grew the disk to") || sendsSpec(plan.res[addr].decisions) {
		t.Fatalf("storage below the actual size: %s", planSummary(plan, below))
	}
	if out := w.run("storage below the actual size", below); len(out.disagreements) > 0 {
		t.Fatalf("%+v", out.disagreements)
	}
	if storage, actual := intAttr(t, w.state[addr], "storage"), intAttr(t, w.state[addr], "storage_actual"); storage != 105 || actual != 115 {
		t.Fatalf("after the apply: storage %d, storage_actual %d; want 105 and 115", storage, actual)
	}
	if plan, err = w.planWalk(below); err != nil || diagText(plan.res[addr].diags) != "" || plan.res[addr].action != actNoop {
		t.Fatalf("the warning shows once: %v %s", err, planSummary(plan, below))
	}

	above := []oracleResource{{addr, autoScaleAttrs(150, 800)}}
	if out := w.run("storage above the actual size, upper bound raised", above); len(out.disagreements) > 0 {
		t.Fatalf("%+v", out.disagreements)
	}
	if actual := intAttr(t, w.state[addr], "storage_actual"); actual != 150 {
		t.Fatalf("storage_actual after growing to 150: %d", actual)
	}
	off := primaryAttrs(autoScaleBase)
	off["storage"] = 150
	if out := w.run("autoscaling turned off", []oracleResource{{addr, off}}); len(out.disagreements) > 0 {
		t.Fatalf("%+v", out.disagreements)
	}
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	if cfg, err := api.DescribeAutoScalingConfig(t.Context(), id); err != nil || cfg.Enabled || !attrOf(w.state[addr], "storage_auto_scale").IsNull() {
		t.Fatalf("turned off: cloud %+v, %v; state %v", cfg, err, attrOf(w.state[addr], "storage_auto_scale"))
	}
}

// sendsSpec reports whether a plan's decisions send a ModifyDBInstanceSpec.
func sendsSpec(decisions []rdsservice.Decision) bool {
	for _, d := range decisions {
		for _, op := range d.Program.Operations {
			if op.Action == rdsservice.OpModifySpec {
				return true
			}
		}
	}
	return false
}

// A read-only instance the cloud grew with its autoscaled primary keeps its configured storage:
// neither resource plans a change.
func TestAutoScaledPrimaryGrowsItsReadOnlyInstanceWithoutADiff(t *testing.T) {
	h := newOracleHarness(t)
	w := h.newWorld()
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": oracleReadOnlyClasses["x86"][0], "storage": 100}
	order := []oracleResource{{"rds_instance.primary", autoScaleAttrs(100, 500)}, {"rds_readonly_instance.ro", ro}}
	sc := oracleScenario{name: "autoscaling with a read-only instance", role: "combination", base: autoScaleBase, before: order, after: order}
	if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
		t.Fatalf("setup: %+v", setup)
	}
	growDisk(t, w, "rds_instance.primary", 75)
	var roID string
	_ = attrOf(w.state["rds_readonly_instance.ro"], "id").As(&roID)
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if attr, err := api.DescribeDBInstanceAttribute(t.Context(), roID); err != nil || attr.DBInstanceStorage != 115 {
		t.Fatalf("the cloud grows the read-only instance with its primary: %+v, %v", attr, err)
	}
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range order {
		if p := plan.res[r.addr]; p.action != actNoop {
			t.Fatalf("after the cloud grew both disks: %s", planSummary(plan, order))
		}
	}
	if out := w.run("grown by the cloud, read-only instance too", order); len(out.disagreements) > 0 {
		t.Fatalf("%+v", out.disagreements)
	}
}

// A storage_auto_scale the cloud would refuse is refused at plan, naming the value, with no write.
func TestStorageAutoScaleRefusedAtPlanWithoutWrites(t *testing.T) {
	h := newOracleHarness(t)
	for _, tc := range []struct {
		attrs map[string]any
		want  string
	}{
		{autoScaleAttrs(100, 500), ""},
		{map[string]any{"threshold": 15, "upper_bound": 500}, "storage_auto_scale.threshold = 15"},
		{map[string]any{"threshold": 30, "upper_bound": 90}, "upper_bound = 90 GB is below the instance's storage, 100 GB"},
		{map[string]any{"threshold": 30, "upper_bound": 32005}, "upper_bound = 32005 GB is above 32000 GB"},
	} {
		attrs := tc.attrs
		if tc.want != "" {
			attrs = autoScaleAttrs(100, 500)
			attrs["storage_auto_scale"] = tc.attrs
		}
		w := h.newWorld()
		w.sim.ResetStats()
		order := []oracleResource{{"rds_instance.db", attrs}}
		plan, err := w.planWalk(order)
		if err != nil {
			t.Fatal(err)
		}
		if n := mutationsIn(w.sim.Stats()); n > 0 {
			t.Fatalf("%s: the plan wrote %d times", tc.want, n)
		}
		switch {
		case tc.want == "" && plan.errAt != "":
			t.Fatalf("a valid configuration is refused: %s", plan.errMsg)
		case tc.want != "" && !strings.Contains(plan.errMsg, tc.want):
			t.Fatalf("refusal %q, want it to say %q", plan.errMsg, tc.want)
		}
	}
}

// The configuration is read back: a change made outside Terraform shows in the next plan, and
// its apply puts the configured one back.
func TestStorageAutoScaleDriftIsVisible(t *testing.T) {
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	order := []oracleResource{{addr, autoScaleAttrs(100, 500)}}
	sc := oracleScenario{name: "autoscaling on", role: "primary", base: autoScaleBase, before: order, after: order}
	if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
		t.Fatalf("setup: %+v", setup)
	}
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	if err := api.ModifyDasInstanceConfig(t.Context(), id, rdsapi.StorageAutoScale{Enabled: true, Threshold: 10, UpperBound: 2000}); err != nil {
		t.Fatal(err)
	}
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.res[addr]; p.action != actUpdate || !sendsAutoScale(p.decisions) {
		t.Fatalf("changed outside Terraform: %s", planSummary(plan, order))
	}
	if out := w.run("autoscaling changed outside Terraform", order); len(out.disagreements) > 0 {
		t.Fatalf("%+v", out.disagreements)
	}
	if cfg, err := api.DescribeAutoScalingConfig(t.Context(), id); err != nil || cfg.Threshold != 30 || cfg.UpperBound != 500 {
		t.Fatalf("after the apply the cloud has %+v, %v; want threshold 30, upper bound 500", cfg, err)
	}
}

func sendsAutoScale(decisions []rdsservice.Decision) bool {
	for _, d := range decisions {
		for _, op := range d.Program.Operations {
			if op.Action == rdsservice.OpStorageAutoScale {
				return true
			}
		}
	}
	return false
}

// Issue 41 §3.15: after the cloud grew an autoscaled primary and its read-only instance, a class
// change of the read-only instance (its configured storage below the primary's, its disk not) is
// planned and applied: the order carries the disk as it is.
func TestReadOnlyClassChangeAfterAutoScaleGrewBoth(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	ro := map[string]any{"master_instance_id": oracleRef{"rds_instance.primary", "id"}, "instance_type": oracleReadOnlyClasses["x86"][0], "storage": 100}
	order := []oracleResource{{"rds_instance.primary", autoScaleAttrs(100, 500)}, {"rds_readonly_instance.ro", ro}}
	sc := oracleScenario{name: "autoscaling with a read-only instance", role: "combination", base: autoScaleBase, before: order, after: order}
	if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
		t.Fatalf("setup: %+v", setup)
	}
	growDisk(t, w, "rds_instance.primary", 75)
	larger := map[string]any{"master_instance_id": ro["master_instance_id"], "instance_type": oracleReadOnlyClasses["x86"][1], "storage": 100}
	changed := []oracleResource{order[0], {"rds_readonly_instance.ro", larger}}
	if _, err := w.applyStep(changed); err != nil {
		t.Fatalf("class change of the grown read-only instance: %v", err)
	}
	if n := w.sim.Stats().Requests["ModifyDBInstanceSpec"]; n != 1 {
		t.Errorf("%d ModifyDBInstanceSpec sent, want the read-only instance's one", n)
	}
}

// Issue 41 §3.16, decided again by issue 39 §2: turning storage_auto_scale off while storage is below
// storage_actual is refused in that plan (storage would then be the disk's size, and the state would say less
// than the disk has), which says how to keep the disk.
func TestAutoScaleOffBelowActualRefused(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	const addr = "rds_instance.db"
	on := []oracleResource{{addr, autoScaleAttrs(100, 500)}}
	sc := oracleScenario{name: "autoscaling on", role: "primary", base: autoScaleBase, before: on, after: on}
	if ok, setup := w.setup(sc); !ok || len(setup.disagreements) > 0 {
		t.Fatalf("setup: %+v", setup)
	}
	growDisk(t, w, addr, 75) // 100 GB grows to 115
	off := primaryAttrs(autoScaleBase)
	off["storage"] = 100
	plan, err := w.planWalk([]oracleResource{{addr, off}})
	if err != nil || plan.errAt != addr || !regexp.MustCompile(`(?s)Turning storage_auto_scale off leaves storage below the disk.*Set storage = 115`).MatchString(plan.errMsg) {
		t.Fatalf("plan turning autoscaling off: %v, refused at %q: %s", err, plan.errAt, plan.errMsg)
	}
}
