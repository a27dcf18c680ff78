package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// planNew runs the planner for a new instance of offer the way rds_instance does: the class
// facts of the offer's zone from the provider's catalogue.
func planNew(data *ProviderData, q rdsservice.ClassQuery, o rdsservice.ClassOffer, atomicWrite rdsservice.Val[bool]) rdsservice.Decision {
	return rdsservice.PlanInstance(context.Background(), data.planEnv(), rdsservice.InstanceRequest{Zone: rdsservice.Known(o.ZoneID),
		Input: rdsservice.PlanInput{Role: rdsservice.RolePrimary, Label: "new", Desired: rdsservice.Desired{
			Engine: rdsservice.Known(q.Engine), EngineVersion: rdsservice.Known(q.EngineVersion), InstanceClass: rdsservice.Known(o.Class),
			StorageType: rdsservice.Known(q.StorageType), Category: rdsservice.Known(q.Category), Storage: rdsservice.Known(o.MinStorage),
			AtomicWrite: atomicWrite, ApplyRestarts: rdsservice.ApplyRestartsImmediately}}}).Decision
}

// TestInstanceClassesOfferOnlyWhatThePlanAccepts walks the whole catalogue: every class
// rds_instance_classes offers in every zone is accepted by the plan of a new instance there, and
// atomic_write_16k_supported is what the plan decides for atomic_write_16k.
func TestInstanceClassesOfferOnlyWhatThePlanAccepts(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	checked := 0
	for _, version := range []string{"5.7", "8.0", "8.4"} {
		for _, category := range []string{"Basic", "HighAvailability", "cluster"} {
			for _, storage := range []string{"local_ssd", "cloud_ssd", "cloud_essd", "cloud_essd3", "general_essd"} {
				q := rdsservice.ClassQuery{Engine: "MySQL", EngineVersion: version, Category: category, StorageType: storage}
				var diags diag.Diagnostics
				for _, o := range offeredClasses(context.Background(), env.data, q, "", rdsapi.PayTypePostpaid, &diags) {
					checked++
					where := fmt.Sprintf("%s %s %s %s in %s", version, category, storage, o.Class, o.ZoneID)
					if d := planNew(env.data, q, o, rdsservice.Null[bool]()); d.HasErrors() || !d.AtomicWrite.Is(o.AtomicWriteSupported) {
						t.Errorf("%s: offered, but the plan refuses it or plans atomic_write_16k %v: %v", where, d.AtomicWrite, d.Errors())
					}
					if d := planNew(env.data, q, o, rdsservice.Known(true)); d.HasErrors() == o.AtomicWriteSupported {
						t.Errorf("%s: atomic_write_16k_supported %t, plan errors with true: %v", where, o.AtomicWriteSupported, d.Errors())
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d offers, want the catalogue's 100 or more", checked)
	}
	// The check can fail: a class from another zone's answer is refused by the plan.
	yitian := rdsservice.ClassOffer{ZoneID: simulator.DefaultRegion + "-h", MinStorage: 20}
	yitian.Class = "mysql.n2m.medium.2c"
	q := rdsservice.ClassQuery{Engine: "MySQL", EngineVersion: "8.0", Category: "HighAvailability", StorageType: "cloud_essd"}
	if d := planNew(env.data, q, yitian, rdsservice.Null[bool]()); !d.HasErrors() {
		t.Error("the plan accepts a YiTian class in the zone without YiTian classes")
	}
}

// TestDiscoveryCallsAreBounded: one zones call per engine and version, one classes call per zone
// asked (shared with the plan's own check), one ListClasses for the life of the process.
func TestDiscoveryCallsAreBounded(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	env.sim.ResetStats()
	var diags diag.Diagnostics
	q := rdsservice.ClassQuery{Engine: "MySQL", EngineVersion: "8.0", Category: "HighAvailability", StorageType: "cloud_essd"}
	for range 3 {
		offeredClasses(context.Background(), env.data, q, "", rdsapi.PayTypePostpaid, &diags)
	}
	q.EngineVersion = "5.7"
	offers := offeredClasses(context.Background(), env.data, q, "", rdsapi.PayTypePostpaid, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	planNew(env.data, q, offers[0], rdsservice.Null[bool]())
	got := env.sim.Stats().Requests
	want := map[string]int{"DescribeAvailableZones": 2, "DescribeAvailableClasses": 8, "ListClasses": 1}
	for action, n := range want {
		if got[action] != n {
			t.Errorf("%s sent %d times, want %d (all: %v)", action, got[action], n, got)
		}
	}
}

func TestInstanceClassesPreferenceAndNoFit(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	zone := simulator.DefaultRegion + "-i"
	base := rdsservice.ClassQuery{Engine: "MySQL", EngineVersion: "8.0", Category: "HighAvailability", StorageType: "cloud_essd"}
	read := func(q rdsservice.ClassQuery) ([]rdsservice.ClassOffer, string) {
		var diags diag.Diagnostics
		out := offeredClasses(context.Background(), env.data, q, zone, rdsapi.PayTypePostpaid, &diags)
		if diags.HasError() {
			return nil, diags.Errors()[0].Detail()
		}
		return out, ""
	}
	q := base
	q.Preferred = []string{"mysql.x9.huge.2c", "mysql.x4.large.2c", "mysql.n2.medium.2c"}
	if out, err := read(q); err != "" || len(out) != 2 || out[0].Class != "mysql.x4.large.2c" || out[0].CPU != 4 || out[0].MemoryGiB != 16 {
		t.Errorf("preferred: got %+v %s", out, err)
	}
	q = base
	q.MinCPU, q.Architecture = 4, rdsapi.ArchitectureARM
	if out, _ := read(q); len(out) == 0 || out[0].Architecture != rdsapi.ArchitectureARM || out[0].CPU < 4 {
		t.Errorf("min_cpu 4 arm: got %+v", out)
	}
	q.MinCPU = 64
	if _, err := read(q); !strings.HasPrefix(err, "No class of MySQL 8.0, category HighAvailability, storage_type cloud_essd in zone(s) "+zone+
		" passes the filters: min_cpu excluded 14 of 14; architecture excluded 8 of 14") {
		t.Errorf("no fit: %s", err)
	}
	q = base
	q.StorageType, q.AtomicWrite = "cloud_ssd", true
	if _, err := read(q); !strings.Contains(err, "atomic_write_16k excluded 14 of 14 (16K atomic write needs storage_type") {
		t.Errorf("no fit for 16K: %s", err)
	}
}

// TestZonesAndClassesDataSourcesRead reads both data sources as Terraform does: rds_zones with
// multi_zone, and rds_instance_classes across every zone with a preference, then a no-fit error
// at instance_class.
func TestZonesAndClassesDataSourcesRead(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	s := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	state, diags := dsRead(t, env, NewZonesDataSource(), map[string]tftypes.Value{"engine_version": s("8.0"), "category": s("Basic"),
		"multi_zone": tftypes.NewValue(tftypes.Bool, true)})
	var zones zonesModel
	if diags.HasError() || state.Get(context.Background(), &zones).HasError() || len(zones.IDs.Elements()) != 0 {
		t.Errorf("Basic edition has no secondary node, so no multi-zone zone: %v %v", zones.IDs, diags)
	}
	state, diags = dsRead(t, env, NewZonesDataSource(), map[string]tftypes.Value{"engine_version": s("8.0"), "category": s("HighAvailability"),
		"multi_zone": tftypes.NewValue(tftypes.Bool, true)})
	if diags.HasError() || state.Get(context.Background(), &zones).HasError() || len(zones.IDs.Elements()) != 4 ||
		!strings.Contains(zones.Zones.String(), `"secondary_zone_ids":["cn-hangzhou-i","cn-hangzhou-j","cn-hangzhou-k"]`) {
		t.Errorf("HighAvailability: %v %v", zones.Zones, diags)
	}
	preferred := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{s("mysql.n2m.large.2c"), s("mysql.n2.large.2c")})
	state, diags = dsRead(t, env, NewInstanceClassesDataSource(), map[string]tftypes.Value{"engine_version": s("8.0"),
		"preferred_instance_classes": preferred, "architecture": s("arm")})
	var classes instanceClassesModel
	if diags.HasError() || state.Get(context.Background(), &classes).HasError() || classes.InstanceClass.ValueString() != "mysql.n2m.large.2c" ||
		len(classes.InstanceClasses.Elements()) != 3 { // three zones have YiTian classes
		t.Errorf("preferred arm: %v %v %v", classes.InstanceClass, classes.InstanceClasses, diags)
	}
	_, diags = dsRead(t, env, NewInstanceClassesDataSource(), map[string]tftypes.Value{"engine_version": s("8.0"),
		"min_cpu": tftypes.NewValue(tftypes.Number, 128)})
	if len(diags.Errors()) != 1 || diags.Errors()[0].Summary() != "No instance class fits" || !strings.Contains(diags.Errors()[0].Detail(), "min_cpu excluded") {
		t.Errorf("no fit: %v", diags)
	}
}
