package simulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestQuotaPerActionAndSecond(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.Faults.QPS = map[string]int{"DescribeDBInstanceAttribute": 3, "*": 100}
	})
	describe := map[string]string{"DBInstanceId": "rm-seedbasic"}
	for range 3 {
		e.c.ok("DescribeDBInstanceAttribute", describe)
	}
	a := e.c.fails("DescribeDBInstanceAttribute", describe, 400, "Throttling.Api")
	if msg, _ := a.body["Message"].(string); msg != "Request was denied due to api flow control." {
		t.Errorf("message %q", msg)
	}
	// Another action has its own quota.
	e.c.ok("DescribeDBInstances", listParams)
	// The next second serves three more; a throttled call did not count against the quota.
	e.clock.Add(time.Second)
	for range 3 {
		e.c.ok("DescribeDBInstanceAttribute", describe)
	}
	e.c.fails("DescribeDBInstanceAttribute", describe, 400, "Throttling.Api")

	st := e.sim.Stats()
	if st.Throttled["DescribeDBInstanceAttribute"] != 2 || st.Requests["DescribeDBInstanceAttribute"] != 8 || len(st.Throttled) != 1 {
		t.Errorf("stats: requests %v, throttled %v; want 8 describes of which 2 throttled", st.Requests, st.Throttled)
	}
}

func TestQuotaThroughTheFaultsEndpoint(t *testing.T) {
	e := newEnv(t)
	post := func(body string) int {
		resp, err := e.srv.Client().Post(e.srv.URL+"/_simulator/faults", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		return resp.StatusCode
	}
	if status := post(`{"qps":{"DescribeDBInstances":1}}`); status != http.StatusOK {
		t.Fatalf("set qps: HTTP %d", status)
	}
	e.c.ok("DescribeDBInstances", listParams)
	e.c.fails("DescribeDBInstances", listParams, 400, "Throttling.Api")
	for _, bad := range []string{`{"qps":{"NoSuchAction":1}}`, `{"qps":{"*":-1}}`} {
		if status := post(bad); status != http.StatusBadRequest {
			t.Errorf("%s accepted: HTTP %d", bad, status)
		}
	}
	resp, err := e.srv.Client().Get(e.srv.URL + "/_simulator/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var stats struct {
		Throttled map[string]int `json:"throttled"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&stats); err != nil || stats.Throttled["DescribeDBInstances"] != 1 {
		t.Errorf("stats throttled %v (%v), want DescribeDBInstances 1", stats.Throttled, err)
	}
	// Clearing the faults clears the quota.
	if status := post(`{}`); status != http.StatusOK {
		t.Fatalf("clear: HTTP %d", status)
	}
	e.c.ok("DescribeDBInstances", listParams)
}

func TestParseQPS(t *testing.T) {
	got, err := ParseQPS("DescribeDBInstanceAttribute=50, *=200")
	if err != nil || got["DescribeDBInstanceAttribute"] != 50 || got["*"] != 200 || len(got) != 2 {
		t.Fatalf("got %v, %v", got, err)
	}
	if got, err := ParseQPS("20"); err != nil || got["*"] != 20 {
		t.Fatalf("a bare number is every action's quota: %v, %v", got, err)
	}
	if got, err := ParseQPS(""); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v, %v", got, err)
	}
	for _, bad := range []string{"x", "NoSuchAction=3", "DescribeDBInstances=-1", "DescribeDBInstances=1.5"} {
		if _, err := ParseQPS(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestQuotaHeaderStatesTheWindow(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Faults.QPS = map[string]int{"DescribeDBInstanceAttribute": 2} })
	// The test clock stands still: 250 ms into a second, 750 ms are left of the window.
	e.clock.Add(250 * time.Millisecond) // the fake clock starts on a whole second
	header := func(action string, p map[string]string) (int, string) {
		resp, err := e.srv.Client().Do(e.c.build(action, p))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		return resp.StatusCode, resp.Header.Get("x-ratelimit-user-api")
	}
	describe := map[string]string{"DBInstanceId": "rm-seedbasic"}
	for i, want := range []string{"Limit:2,Remain:1,TimeLeft:750", "Limit:2,Remain:0,TimeLeft:750", "Limit:2,Remain:0,TimeLeft:750"} {
		status, got := header("DescribeDBInstanceAttribute", describe)
		if got != want || (i < 2) != (status == http.StatusOK) {
			t.Errorf("call %d: HTTP %d, header %q, want %q", i+1, status, got, want)
		}
	}
	if _, got := header("DescribeDBInstances", listParams); got != "" {
		t.Errorf("an action without a quota states one: %q", got)
	}

	quiet := newEnv(t, func(o *Options) {
		o.Faults.QPS = map[string]int{"DescribeDBInstanceAttribute": 2}
		o.NoQuotaHeader = true
	})
	resp, err := quiet.srv.Client().Do(quiet.c.build("DescribeDBInstanceAttribute", describe))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got := resp.Header.Get("x-ratelimit-user-api"); got != "" {
		t.Errorf("NoQuotaHeader: the answer states %q", got)
	}
}
