package rdsservice

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// paramGroupAPI answers DescribeParameterGroup only, counting the calls.
type paramGroupAPI struct {
	rdsapi.API
	values map[string]string
	err    error
	calls  int
}

func (a *paramGroupAPI) DescribeParameterGroup(_ context.Context, id string) (*rdsapi.ParameterGroup, error) {
	a.calls++
	if a.err != nil {
		return nil, a.err
	}
	return &rdsapi.ParameterGroup{ID: id, Parameters: a.values}, nil
}

// One read of the group serves both instance kinds: none, not known yet, this run's plan of the
// group (no call), the cloud's, and a failure on parameter_group_id.
func TestReadGroupServesBothKinds(t *testing.T) {
	ctx := context.Background()
	api := &paramGroupAPI{values: map[string]string{"a": "1"}}
	var ledger Ledger
	env := Env{API: api, Ledger: &ledger}
	if g, f := readGroup(ctx, env, GroupQuery{ID: Null[string]()}); g != nil || f != nil {
		t.Fatalf("no group: %+v %+v", g, f)
	}
	if g, f := readGroup(ctx, env, GroupQuery{ID: Known("")}); g != nil || f != nil {
		t.Fatalf("empty group: %+v %+v", g, f)
	}
	if g, f := readGroup(ctx, env, GroupQuery{ID: Unknown[string](), PriorID: "pg-0"}); g == nil || g.Values != nil || g.PriorID != "pg-0" || f != nil || api.calls != 0 {
		t.Fatalf("unknown group: %+v %+v, %d calls", g, f, api.calls)
	}
	ledger.RecordGroup("pg-1", map[string]string{"b": "2"})
	if g, _ := readGroup(ctx, env, GroupQuery{ID: Known("pg-1")}); !maps.Equal(g.Values, map[string]string{"b": "2"}) || api.calls != 0 {
		t.Fatalf("planned group: %+v, %d calls", g, api.calls)
	}
	if g, _ := readGroup(ctx, env, GroupQuery{ID: Known("pg-2")}); !maps.Equal(g.Values, api.values) || api.calls != 1 {
		t.Fatalf("read group: %+v, %d calls", g, api.calls)
	}
	api.err = errors.New("boom")
	g, f := readGroup(ctx, env, GroupQuery{ID: Known("pg-2")})
	if f == nil || f.Attribute != "parameter_group_id" || f.Detail != "DescribeParameterGroup pg-2: boom. Check parameter_group_id." || g == nil || g.Values != nil {
		t.Fatalf("failed read: %+v %+v", g, f)
	}
	if facts := groupFacts(*f, g.ID); facts.ErrorCall != "DescribeParameterGroup pg-2" || facts.Error != f.Detail {
		t.Fatalf("read-only facts: %+v", facts)
	}
}

// A primary's failed group read is a read failure of its plan, and the plan goes on without it.
func TestInstanceInputReportsGroupReadFailure(t *testing.T) {
	api := &paramGroupAPI{err: errors.New("boom")}
	var ledger Ledger
	env := Env{API: api, Ledger: &ledger, Now: newFakeClock().Now}
	in, failures := InstanceInput(context.Background(), env, InstanceRequest{Group: GroupQuery{ID: Known("pg-9")}})
	if len(failures) != 1 || failures[0].Attribute != "parameter_group_id" || in.Desired.Parameters.Group != nil {
		t.Fatalf("failures %+v, group %+v", failures, in.Desired.Parameters.Group)
	}
}

// The plan's clock is the cloud's as the reads' answers set it: an apply's provider that has not
// heard from the cloud yet reads the group first (its clock was the local one, days behind the
// cloud's in the oracle, and the window's restart was planned for the wrong day).
func TestInstanceInputTakesTheClockAfterTheReads(t *testing.T) {
	local, cloud := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC), time.Date(2026, 12, 14, 10, 0, 0, 0, time.UTC)
	api := &paramGroupAPI{values: map[string]string{"a": "1"}}
	env := Env{API: api, Ledger: &Ledger{}, Now: func() time.Time {
		if api.calls > 0 {
			return cloud
		}
		return local
	}}
	in, _ := InstanceInput(context.Background(), env, InstanceRequest{Group: GroupQuery{ID: Known("pg-1")}})
	if !in.Facts.Now.Equal(cloud) || api.calls != 1 {
		t.Fatalf("Now %v after %d calls, want the cloud's %v", in.Facts.Now, api.calls, cloud)
	}
	api.calls = 0
	ro := ReadOnlyInput(context.Background(), env, InstanceRequest{Group: GroupQuery{ID: Known("pg-1")}}, nil)
	if !ro.Facts.Now.Equal(cloud) {
		t.Fatalf("read-only Now %v, want the cloud's %v", ro.Facts.Now, cloud)
	}
}
