package rdsservice

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// factsAPI answers the reads of a plan from a fixed set of instances and counts them.
type factsAPI struct {
	rdsapi.API
	insts map[string]rdsapi.DBInstanceAttribute
	reads []string
}

func (a *factsAPI) DescribeDBInstanceAttribute(_ context.Context, id string) (*rdsapi.DBInstanceAttribute, error) {
	a.reads = append(a.reads, id)
	attr, ok := a.insts[id]
	if !ok {
		return nil, errNotFound
	}
	return &attr, nil
}

func (a *factsAPI) DescribeDBMiniEngineVersions(context.Context, string, string) ([]rdsapi.MinorVersionItem, error) {
	a.reads = append(a.reads, "minor")
	return []rdsapi.MinorVersionItem{{MinorVersion: "rds_20240101", StatusDesc: "Offline"}, {MinorVersion: "rds_20250101", StatusDesc: "Online"}}, nil
}

func factsEnv(api *factsAPI) Env {
	return Env{API: api, Now: func() time.Time { return time.Unix(0, 0) }, Classes: &Catalogue{}, Templates: &TemplateCache{}, Ledger: &Ledger{}}
}

func primaryWithReadOnly() *factsAPI {
	attr := func(id string) rdsapi.DBInstanceAttribute {
		return rdsapi.DBInstanceAttribute{DBInstanceID: id, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
			DBInstanceStorage: 100, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability", CurrentKernelVersion: "rds_20230101",
			LatestKernelVersion: "rds_20250101"}
	}
	p := attr("rm-1")
	p.ReadOnlyDBInstanceIDs = []string{"rr-1", "rr-2", "rr-gone"}
	return &factsAPI{insts: map[string]rdsapi.DBInstanceAttribute{"rm-1": p, "rr-1": attr("rr-1"), "rr-2": attr("rr-2")}}
}

// TestReadOnlyFactsLeaveOutReleased: a read-only instance this run releases (and one gone) is not
// a fact of its primary's plan, and is not read.
func TestReadOnlyFactsLeaveOutReleased(t *testing.T) {
	api := primaryWithReadOnly()
	env := factsEnv(api)
	env.Ledger.RecordReleased("rr-2")
	ros, errText := ReadOnlyFacts(context.Background(), env, "rm-1")
	if errText != "" || len(ros) != 1 || ros[0].ID != "rr-1" || slices.Contains(api.reads, "rr-2") {
		t.Fatalf("read-only facts %+v (%q), reads %v", ros, errText, api.reads)
	}
}

// TestInstanceInputReadsWhatTheChangeConcerns: the read-only instances and the minor versions are
// read only for the changes they decide.
func TestInstanceInputReadsWhatTheChangeConcerns(t *testing.T) {
	prior := func() *ExistingInstance {
		return &ExistingInstance{ID: "rm-1 (label)", Engine: "MySQL", EngineVersion: "8.0", Storage: 100, MinorVersion: "rds_20230101"}
	}
	for _, c := range []struct {
		name    string
		desired Desired
		reads   []string
	}{
		{"rename", Desired{Storage: Known[int64](100)}, nil},
		{"grow", Desired{Storage: Known[int64](200)}, []string{"rm-1", "rr-1", "rr-2", "rr-gone"}},
		{"flag on", Desired{AtomicWrite: Known(true)}, []string{"rm-1", "rr-1", "rr-2", "rr-gone"}},
		{"minor upgrade", Desired{Minor: DesiredMinor{Target: Known("rds_20250101")}}, []string{"rm-1", "minor", "rm-1", "rr-1", "rr-2", "rr-gone"}},
		{"minor at or below", Desired{Minor: DesiredMinor{Target: Known("rds_20230101")}}, nil},
	} {
		api := primaryWithReadOnly()
		in, failures := InstanceInput(context.Background(), factsEnv(api), InstanceRequest{ID: "rm-1", Input: PlanInput{Prior: prior(), Desired: c.desired}})
		if !slices.Equal(api.reads, c.reads) || len(failures) > 0 {
			t.Errorf("%s: reads %v, want %v (%v)", c.name, api.reads, c.reads, failures)
		}
		if c.name == "minor upgrade" && (in.Prior.LatestMinorVersion != "rds_20250101" || !slices.Equal(in.Prior.ReleasedMinorVersions, []string{"rds_20250101"})) {
			t.Errorf("minor facts: %+v", in.Prior)
		}
	}
}

// TestPlanInstanceRecordsInTheLedger: an in-place plan of a primary is recorded under its id (not
// its label) for its read-only instances; a replacement is recorded as one.
func TestPlanInstanceRecordsInTheLedger(t *testing.T) {
	env := factsEnv(primaryWithReadOnly())
	prior := &ExistingInstance{ID: "rm-1 (label)", Engine: "MySQL", EngineVersion: "8.0", Storage: 100, Enabled: true, Supported: true}
	PlanInstance(context.Background(), env, InstanceRequest{ID: "rm-1", Input: PlanInput{Prior: prior, Desired: Desired{Storage: Known[int64](100)}}})
	if got := env.Ledger.Primary("rm-1"); !got.Storage.Is(100) || got.AtomicWrite.IsNull() {
		t.Fatalf("recorded %+v", got)
	}
	if env.Ledger.Replaced("rm-1") != nil {
		t.Fatal("an in-place plan recorded as a replacement")
	}
}

func TestStateHoldsParameters(t *testing.T) {
	desired := DesiredParameters{Set: true, Values: map[string]string{"a": "1"}}
	q := ParameterQuery{State: map[string]string{"a": "1"}, StatePending: map[string]string{}, StateKnown: true}
	if !stateHolds(desired, q) {
		t.Error("state holds a")
	}
	q.StatePending = map[string]string{"a": "2"}
	if stateHolds(desired, q) {
		t.Error("a waits for a restart: its running value needs a read")
	}
	q.StatePending, q.StateKnown = map[string]string{}, false
	if stateHolds(desired, q) {
		t.Error("state unknown")
	}
}

func (a *factsAPI) DescribeRegions(context.Context) (*rdsapi.DescribeRegionsResponse, error) {
	a.reads = append(a.reads, "regions")
	out := &rdsapi.DescribeRegionsResponse{}
	out.Regions.RDSRegion = []rdsapi.RDSRegion{{RegionID: "cn-hangzhou", ZoneID: "cn-hangzhou-j"}, {RegionID: "cn-hangzhou", ZoneID: "cn-hangzhou-i"},
		{RegionID: "cn-beijing", ZoneID: "cn-beijing-a"}}
	return out, nil
}

// TestInstanceInputReadsPlacementForAMove: a zone move reads where the instance runs, the
// region's zones and the read-only instances (once); a placement already held reads nothing.
func TestInstanceInputReadsPlacementForAMove(t *testing.T) {
	here := Placement{Zone: "cn-hangzhou-i", VSwitch: "vsw-1"}
	for _, c := range []struct {
		want  Placement
		reads []string
	}{
		{Placement{Zone: "cn-hangzhou-i"}, nil},
		{Placement{Zone: "cn-hangzhou-j"}, []string{"rm-1", "regions", "rm-1", "rr-1", "rr-2", "rr-gone"}},
	} {
		api := primaryWithReadOnly()
		env := factsEnv(api)
		env.Region = "cn-hangzhou"
		in, _ := InstanceInput(context.Background(), env, InstanceRequest{ID: "rm-1", PriorPlacement: here,
			Input: PlanInput{Prior: &ExistingInstance{ID: "rm-1", Storage: 100}, Desired: Desired{Placement: c.want}}})
		if !slices.Equal(api.reads, c.reads) {
			t.Errorf("move to %+v: reads %v, want %v", c.want, api.reads, c.reads)
		}
		if c.reads != nil && (in.Facts.Placement == nil || !slices.Equal(in.Facts.Placement.Zones, []string{"cn-hangzhou-i", "cn-hangzhou-j"}) ||
			len(in.Facts.ReadOnly) != 2) {
			t.Errorf("placement facts %+v, read-only %+v", in.Facts.Placement, in.Facts.ReadOnly)
		}
	}
}
