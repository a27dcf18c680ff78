package rdsapi

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// TestRetryClassification: which answers are retried, for a replay-safe action (DeleteDBInstance)
// and for ModifyDBInstanceSpec, which has no ClientToken and so resends only what surely did not run.
func TestRetryClassification(t *testing.T) {
	const maxRetries = 2
	tests := []struct {
		name           string
		answer         answer
		retried        bool // for replay-safe actions
		retriedAsSpec  bool // for ModifyDBInstanceSpec
		wantCode       string
		wantPlainError bool
	}{
		{"Throttling", fail(400, "Throttling"), true, true, "Throttling", false},
		{"Throttling.User", fail(400, "Throttling.User"), true, true, "Throttling.User", false},
		{"Throttling.Api", fail(400, "Throttling.Api"), true, true, "Throttling.Api", false},
		{"Rejected.Throttling", fail(400, "Rejected.Throttling"), true, true, "Rejected.Throttling", false},
		{"unlisted throttling code", fail(400, "Throttling.Concurrency"), true, true, "Throttling.Concurrency", false},
		{"ServiceUnavailable", fail(503, "ServiceUnavailable"), true, false, "ServiceUnavailable", false},
		{"InternalError", fail(500, "InternalError"), true, false, "InternalError", false},
		{"InvokeProxyFailure", fail(500, "InvokeProxyFailure"), true, false, "InvokeProxyFailure", false},
		{"unlisted code on a 5xx", fail(502, "SomethingBroke"), true, false, "SomethingBroke", false},
		{"HTML 502 from a proxy", rawAnswer(502, "<html>Bad Gateway</html>"), true, false, "", true},
		{"429 without a body", rawAnswer(429, ""), true, true, "", true},
		{"busy is the service layer's job", fail(400, "OperationDenied.DBInstanceStatus"), false, false, "OperationDenied.DBInstanceStatus", false},
		{"IncorrectDBInstanceState", fail(400, "IncorrectDBInstanceState"), false, false, "IncorrectDBInstanceState", false},
		{"LockTimeout on a 403", fail(403, "LockTimeout"), false, false, "LockTimeout", false},
		{"not found", fail(404, "InvalidDBInstanceId.NotFound"), false, false, "InvalidDBInstanceId.NotFound", false},
		{"bad signature", fail(400, "SignatureDoesNotMatch"), false, false, "SignatureDoesNotMatch", false},
		{"unknown key", fail(404, "InvalidAccessKeyId.NotFound"), false, false, "InvalidAccessKeyId.NotFound", false},
		{"nonce reused", fail(400, "SignatureNonceUsed"), false, false, "SignatureNonceUsed", false},
		{"client error", fail(400, "InvalidParameter"), false, false, "InvalidParameter", false},
		{"501", fail(501, "NotImplemented"), false, false, "NotImplemented", false},
		{"HTML 400", rawAnswer(400, "<html>Bad Request</html>"), false, false, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, spec := range []bool{false, true} {
				cloud, server := newFakeCloud(t, answers(tt.answer))
				c := newTestClient(t, server, maxRetries)
				var err error
				wantRetried := tt.retried
				if spec {
					wantRetried = tt.retriedAsSpec
					_, err = c.ModifyDBInstanceSpec(context.Background(), &ModifyDBInstanceSpecRequest{DBInstanceID: "rm-1", DBInstanceStorage: 20})
				} else {
					err = c.DeleteDBInstance(context.Background(), "rm-1")
				}
				wantAttempts := 1
				if wantRetried {
					wantAttempts = maxRetries + 1
				}
				if got := len(cloud.requests()); got != wantAttempts {
					t.Errorf("spec=%v: %d attempts, want %d", spec, got, wantAttempts)
				}
				if got := ErrorCode(err); got != tt.wantCode {
					t.Errorf("spec=%v: error code %q, want %q (err %v)", spec, got, tt.wantCode, err)
				}
				if tt.wantPlainError && (err == nil || errors.As(err, new(*Error))) {
					t.Errorf("spec=%v: want a plain error, got %v", spec, err)
				}
			}
		})
	}
}

func TestRetriesUntilSuccess(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(fail(400, "Throttling.User"), fail(503, "ServiceUnavailable"), success(attributeJSON("rm-1", ""))))
	attr, err := newTestClient(t, server, 3).DescribeDBInstanceAttribute(context.Background(), "rm-1")
	if err != nil {
		t.Fatal(err)
	}
	if attr.DBInstanceID != "rm-1" || len(cloud.requests()) != 3 {
		t.Errorf("got %+v after %d attempts", attr, len(cloud.requests()))
	}
}

// TestEveryAttemptIsSignedAfresh: the cloud rejects a reused nonce, and a stale date after a long
// backoff, so each retry carries its own nonce, date and signature (each verified by the fake).
func TestEveryAttemptIsSignedAfresh(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(fail(400, "Throttling"), fail(500, "InternalError"), success(`{"RequestId":"r"}`)))
	c := newTestClient(t, server, 3)
	var mu sync.Mutex
	clock := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	if err := c.RestartDBInstance(context.Background(), "rm-1"); err != nil {
		t.Fatal(err)
	}
	seen := cloud.requests()
	if len(seen) != 3 {
		t.Fatalf("%d attempts, want 3", len(seen))
	}
	nonces, dates, signatures, tokens := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range seen {
		nonces[r.Header.Get("x-acs-signature-nonce")] = true
		dates[r.Header.Get("x-acs-date")] = true
		signatures[r.Header.Get("Authorization")] = true
		tokens[r.Query.Get("ClientToken")] = true
	}
	if len(nonces) != 3 || len(dates) != 3 || len(signatures) != 3 {
		t.Errorf("per attempt: %d nonces, %d dates, %d signatures; want 3 of each", len(nonces), len(dates), len(signatures))
	}
	if len(tokens) != 1 {
		t.Errorf("the ClientToken changed across retries: %v", tokens)
	}
	if seen[0].Header.Get("x-acs-date") != "2025-06-01T12:00:01Z" {
		t.Errorf("first date %s", seen[0].Header.Get("x-acs-date"))
	}
}

// TestCreatesKeepOneClientTokenAcrossRetries covers throttling, transient errors and a response
// lost after the create ran: every attempt of one call carries the same token, so the cloud
// creates at most one instance; separate calls get separate tokens.
func TestCreatesKeepOneClientTokenAcrossRetries(t *testing.T) {
	script := answers(dropConnection(), fail(400, "Throttling"), fail(500, "InternalError"),
		success(`{"RequestId":"r","DBInstanceId":"rm-1"}`))
	creates := map[string]func(c *Client, token string) error{
		"CreateDBInstance": func(c *Client, token string) error {
			_, err := c.CreateDBInstance(context.Background(), &CreateDBInstanceRequest{Engine: "MySQL", ClientToken: token})
			return err
		},
		"CreateReadOnlyDBInstance": func(c *Client, token string) error {
			_, err := c.CreateReadOnlyDBInstance(context.Background(), &CreateReadOnlyDBInstanceRequest{PrimaryDBInstanceID: "rm-1", ClientToken: token})
			return err
		},
		"CloneDBInstance": func(c *Client, token string) error {
			_, err := c.CloneDBInstance(context.Background(), &CloneDBInstanceRequest{SourceDBInstanceID: "rm-1", ClientToken: token})
			return err
		},
	}
	for action, create := range creates {
		t.Run(action, func(t *testing.T) {
			var tokensPerCall []string
			for _, given := range []string{"", "", "caller-token-1"} {
				cloud, server := newFakeCloud(t, script)
				if err := create(newTestClient(t, server, 5), given); err != nil {
					t.Fatal(err)
				}
				seen := cloud.requests()
				if len(seen) != 4 {
					t.Fatalf("%d attempts, want 4", len(seen))
				}
				token := seen[0].Query.Get("ClientToken")
				for i, r := range seen {
					if r.Query.Get("ClientToken") != token {
						t.Errorf("attempt %d token %q, first %q", i, r.Query.Get("ClientToken"), token)
					}
				}
				if given != "" && token != given {
					t.Errorf("caller's token %q replaced by %q", given, token)
				}
				tokensPerCall = append(tokensPerCall, token)
			}
			if tokensPerCall[0] == "" || tokensPerCall[0] == tokensPerCall[1] {
				t.Errorf("two calls share token %q", tokensPerCall[0])
			}
		})
	}
}

// TestLostResponse: a read is resent after the connection dies mid-call; ModifyDBInstanceSpec is
// not (it has no ClientToken and may have run), and the caller gets a plain transport error.
func TestLostResponse(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(dropConnection(), success(attributeJSON("rm-1", ""))))
	if _, err := newTestClient(t, server, 3).DescribeDBInstanceAttribute(context.Background(), "rm-1"); err != nil {
		t.Fatal(err)
	}
	if n := len(cloud.requests()); n != 2 {
		t.Errorf("describe: %d attempts, want 2", n)
	}

	cloud, server = newFakeCloud(t, answers(dropConnection(), success(`{"RequestId":"r"}`)))
	_, err := newTestClient(t, server, 3).ModifyDBInstanceSpec(context.Background(), &ModifyDBInstanceSpecRequest{DBInstanceID: "rm-1", DBInstanceStorage: 20, OptimizedWrites: OptimizedWritesOn})
	if err == nil || errors.As(err, new(*Error)) {
		t.Fatalf("want a transport error, got %v", err)
	}
	mustContain(t, err.Error(), "RDS ModifyDBInstanceSpec", "closed without an answer (1 attempt(s))")
	if n := len(cloud.requests()); n != 1 {
		t.Errorf("spec change sent %d times after a lost response, want 1", n)
	}
}

// TestRefusedConnectionIsRetriedForEveryAction: a request that never left cannot have run.
func TestRefusedConnectionIsRetriedForEveryAction(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := listener.Addr().String()
	listener.Close()
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: "http://" + addr, Credentials: staticCredentials(t), MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	c.retryWaitMin, c.retryWaitMax = time.Millisecond, 2*time.Millisecond
	_, err = c.ModifyDBInstanceSpec(context.Background(), &ModifyDBInstanceSpecRequest{DBInstanceID: "rm-1", DBInstanceStorage: 20})
	if err == nil {
		t.Fatal("no error")
	}
	mustContain(t, err.Error(), "connection refused: nothing listens", "(3 attempt(s))")
}

func TestContextStopsRetries(t *testing.T) {
	t.Run("cancelled between attempts", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cloud, server := newFakeCloud(t, answers(fail(400, "Throttling")))
		cloud.onServe = func(n int) {
			if n == 1 {
				cancel()
			}
		}
		err := newTestClient(t, server, 10).DeleteDBInstance(ctx, "rm-1")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if n := len(cloud.requests()); n != 2 {
			t.Errorf("%d attempts, want 2", n)
		}
	})
	t.Run("deadline during a long backoff", func(t *testing.T) {
		cloud, server := newFakeCloud(t, answers(fail(400, "Throttling")))
		c := newTestClient(t, server, 10)
		c.retryWaitMin, c.retryWaitMax = time.Minute, time.Minute
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := c.DeleteDBInstance(ctx, "rm-1")
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Errorf("returned after %v, long past the deadline", elapsed)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		mustContain(t, err.Error(), "after 1 attempt(s)", "last attempt", "Throttling")
		if n := len(cloud.requests()); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})
}

func TestBackoffGrowsWithJitterAndStaysCapped(t *testing.T) {
	lo, hi := 100*time.Millisecond, 2*time.Second
	for attempt := range 40 {
		ceiling := hi
		if attempt < 5 {
			ceiling = lo << attempt
		}
		for range 50 {
			wait := exponentialJitter(lo, hi, attempt, nil)
			if wait < ceiling/2 || wait > ceiling {
				t.Fatalf("attempt %d: wait %v outside [%v, %v]", attempt, wait, ceiling/2, ceiling)
			}
		}
	}
}

// TestNoSecretsInErrorsOrLogs runs failing calls with STS credentials at TF_LOG=TRACE and checks
// that neither the returned errors nor the log mention the secret, the token or the signature.
func TestNoSecretsInErrorsOrLogs(t *testing.T) {
	var logs bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &logs)
	cloud, server := newFakeCloud(t, answers(fail(400, "Throttling"), dropConnection(), rawAnswer(502, "<html>oops</html>"), fail(400, "SignatureDoesNotMatch")))
	cloud.secrets = map[string]string{"sts-id-1": "sts-secret-1", "sts-id-2": "sts-secret-2", "sts-id-3": "sts-secret-3", "sts-id-4": "sts-secret-4"}
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: server.URL, Credentials: &rotatingCredentials{}, MaxRetries: 5})
	if err != nil {
		t.Fatal(err)
	}
	c.retryWaitMin, c.retryWaitMax = time.Millisecond, 2*time.Millisecond
	err = c.DeleteDBInstance(ctx, "rm-1")
	if ErrorCode(err) != "SignatureDoesNotMatch" {
		t.Fatalf("err = %v", err)
	}
	for _, secret := range []string{"sts-secret", "sts-token", "Signature=", "ACS3-HMAC"} {
		if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) {
			t.Errorf("%q leaked into the error or the log", secret)
		}
	}
	mustContain(t, logs.String(), "RDS API attempt failed", "Throttling", "DeleteDBInstance")
	if strings.Count(logs.String(), `"@level":"warn"`)+strings.Count(logs.String(), `"@level":"error"`) != 0 {
		t.Error("retries must not log above debug")
	}
}
