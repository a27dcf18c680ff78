package simulator

import (
	"net/http/httptest"
	"testing"
	"time"
)

// Test defaults for NewTestServer: short enough for fast tests, long enough that a client sees
// every transitional status.
const (
	TestCreateDuration  = 300 * time.Millisecond
	TestRestartDuration = 300 * time.Millisecond
	TestDeleteDuration  = 200 * time.Millisecond
	TestFlagLag         = 100 * time.Millisecond
	TestAccountDuration = 100 * time.Millisecond
)

// NewTestServer starts a Simulator on a loopback httptest server and closes it when the test
// ends. Zero durations in opts become the Test* defaults above (use New for instant transitions).
func NewTestServer(t testing.TB, opts Options) (*Simulator, *httptest.Server) {
	t.Helper()
	if opts.CreateDuration == 0 {
		opts.CreateDuration = TestCreateDuration
	}
	if opts.RestartDuration == 0 {
		opts.RestartDuration = TestRestartDuration
	}
	if opts.DeleteDuration == 0 {
		opts.DeleteDuration = TestDeleteDuration
	}
	if opts.FlagLag == 0 {
		opts.FlagLag = TestFlagLag
	}
	if opts.AccountDuration == 0 {
		opts.AccountDuration = TestAccountDuration
	}
	sim, err := New(opts)
	if err != nil {
		t.Fatalf("simulator: %v", err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { _ = sim.Close() })
	return sim, srv
}
