package rdsapi

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// An endpoint that accepts the connection and never answers: the response-header timeout ends
// each attempt and the per-call budget ends the call, with an error naming the endpoint.
func TestHangingEndpointHitsTheCallBudget(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(held)
				return
			}
			held <- c // kept open, never answered
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for c := range held {
			c.Close()
		}
	})
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: "http://" + ln.Addr().String(), Credentials: staticCredentials(t),
		MaxRetries: 5, ResponseHeaderTimeout: 100 * time.Millisecond, CallTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c.retryWaitMin, c.retryWaitMax = time.Millisecond, 2*time.Millisecond
	_, err = c.DescribeDBInstanceAttribute(context.Background(), "rm-1")
	if !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("want ErrNoAnswer, got %v", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the per-call budget must not look like the caller's deadline: %v", err)
	}
	mustContain(t, err.Error(), "http://"+ln.Addr().String(), "(500ms)", "accepted the connection and the request but sent no answer")
}

// The caller's deadline, not the per-call budget, is reported as such.
func TestCallerDeadlineIsReportedAsDeadline(t *testing.T) {
	_, server := newFakeCloud(t, answers(fail(503, "ServiceUnavailable")))
	c := newTestClient(t, server, 1000)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := c.DescribeDBInstanceAttribute(ctx, "rm-1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the caller's deadline, got %v", err)
	}
	mustContain(t, err.Error(), "ServiceUnavailable", server.URL)
}

// Errors no retry cures carry their cause and fix, and are sent once.
func TestAuthAndClockErrorsNameTheFixAndAreNotRetried(t *testing.T) {
	for code, fix := range map[string]string{
		"InvalidSecurityToken.Expired": "Get new temporary credentials",
		"InvalidTimeStamp.Expired":     "Synchronise the clock",
		"InvalidAccessKeyId.NotFound":  "deleted or revoked",
		"SignatureDoesNotMatch":        "secret_key",
	} {
		cloud, server := newFakeCloud(t, answers(fail(400, code)))
		_, err := newTestClient(t, server, 5).DescribeDBInstanceAttribute(context.Background(), "rm-1")
		if err == nil {
			t.Fatalf("%s: no error", code)
		}
		mustContain(t, err.Error(), code, fix, "not retried")
		if n := len(cloud.requests()); n != 1 {
			t.Errorf("%s: sent %d times, want 1", code, n)
		}
	}
}

// Every retry is logged at INFO, naming the action, the endpoint and the reason.
func TestRetriesAreLoggedAtInfo(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	_, server := newFakeCloud(t, answers(fail(400, "Throttling.User"), success(`{"RequestId":"r","Items":{"DBInstanceAttribute":[{"DBInstanceId":"rm-1"}]}}`)))
	if _, err := newTestClient(t, server, 3).DescribeDBInstanceAttribute(ctx, "rm-1"); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range entries {
		if e["@level"] == "info" && strings.Contains(e["@message"].(string), "retrying") {
			found = e["action"] == "DescribeDBInstanceAttribute" && e["reason"] == "Throttling.User" && strings.HasPrefix(e["endpoint"].(string), server.URL)
		}
	}
	if !found {
		t.Errorf("no INFO entry for the retry in %v", entries)
	}
}

func TestDescribeRegionsAndTags(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(success(`{"RequestId":"r","Regions":{"RDSRegion":[`+
		`{"RegionId":"cn-hangzhou","ZoneId":"cn-hangzhou-h"},{"RegionId":"cn-hangzhou","ZoneId":"cn-hangzhou-i"},{"RegionId":"ap-southeast-1","ZoneId":"ap-southeast-1a"}]}}`),
		success(`{"RequestId":"r","DBInstanceId":"rm-1"}`), success(`{"RequestId":"r","Items":{"DBInstance":[]}}`)))
	c := newTestClient(t, server, 0)
	out, err := c.DescribeRegions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out.RegionIDs(), ","); got != "ap-southeast-1,cn-hangzhou" {
		t.Errorf("regions %s", got)
	}
	if _, err := c.CreateDBInstance(context.Background(), &CreateDBInstanceRequest{Engine: "MySQL", EngineVersion: "8.0", DBInstanceStorage: 20,
		Tags: []Tag{{Key: "k", Value: "v"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeDBInstances(context.Background(), &DescribeDBInstancesRequest{Tags: []Tag{{Key: "k", Value: "v"}}}); err != nil {
		t.Fatal(err)
	}
	reqs := cloud.requests()
	if q := reqs[1].Query; q.Get("Tag.1.Key") != "k" || q.Get("Tag.1.Value") != "v" {
		t.Errorf("create tags: %v", q)
	}
	if q := reqs[2].Query; q.Get("Tag.1.key") != "k" || q.Get("Tag.1.value") != "v" {
		t.Errorf("describe tag filter: %v", q)
	}
}

func TestIsKnownRegion(t *testing.T) {
	if !IsKnownRegion("cn-hangzhou") || IsKnownRegion("xx-nowhere-1") {
		t.Error("IsKnownRegion")
	}
	for _, r := range KnownRegions {
		if !regionPattern.MatchString(r) {
			t.Errorf("%q is not a region id", r)
		}
	}
}

// Out of budget while throttled: the error is ErrNoAnswer and still says it was throttling, so
// callers that wait out throttling keep doing so.
func TestCallBudgetKeepsTheLastAnswer(t *testing.T) {
	_, server := newFakeCloud(t, answers(fail(400, "Throttling.User")))
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: server.URL, Credentials: staticCredentials(t), MaxRetries: 1000, CallTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c.retryWaitMin, c.retryWaitMax = time.Millisecond, 2*time.Millisecond
	_, err = c.DescribeDBInstanceAttribute(context.Background(), "rm-1")
	if !errors.Is(err, ErrNoAnswer) || !IsThrottled(err) {
		t.Fatalf("want ErrNoAnswer wrapping the throttling answer, got %v", err)
	}
}

// An endpoint whose scheme does not match the server fails at the first attempt with a hint to
// check the scheme: https:// (or no scheme) against plain HTTP, and http:// against HTTPS.
func TestSchemeMismatchIsNotRetriedAndNamesTheScheme(t *testing.T) {
	cloud, plain := newFakeCloud(t, answers(success(`{"RequestId":"r"}`)))
	host := strings.TrimPrefix(plain.URL, "http://")
	for _, endpoint := range []string{"https://" + host, host} {
		c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: endpoint, Credentials: staticCredentials(t), MaxRetries: 5})
		if err != nil {
			t.Fatal(err)
		}
		c.retryWaitMin, c.retryWaitMax = time.Millisecond, 2*time.Millisecond
		_, err = c.DescribeDBInstanceAttribute(context.Background(), "rm-1")
		if err == nil {
			t.Fatalf("%s: no error", endpoint)
		}
		mustContain(t, err.Error(), "plain HTTP", "scheme of `endpoint`", "(1 attempt(s))", "not retried")
	}
	if n := len(cloud.requests()); n != 0 {
		t.Errorf("the plain-HTTP server got %d requests, want 0 (the TLS handshake fails first)", n)
	}

	tlsCloud := &fakeCloud{t: t, secrets: map[string]string{testKeyID: testSecret}, reply: answers(success(`{"RequestId":"r"}`))}
	secure := httptest.NewTLSServer(tlsCloud)
	t.Cleanup(secure.Close)
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: "http://" + strings.TrimPrefix(secure.URL, "https://"),
		Credentials: staticCredentials(t), MaxRetries: 5})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.DescribeDBInstanceAttribute(context.Background(), "rm-1")
	if err == nil {
		t.Fatal("http:// against an HTTPS server: no error")
	}
	mustContain(t, err.Error(), "speaks HTTPS", "scheme of `endpoint`", "not retried")
}
