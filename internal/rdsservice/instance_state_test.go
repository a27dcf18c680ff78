package rdsservice

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// stateAPI answers DescribeDBInstanceAttribute from a script of states, the last one repeated.
type stateAPI struct {
	rdsapi.API
	states []rdsapi.DBInstanceAttribute
	reads  int
}

func (s *stateAPI) DescribeDBInstanceAttribute(_ context.Context, id string) (*rdsapi.DBInstanceAttribute, error) {
	a := s.states[min(s.reads, len(s.states)-1)]
	s.reads++
	a.DBInstanceID = id
	return &a, nil
}

func stateOf(status, lock string) rdsapi.DBInstanceAttribute {
	return rdsapi.DBInstanceAttribute{DBInstanceStatus: status, LockMode: lock, Engine: "MySQL",
		OptimizedWrites: &rdsapi.OptimizedWritesInfo{Enabled: false, Supported: true}}
}

// A wait on an instance that is Stopped, Deleting, or Running while locked ends at the first read
// with an error naming the instance, its state and the fix, instead of polling to the deadline.
func TestWaitsFailFastOnStatesThatDoNotEndByThemselves(t *testing.T) {
	cases := []struct {
		name   string
		states []rdsapi.DBInstanceAttribute
		wait   func(w *Waiter, ctx context.Context) error
		reads  int
		want   []string
	}{
		{"stopped", []rdsapi.DBInstanceAttribute{stateOf(StatusStopped, "")},
			func(w *Waiter, ctx context.Context) error { _, err := w.WaitRunning(ctx, "rm-s"); return err },
			1, []string{"rm-s is Stopped", "Start it"}},
		{"deleting", []rdsapi.DBInstanceAttribute{stateOf(StatusDeleting, "")},
			func(w *Waiter, ctx context.Context) error { _, err := w.WaitRunning(ctx, "rm-s"); return err },
			1, []string{"rm-s is being deleted", "terraform state rm"}},
		{"locked, flag never comes", []rdsapi.DBInstanceAttribute{stateOf(rdsapi.StatusRunning, "LockByExpiration")},
			func(w *Waiter, ctx context.Context) error {
				_, err := w.WaitRunningWithFlag(ctx, "rm-s", true)
				return err
			},
			1, []string{"rm-s is locked", "lock_mode LockByExpiration", "Renew"}},
		{"a restart that ends in Stopped", []rdsapi.DBInstanceAttribute{stateOf("Restarting", ""), stateOf("Restarting", ""), stateOf(StatusStopped, "")},
			func(w *Waiter, ctx context.Context) error { _, err := w.WaitRunning(ctx, "rm-s"); return err },
			3, []string{"rm-s is Stopped"}},
		{"a locked instance in a transition keeps being polled", []rdsapi.DBInstanceAttribute{stateOf("DBInstanceClassChanging", "ManualLock"),
			stateOf("DBInstanceClassChanging", "ManualLock"), stateOf(rdsapi.StatusRunning, "ManualLock")},
			func(w *Waiter, ctx context.Context) error {
				_, err := w.WaitRunningWithFlag(ctx, "rm-s", true)
				return err
			},
			3, []string{"rm-s is locked", "locked by hand"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := newFakeClock()
			api := &stateAPI{states: c.states}
			ctx := clock.withDeadline(30 * time.Minute)
			err := c.wait(newWaiter(api, clock), ctx)
			var stuck *InstanceStateError
			if !errors.As(err, &stuck) || stuck.InstanceID != "rm-s" {
				t.Fatalf("err = %v, want an InstanceStateError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if api.reads != c.reads || ctx.Err() != nil {
				t.Errorf("%d reads (want %d), context %v: the wait went on", api.reads, c.reads, ctx.Err())
			}
		})
	}
	// What a locked or stopped instance already is, a wait accepts.
	clock := newFakeClock()
	locked := &stateAPI{states: []rdsapi.DBInstanceAttribute{stateOf(rdsapi.StatusRunning, "ManualLock")}}
	if _, err := newWaiter(locked, clock).WaitRunning(context.Background(), "rm-l"); err != nil {
		t.Fatalf("a locked Running instance is Running: %v", err)
	}
	full := &stateAPI{states: []rdsapi.DBInstanceAttribute{stateOf(rdsapi.StatusRunning, "LockByDiskQuota"), stateOf(rdsapi.StatusRunning, "LockByDiskQuota"),
		func() rdsapi.DBInstanceAttribute {
			a := stateOf(rdsapi.StatusRunning, "LockByDiskQuota")
			a.DBInstanceStorage = 40
			return a
		}()}}
	if _, err := newWaiter(full, clock).WaitFor(context.Background(), "rm-f", "grown", func(a *rdsapi.DBInstanceAttribute) bool {
		return a.DBInstanceStorage == 40
	}); err != nil || full.reads != 3 {
		t.Fatalf("storage growth under a disk-quota lock is waited for: %v after %d reads", err, full.reads)
	}
	deleting := &stateAPI{states: []rdsapi.DBInstanceAttribute{stateOf(StatusDeleting, "")}}
	if err := newWaiter(deleting, clock).WaitDeleted(clock.withDeadline(time.Second), "rm-d"); err == nil || errors.As(err, new(*InstanceStateError)) {
		t.Fatalf("waiting for a Deleting instance to go must not be refused as stuck: %v", err)
	}
}

// A write refused as busy is retried while the instance is in a transition, and given up at once
// when it is Stopped or Deleting.
func TestRetryBusyGivesUpOnStoppedAndDeleting(t *testing.T) {
	for _, status := range []string{StatusStopped, StatusDeleting} {
		clock := newFakeClock()
		api := &stateAPI{states: []rdsapi.DBInstanceAttribute{stateOf("Restarting", ""), stateOf(status, "")}}
		calls := 0
		err := newWaiter(api, clock).RetryBusy(clock.withDeadline(30*time.Minute), func() error {
			calls++
			return &rdsapi.Error{Code: "OperationDenied.DBInstanceStatus", HTTPStatus: 400, InstanceID: "rm-b"}
		})
		var stuck *InstanceStateError
		if !errors.As(err, &stuck) || stuck.Status != status {
			t.Fatalf("%s: err = %v", status, err)
		}
		if calls != 2 || len(clock.sleeps) != 1 {
			t.Errorf("%s: %d calls, %d sleeps: want one retry while Restarting, then give up", status, calls, len(clock.sleeps))
		}
	}
	// A busy answer that names no instance is retried to the deadline, as before.
	clock := newFakeClock()
	api := &stateAPI{states: []rdsapi.DBInstanceAttribute{stateOf(StatusStopped, "")}}
	err := newWaiter(api, clock).RetryBusy(clock.withDeadline(time.Minute), func() error { return errBusy })
	if errors.As(err, new(*InstanceStateError)) || api.reads != 0 {
		t.Fatalf("err = %v after %d reads", err, api.reads)
	}
}

// The plan names an instance that takes no change: Deleting refuses a change and warns otherwise,
// Stopped warns when something changes, a lock warns unless the plan only grows storage under a
// disk-quota lock (the way out of it).
func TestPlanInstanceStates(t *testing.T) {
	prior := func(status, lock string) *ExistingInstance {
		return &ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_essd", Category: "HighAvailability",
			InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: status, LockMode: lock}
	}
	same := Desired{Engine: Known("MySQL"), EngineVersion: Known("8.0"), StorageType: Known("cloud_essd"), Category: Known("HighAvailability"),
		InstanceClass: Known("mysql.n2.medium.2c"), Storage: Known(int64(100))}
	classChange := same
	classChange.InstanceClass = Known("mysql.n2.large.2c")
	grow := same
	grow.Storage = Known(int64(200))
	rename := same
	rename.InPlaceChanges = true

	cases := []struct {
		name          string
		prior         *ExistingInstance
		desired       Desired
		rules         []RuleID
		errors        int
		restartNamed  bool
		statusPlanned string
	}{
		{"stopped, class change", prior(StatusStopped, ""), classChange, []RuleID{RuleInstanceStopped, RuleRestart}, 0, true, ""},
		{"stopped, rename", prior(StatusStopped, ""), rename, []RuleID{RuleInstanceStopped}, 0, false, ""},
		{"stopped, nothing sent", prior(StatusStopped, ""), same, nil, 0, false, StatusStopped},
		{"deleting, class change", prior(StatusDeleting, ""), classChange, []RuleID{RuleInstanceDeleting}, 1, false, ""},
		{"deleting, rename", prior(StatusDeleting, ""), rename, []RuleID{RuleInstanceDeleting}, 1, false, ""},
		{"deleting, nothing sent", prior(StatusDeleting, ""), same, []RuleID{RuleInstanceDeletingNoChange}, 0, false, StatusDeleting},
		{"expired, class change", prior(StatusRunning, "LockByExpiration"), classChange, []RuleID{RuleInstanceLocked, RuleRestart}, 0, true, StatusRunning},
		{"expired, nothing sent", prior(StatusRunning, "LockByExpiration"), same, []RuleID{RuleInstanceLocked}, 0, false, StatusRunning},
		{"disk full, storage grows", prior(StatusRunning, "LockByDiskQuota"), grow, nil, 0, false, StatusRunning},
		{"disk full, class change", prior(StatusRunning, "LockByDiskQuota"), classChange, []RuleID{RuleInstanceLocked, RuleRestart}, 0, true, StatusRunning},
		{"unlocked, running", prior(StatusRunning, "Unlock"), rename, nil, 0, false, StatusRunning},
	}
	for _, c := range cases {
		d := Plan(PlanInput{Label: "rm-1", Prior: c.prior, Desired: c.desired})
		var got []RuleID
		for _, p := range d.Problems {
			got = append(got, p.Rule)
		}
		if strings.Join(ruleNames(got), ",") != strings.Join(ruleNames(c.rules), ",") || len(d.Errors()) != c.errors {
			t.Errorf("%s: problems %v (%d errors), want %v (%d errors)", c.name, got, len(d.Errors()), c.rules, c.errors)
		}
		if (len(d.Restarts) > 0 && !d.HasErrors()) != c.restartNamed {
			t.Errorf("%s: restarts %v", c.name, d.Restarts)
		}
		if c.statusPlanned != "" && !d.Status.Is(c.statusPlanned) {
			t.Errorf("%s: planned status %+v, want %s", c.name, d.Status, c.statusPlanned)
		}
		for _, p := range d.Problems {
			if p.Rule != RuleRestart && !strings.Contains(p.Summary+p.Detail, "rm-1") {
				t.Errorf("%s: %q does not name the instance", c.name, p.Detail)
			}
		}
	}
	// A new read-only instance of a primary that takes no change: CreateReadOnlyDBInstance is refused.
	for status, want := range map[string]RuleID{StatusDeleting: RuleInstanceDeleting, StatusStopped: RuleInstanceStopped} {
		primary := prior(status, "")
		d := Plan(PlanInput{Role: RoleReadOnly, Label: "the new read-only instance", Facts: Facts{Primary: primary},
			Desired: Desired{InstanceClass: Known("mysqlro.n2.medium.1c"), Storage: Known(int64(100))}})
		if len(d.Problems) == 0 || d.Problems[0].Rule != want || !strings.Contains(d.Problems[0].Detail, "rm-1") {
			t.Errorf("read-only instance of a %s primary: %+v", status, d.Problems)
		}
	}
	// The message names the lock, its reason and the way out.
	p := StateProblems("rm-9", StatusRunning, "LockByDiskQuota", "disk_full", false, false)
	if len(p) != 1 || !strings.Contains(p[0].Detail, "lock_mode LockByDiskQuota, reason disk_full") || !strings.Contains(p[0].Detail, "grow storage") {
		t.Fatalf("disk-quota lock: %+v", p)
	}
}

func ruleNames(ids []RuleID) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, string(id))
	}
	return out
}
