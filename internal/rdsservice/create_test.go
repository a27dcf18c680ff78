package rdsservice

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// lostCreates lets the simulator carry out every create and then loses the answer of the first
// n (all when n < 0), recording the ClientToken of every call.
type lostCreates struct {
	rdsapi.API
	mu     sync.Mutex
	n      int
	tokens []string
}

var errAnswerLost = errors.New("connection closed without an answer")

func (l *lostCreates) lose(token string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens = append(l.tokens, token)
	if l.n != 0 {
		l.n--
		return true
	}
	return false
}

func (l *lostCreates) CreateDBInstance(ctx context.Context, req *rdsapi.CreateDBInstanceRequest) (*rdsapi.CreateDBInstanceResponse, error) {
	out, err := l.API.CreateDBInstance(ctx, req)
	if err == nil && l.lose(req.ClientToken) {
		return nil, errAnswerLost
	}
	return out, err
}

func (l *lostCreates) CreateReadOnlyDBInstance(ctx context.Context, req *rdsapi.CreateReadOnlyDBInstanceRequest) (*rdsapi.CreateDBInstanceResponse, error) {
	out, err := l.API.CreateReadOnlyDBInstance(ctx, req)
	if err == nil && l.lose(req.ClientToken) {
		return nil, errAnswerLost
	}
	return out, err
}

func (l *lostCreates) CloneDBInstance(ctx context.Context, req *rdsapi.CloneDBInstanceRequest) (*rdsapi.CreateDBInstanceResponse, error) {
	out, err := l.API.CloneDBInstance(ctx, req)
	if err == nil && l.lose(req.ClientToken) {
		return nil, errAnswerLost
	}
	return out, err
}

func createEnv(t *testing.T) (*matrixEnv, *Waiter) {
	t.Helper()
	e := newMatrixEnvWith(t, simulator.Options{CreateDuration: 100 * time.Millisecond})
	return e, &Waiter{API: e.api, Clock: RealClock{}, MinInterval: 10 * time.Millisecond, MaxInterval: 50 * time.Millisecond}
}

func primaryRequest() *rdsapi.CreateDBInstanceRequest {
	return &rdsapi.CreateDBInstanceRequest{RegionID: simulator.DefaultRegion, Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd",
		SecurityIPList: "127.0.0.1", DBInstanceDescription: "create-test"}
}

func listAll(t *testing.T, api rdsapi.API) []rdsapi.DBInstanceSummary {
	t.Helper()
	items, err := ListAllDBInstances(context.Background(), api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// Lost answers are resent with the same token (more than max_retries times would allow) and the
// first instance comes back: one instance, one token.
func TestCreateResendsWithOneTokenUntilAnswered(t *testing.T) {
	e, w := createEnv(t)
	api := &lostCreates{API: e.api, n: 8}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, err := CreateDBInstance(ctx, api, w, primaryRequest())
	if err != nil {
		t.Fatal(err)
	}
	items := listAll(t, e.api)
	if len(items) != 1 || items[0].DBInstanceID != id {
		t.Fatalf("simulator holds %v, want only %s", items, id)
	}
	if len(api.tokens) != 9 {
		t.Errorf("%d sends, want 9", len(api.tokens))
	}
	for _, tok := range api.tokens {
		if tok == "" || tok != api.tokens[0] {
			t.Fatalf("tokens differ between resends: %v", api.tokens)
		}
	}
}

// No answer ever: at the deadline the instance is found by its token tag and returned with an
// UnknownOutcomeError that says it is recorded (tainted).
func TestCreateUnansweredIsFoundByItsTag(t *testing.T) {
	e, w := createEnv(t)
	// Another instance with the same settings but another token must not be taken for it.
	if _, err := e.api.CreateDBInstance(context.Background(), primaryRequest()); err != nil {
		t.Fatal(err)
	}
	api := &lostCreates{API: e.api, n: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	id, err := CreateDBInstance(ctx, api, w, primaryRequest())
	var unknown *UnknownOutcomeError
	if !errors.As(err, &unknown) || unknown.Found == nil || id == "" || id != unknown.Found.DBInstanceID {
		t.Fatalf("want the found instance, got id %q, err %v", id, err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the cause should be the deadline: %v", err)
	}
	if !strings.Contains(err.Error(), "did create instance "+id) || !strings.Contains(err.Error(), "tainted") {
		t.Errorf("message does not say what exists: %v", err)
	}
	if len(api.tokens) < 2 {
		t.Errorf("sent %d times before the deadline; want resends", len(api.tokens))
	}
	if n := len(listAll(t, e.api)); n != 2 {
		t.Errorf("%d instances, want 2 (no duplicate)", n)
	}
}

// Refused on the first answer: nothing was made, nothing is looked up.
func TestCreateRefusedAtOnceIsReturnedAsIs(t *testing.T) {
	e, w := createEnv(t)
	req := primaryRequest()
	req.DBInstanceClass = "no.such.class"
	e.sim.ResetStats()
	_, err := CreateDBInstance(context.Background(), e.api, w, req)
	var unknown *UnknownOutcomeError
	if err == nil || errors.As(err, &unknown) || rdsapi.ErrorCode(err) == "" {
		t.Fatalf("want the API's refusal, got %v", err)
	}
	if n := e.sim.Stats().Requests["DescribeDBInstances"]; n != 0 {
		t.Errorf("%d lookups after a plain refusal", n)
	}
}

// A create that keeps failing without making anything: the lookup finds nothing and says so.
func TestCreateUnansweredNoneExists(t *testing.T) {
	e, w := createEnv(t)
	e.sim.SetFaults(simulator.Faults{ErrorRate: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	go func() { <-ctx.Done(); e.sim.SetFaults(simulator.Faults{}) }()
	id, err := CreateDBInstance(ctx, e.api, w, primaryRequest())
	var unknown *UnknownOutcomeError
	if id != "" || !errors.As(err, &unknown) || unknown.Found != nil || unknown.LookupErr != nil || len(unknown.Candidates) != 0 {
		t.Fatalf("want a reported absence, got id %q, err %v", id, err)
	}
	if !strings.Contains(err.Error(), "No instance was created by this request") {
		t.Errorf("message: %v", err)
	}
}

func seedPrimary(t *testing.T, sim *simulator.Simulator) string {
	t.Helper()
	id, err := sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func readOnlyRequest(primary string) *rdsapi.CreateReadOnlyDBInstanceRequest {
	return &rdsapi.CreateReadOnlyDBInstanceRequest{RegionID: simulator.DefaultRegion, PrimaryDBInstanceID: primary, EngineVersion: "8.0",
		DBInstanceClass: "mysqlro.n2.medium.1c", DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", DBInstanceDescription: "ro"}
}

// An unanswered read-only create is found among the primary's new read-only instances; one
// that existed before does not count.
func TestReadOnlyCreateUnansweredIsFound(t *testing.T) {
	e, w := createEnv(t)
	primaryID := seedPrimary(t, e.sim)
	ctx := context.Background()
	if _, err := e.api.CreateReadOnlyDBInstance(ctx, readOnlyRequest(primaryID)); err != nil {
		t.Fatal(err)
	}
	primary, err := w.WaitRunning(ctx, primaryID)
	if err != nil {
		t.Fatal(err)
	}
	api := &lostCreates{API: e.api, n: -1}
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	id, err := CreateReadOnlyDBInstance(dctx, api, w, primary, readOnlyRequest(primaryID))
	var unknown *UnknownOutcomeError
	if !errors.As(err, &unknown) || unknown.Found == nil || id == "" || primary.ReadOnlyDBInstanceIDs[0] == id {
		t.Fatalf("want the new read-only instance, got id %q (existing %v), err %v", id, primary.ReadOnlyDBInstanceIDs, err)
	}
}

// Two new read-only instances that both fit: neither is taken, both are named.
func TestReadOnlyCreateUnansweredAmbiguous(t *testing.T) {
	e, w := createEnv(t)
	primaryID := seedPrimary(t, e.sim)
	ctx := context.Background()
	primary, err := w.WaitRunning(ctx, primaryID)
	if err != nil {
		t.Fatal(err)
	}
	sibling, err := e.api.CreateReadOnlyDBInstance(ctx, readOnlyRequest(primaryID)) // a sibling made meanwhile
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WaitRunning(ctx, sibling.DBInstanceID); err != nil {
		t.Fatal(err)
	}
	api := &lostCreates{API: e.api, n: -1}
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	id, err := CreateReadOnlyDBInstance(dctx, api, w, primary, readOnlyRequest(primaryID))
	var unknown *UnknownOutcomeError
	if id != "" || !errors.As(err, &unknown) || len(unknown.Candidates) != 2 {
		t.Fatalf("want two candidates and no id, got id %q, err %v", id, err)
	}
	if !strings.Contains(err.Error(), sibling.DBInstanceID) {
		t.Errorf("message does not name the candidates: %v", err)
	}
}

// An unanswered clone is found among the instances that are new since the first send.
func TestCloneUnansweredIsFound(t *testing.T) {
	e, w := createEnv(t)
	source := seedPrimary(t, e.sim)
	api := &lostCreates{API: e.api, n: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	id, err := CloneDBInstance(ctx, api, w, &rdsapi.CloneDBInstanceRequest{RegionID: simulator.DefaultRegion, SourceDBInstanceID: source,
		RestoreTime: time.Now().UTC().Format("2006-01-02T15:04:05Z"), DBInstanceClass: "mysql.n2.medium.2c"})
	var unknown *UnknownOutcomeError
	if !errors.As(err, &unknown) || unknown.Found == nil || id == "" || id == source {
		t.Fatalf("want the clone, got id %q, err %v", id, err)
	}
}
