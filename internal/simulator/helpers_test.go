package simulator

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

// fakeClock is an injectable clock the tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Durations of the fake-clock simulators; the clock only moves when a test moves it.
const (
	createD  = 10 * time.Second
	restartD = 20 * time.Second
	deleteD  = 5 * time.Second
	lagD     = 3 * time.Second
)

type env struct {
	t     *testing.T
	sim   *Simulator
	srv   *httptest.Server
	clock *fakeClock
	c     *client
}

// newEnv starts a simulator on a fake clock with the seeds planted.
func newEnv(t *testing.T, mutate ...func(*Options)) *env {
	t.Helper()
	clock := newFakeClock()
	opts := Options{CreateDuration: createD, RestartDuration: restartD, DeleteDuration: deleteD, FlagLag: lagD, Seed: true, Now: clock.Now}
	for _, m := range mutate {
		m(&opts)
	}
	sim, srv := NewTestServer(t, opts)
	return &env{t: t, sim: sim, srv: srv, clock: clock, c: newClient(t, srv, clock.Now)}
}

// client signs requests the way Alibaba's clients do: V1 in the query, V1 with a form body, or V3.
type client struct {
	t              *testing.T
	srv            *httptest.Server
	now            func() time.Time
	mode           string // "v1query", "v1form", "v3"
	id, secret     string
	securityToken  string
	method         string
	fixedNonce     string
	timestampShift time.Duration
}

func newClient(t *testing.T, srv *httptest.Server, now func() time.Time) *client {
	return &client{t: t, srv: srv, now: now, mode: "v3", id: DefaultAccessKeyID, secret: DefaultAccessKeySecret, method: http.MethodPost}
}

func (c *client) with(f func(*client)) *client {
	cp := *c
	f(&cp)
	return &cp
}

type answer struct {
	status int
	body   map[string]any
	raw    string
}

func (a answer) code() string {
	s, _ := a.body["Code"].(string)
	return s
}

func (c *client) call(action string, p map[string]string) answer {
	c.t.Helper()
	req := c.build(action, p)
	resp, err := c.srv.Client().Do(req)
	if err != nil {
		c.t.Fatalf("%s: %v", action, err)
	}
	defer func() { _ = resp.Body.Close() }()
	return decodeAnswer(c, resp)
}

// decodeAnswer reads an answer and checks the body fields every answer must have.
func decodeAnswer(c *client, resp *http.Response) answer {
	c.t.Helper()
	data, _ := io.ReadAll(resp.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		c.t.Fatalf("answer is not JSON (HTTP %d): %s", resp.StatusCode, data)
	}
	if resp.StatusCode >= 400 {
		for _, f := range []string{"Code", "HostId", "Message", "Recommend", "RequestId"} {
			if _, ok := body[f]; !ok {
				c.t.Fatalf("error body lacks %s: %s", f, data)
			}
		}
	} else if _, ok := body["RequestId"]; !ok {
		c.t.Fatalf("answer lacks RequestId: %s", data)
	}
	return answer{status: resp.StatusCode, body: body, raw: string(data)}
}

func mustRequest(method, u string) *http.Request {
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		panic(err)
	}
	return req
}

func ioNopCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

func (c *client) build(action string, p map[string]string) *http.Request {
	ts := c.now().Add(c.timestampShift).UTC().Format(acssign.TimestampLayout)
	nonce := c.fixedNonce
	if nonce == "" {
		nonce = uuid.NewString()
	}
	u, _ := url.Parse(c.srv.URL + "/")
	switch c.mode {
	case "v1query", "v1form":
		common := map[string]string{
			"Action": action, "Version": versionOf(action), "Format": "JSON", "AccessKeyId": c.id,
			"SignatureMethod": "HMAC-SHA1", "SignatureVersion": "1.0", "SignatureNonce": nonce, "Timestamp": ts,
		}
		if c.securityToken != "" {
			common["SecurityToken"] = c.securityToken
		}
		all := map[string]string{}
		for k, v := range common {
			all[k] = v
		}
		for k, v := range p {
			all[k] = v
		}
		common["Signature"] = acssign.V1Signature(c.method, all, c.secret)
		var body io.Reader
		q := url.Values{}
		if c.mode == "v1query" {
			all["Signature"] = common["Signature"]
			for k, v := range all {
				q.Set(k, v)
			}
		} else {
			for k, v := range common {
				q.Set(k, v)
			}
			form := url.Values{}
			for k, v := range p {
				form.Set(k, v)
			}
			body = strings.NewReader(form.Encode())
		}
		u.RawQuery = q.Encode()
		req, _ := http.NewRequest(c.method, u.String(), body)
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		return req
	default:
		q := url.Values{}
		for k, v := range p {
			q.Set(k, v)
		}
		u.RawQuery = q.Encode()
		req, _ := http.NewRequest(c.method, u.String(), nil)
		req.Header.Set("x-acs-action", action)
		req.Header.Set("x-acs-version", versionOf(action))
		req.Header.Set("x-acs-date", ts)
		req.Header.Set("x-acs-signature-nonce", nonce)
		req.Header.Set("x-acs-content-sha256", acssign.EmptyBodySHA256)
		if c.securityToken != "" {
			req.Header.Set("x-acs-security-token", c.securityToken)
		}
		signing := req.Header.Clone()
		signing.Set("host", u.Host)
		req.Header.Set("Authorization", acssign.V3Authorization(acssign.V3Request{
			Method: c.method, Path: "/", Query: p, Headers: signing, PayloadHash: acssign.EmptyBodySHA256,
		}, c.id, c.secret))
		return req
	}
}

// ok calls and fails the test unless the answer is HTTP 200.
func (c *client) ok(action string, p map[string]string) map[string]any {
	c.t.Helper()
	a := c.call(action, p)
	if a.status != http.StatusOK {
		c.t.Fatalf("%s %v: HTTP %d %s", action, p, a.status, a.raw)
	}
	return a.body
}

// fails calls and checks the error code and HTTP status.
func (c *client) fails(action string, p map[string]string, status int, code string) answer {
	c.t.Helper()
	a := c.call(action, p)
	if a.status != status || a.code() != code {
		c.t.Fatalf("%s %v: got HTTP %d %s, want HTTP %d %s", action, p, a.status, a.raw, status, code)
	}
	return a
}

// mysqlCreate is a valid CreateDBInstance request, changed by the given overrides ("" deletes).
func mysqlCreate(overrides map[string]string) map[string]string {
	p := map[string]string{
		"RegionId": DefaultRegion, "Engine": "MySQL", "EngineVersion": "8.0", "DBInstanceClass": "mysql.x4.medium.2c",
		"DBInstanceStorage": "100", "DBInstanceStorageType": "cloud_essd", "DBInstanceNetType": "Intranet",
		"SecurityIPList": "10.0.0.0/8", "PayType": "Postpaid", "Category": "HighAvailability",
		"InstanceNetworkType": "VPC", "VPCId": "vpc-1", "VSwitchId": "vsw-1", "ZoneId": "cn-hangzhou-i",
	}
	for k, v := range overrides {
		if v == "" {
			delete(p, k)
		} else {
			p[k] = v
		}
	}
	return p
}

func (e *env) create(overrides map[string]string) string {
	e.t.Helper()
	id := e.c.ok("CreateDBInstance", mysqlCreate(overrides))["DBInstanceId"].(string)
	e.clock.Add(createD)
	return id
}

func (e *env) attr(id string) map[string]any {
	e.t.Helper()
	body := e.c.ok("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id})
	return body["Items"].(map[string]any)["DBInstanceAttribute"].([]any)[0].(map[string]any)
}

func (e *env) status(id string) string { return e.attr(id)["DBInstanceStatus"].(string) }

func (e *env) owInfo(id string) string {
	v, _ := e.attr(id)["OptimizedWritesInfo"].(string)
	return v
}

func owJSON(on, supported bool) string {
	return `{"optimized_writes":` + map[bool]string{true: "true", false: "false"}[on] +
		`,"init_optimized_writes":` + map[bool]string{true: "true", false: "false"}[supported] + `}`
}

// toggle sends ModifyDBInstanceSpec with the current class and storage plus OptimizedWrites.
func (e *env) toggle(id, value string) answer {
	e.t.Helper()
	a := e.attr(id)
	return e.c.call("ModifyDBInstanceSpec", map[string]string{
		"DBInstanceId": id, "DBInstanceClass": a["DBInstanceClass"].(string),
		"DBInstanceStorage": jsonNum(a["DBInstanceStorage"]), "OptimizedWrites": value,
	})
}

// settle moves the clock past any restart and flag lag.
// settle lets every restart finish, including read-only instances that follow their primary.
func (e *env) settle() { e.clock.Add(2*restartD + lagD) }

func jsonNum(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
