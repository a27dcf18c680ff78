package rdsservice

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// fakeClock advances only when someone sleeps on it, and cancels a context when its time passes
// a deadline, so deadline behaviour is tested without real time.
type fakeClock struct {
	mu       sync.Mutex
	now      time.Time
	sleeps   []time.Duration
	deadline time.Time
	cancel   context.CancelCauseFunc
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	now := c.now
	cancel := c.cancel
	expired := !c.deadline.IsZero() && !now.Before(c.deadline)
	c.mu.Unlock()
	if expired && cancel != nil {
		cancel(context.DeadlineExceeded)
	}
	ch := make(chan time.Time, 1)
	ch <- now
	return ch
}

// withDeadline returns a context that ends when the fake clock reaches now+d.
func (c *fakeClock) withDeadline(d time.Duration) context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	c.mu.Lock()
	c.deadline = c.now.Add(d)
	c.cancel = cancel
	c.mu.Unlock()
	return ctx
}

func (c *fakeClock) since(t0 time.Time) time.Duration { return c.Now().Sub(t0) }

// fakeInst is one instance whose status and flag are functions of the fake clock: a carried-out
// modify makes it DBInstanceClassChanging for restart, then Running, with the flag visible lag
// later.
type fakeInst struct {
	attr        rdsapi.DBInstanceAttribute
	busyUntil   time.Time
	flag        bool // visible before flagAt
	target      bool // visible from flagAt
	flagAt      time.Time
	supported   bool
	deleteAt    time.Time
	deleted     bool
	hasFlagInfo bool
}

// modifyOutcome scripts one ModifyDBInstanceSpec call.
type modifyOutcome struct {
	carriedOut bool
	err        error
}

type fakeAPI struct {
	rdsapi.API // unimplemented actions panic: tests would notice

	mu            sync.Mutex
	clock         *fakeClock
	restart, lag  time.Duration
	insts         map[string]*fakeInst
	describeErrs  []error
	describeTimes []time.Time
	modifyScript  []modifyOutcome
	modifyCalls   int
	applied       []rdsapi.ModifyDBInstanceSpecRequest
	restarts      int
	pages         map[string]*rdsapi.DescribeDBInstancesResponse
	listReqs      []rdsapi.DescribeDBInstancesRequest
	// onDescribe, when set, runs (under the lock) before each DescribeDBInstanceAttribute
	// answer: someone else changing the instance at a chosen point.
	onDescribe func(f *fakeAPI, inst *fakeInst, now time.Time)
}

func newFakeAPI(clock *fakeClock) *fakeAPI {
	return &fakeAPI{clock: clock, insts: map[string]*fakeInst{}, restart: 60 * time.Second}
}

func (f *fakeAPI) add(id string, enabled, supported bool) *fakeInst {
	inst := &fakeInst{
		attr: rdsapi.DBInstanceAttribute{
			DBInstanceID: id, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
			DBInstanceStorage: 100, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		},
		flag: enabled, target: enabled, supported: supported, hasFlagInfo: true,
	}
	f.insts[id] = inst
	return inst
}

func apiErr(code string, status int) *rdsapi.Error {
	return &rdsapi.Error{Code: code, HTTPStatus: status, Message: code}
}

var (
	errBusy      = apiErr("OperationDenied.DBInstanceStatus", 400)
	errThrottled = apiErr("Throttling.User", 400)
	errInternal  = apiErr("InternalError", 500)
	errNotFound  = apiErr("InvalidDBInstanceId.NotFound", 404)
	errInvalid   = apiErr("InvalidParameter", 400)
	errLost      = errors.New("read tcp 127.0.0.1:1234: connection reset by peer")
)

func (f *fakeAPI) DescribeDBInstanceAttribute(_ context.Context, id string) (*rdsapi.DBInstanceAttribute, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now()
	f.describeTimes = append(f.describeTimes, now)
	if len(f.describeErrs) > 0 {
		err := f.describeErrs[0]
		f.describeErrs = f.describeErrs[1:]
		return nil, err
	}
	inst, ok := f.insts[id]
	if !ok || inst.deleted || (!inst.deleteAt.IsZero() && !now.Before(inst.deleteAt)) {
		return nil, errNotFound
	}
	if f.onDescribe != nil {
		f.onDescribe(f, inst, now)
	}
	attr := inst.attr
	attr.DBInstanceStatus = rdsapi.StatusRunning
	if now.Before(inst.busyUntil) {
		attr.DBInstanceStatus = rdsapi.StatusClassChanging
	}
	if !inst.deleteAt.IsZero() {
		attr.DBInstanceStatus = rdsapi.StatusDeleting
	}
	if inst.hasFlagInfo {
		flag := inst.flag
		if !now.Before(inst.flagAt) {
			flag = inst.target
		}
		attr.OptimizedWrites = &rdsapi.OptimizedWritesInfo{Enabled: flag, Supported: inst.supported}
	}
	return &attr, nil
}

func (f *fakeAPI) ModifyDBInstanceSpec(_ context.Context, req *rdsapi.ModifyDBInstanceSpecRequest) (*rdsapi.ModifyDBInstanceSpecResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.modifyCalls++
	now := f.clock.Now()
	inst := f.insts[req.DBInstanceID]
	outcome := modifyOutcome{carriedOut: true}
	if len(f.modifyScript) > 0 {
		outcome = f.modifyScript[0]
		f.modifyScript = f.modifyScript[1:]
	}
	if outcome.carriedOut {
		if now.Before(inst.busyUntil) {
			return nil, errBusy
		}
		f.applied = append(f.applied, *req)
		f.restarts++
		if !now.Before(inst.flagAt) {
			inst.flag = inst.target
		}
		if req.OptimizedWrites != "" {
			inst.target = req.OptimizedWrites == rdsapi.OptimizedWritesOn
		}
		inst.busyUntil = now.Add(f.restart)
		inst.flagAt = inst.busyUntil.Add(f.lag)
		if req.DBInstanceClass != "" {
			inst.attr.DBInstanceClass = req.DBInstanceClass
		}
		if req.DBInstanceStorage != 0 {
			inst.attr.DBInstanceStorage = rdsapi.FlexInt(req.DBInstanceStorage)
		}
		if req.DBInstanceStorageType != "" {
			inst.attr.DBInstanceStorageType = req.DBInstanceStorageType
		}
	}
	if outcome.err != nil {
		return nil, outcome.err
	}
	return &rdsapi.ModifyDBInstanceSpecResponse{DBInstanceID: req.DBInstanceID}, nil
}

func (f *fakeAPI) DescribeDBInstances(_ context.Context, req *rdsapi.DescribeDBInstancesRequest) (*rdsapi.DescribeDBInstancesResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listReqs = append(f.listReqs, *req)
	page, ok := f.pages[req.NextToken]
	if !ok {
		return nil, apiErr("InvalidParameter", 400)
	}
	return page, nil
}
