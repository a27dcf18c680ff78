package rdsapi

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

const (
	testKeyID  = "testid"
	testSecret = "testsecret-do-not-leak"
)

// seenRequest is what the fake cloud received on one attempt.
type seenRequest struct {
	Action string
	Host   string
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// answer is what the fake cloud sends back; drop closes the connection without answering, after
// the request was fully read (a lost response).
type answer struct {
	status int
	body   string
	drop   bool
}

func success(body string) answer          { return answer{status: http.StatusOK, body: body} }
func fail(status int, code string) answer { return answer{status: status, body: errorJSON(code)} }
func errorJSON(code string) string {
	return fmt.Sprintf(`{"Code":%q,"Message":"m","RequestId":"req-%s","HostId":"rds.aliyuncs.com"}`, code, code)
}
func rawAnswer(status int, body string) answer { return answer{status: status, body: body} }
func dropConnection() answer                   { return answer{drop: true} }
func answers(list ...answer) func(int) answer {
	return func(n int) answer { return list[min(n, len(list)-1)] }
}

// fakeCloud is an RDS endpoint that verifies the V3 signature of every request with acssign,
// recomputed from what arrived on the wire, and answers with reply(attempt index).
type fakeCloud struct {
	t       *testing.T
	secrets map[string]string // access key id -> secret
	reply   func(n int) answer
	onServe func(n int)

	mu   sync.Mutex
	seen []seenRequest
}

func newFakeCloud(t *testing.T, reply func(n int) answer) (*fakeCloud, *httptest.Server) {
	t.Helper()
	cloud := &fakeCloud{t: t, secrets: map[string]string{testKeyID: testSecret}, reply: reply}
	server := httptest.NewServer(cloud)
	t.Cleanup(server.Close)
	return cloud, server
}

func (f *fakeCloud) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	seen := seenRequest{
		Action: r.Header.Get("x-acs-action"), Host: r.Host, Method: r.Method, Path: r.URL.Path,
		Query: r.URL.Query(), Header: r.Header.Clone(), Body: body,
	}
	f.mu.Lock()
	n := len(f.seen)
	f.seen = append(f.seen, seen)
	f.mu.Unlock()
	if err := verifyV3(r, body, f.secrets); err != nil {
		f.t.Errorf("request %d (%s): %v", n, seen.Action, err)
	}
	if f.onServe != nil {
		f.onServe(n)
	}
	a := f.reply(n)
	if a.drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	io.WriteString(w, a.body)
}

func (f *fakeCloud) requests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.seen)
}

// verifyV3 checks a request the way the cloud does: the signature recomputed from the received
// method, path, query, signed headers and body must match, and the V3 headers must be signed.
func verifyV3(r *http.Request, body []byte, secrets map[string]string) error {
	parts, err := acssign.ParseV3Authorization(r.Header.Get("Authorization"))
	if err != nil {
		return err
	}
	secret, known := secrets[parts.AccessKeyID]
	if !known {
		return fmt.Errorf("unknown access key id %q", parts.AccessKeyID)
	}
	for _, name := range []string{"host", "x-acs-action", "x-acs-version", "x-acs-date", "x-acs-signature-nonce", "x-acs-content-sha256"} {
		if !slices.Contains(parts.SignedHeaders, name) {
			return fmt.Errorf("header %s is not signed (signed: %v)", name, parts.SignedHeaders)
		}
	}
	if token := r.Header.Get("x-acs-security-token"); token != "" && !slices.Contains(parts.SignedHeaders, "x-acs-security-token") {
		return fmt.Errorf("x-acs-security-token is sent but not signed")
	}
	if got := r.Header.Get("x-acs-content-sha256"); got != acssign.SHA256Hex(body) {
		return fmt.Errorf("x-acs-content-sha256 %s does not match the body", got)
	}
	query := map[string]string{}
	for name, values := range r.URL.Query() {
		query[name] = values[0]
	}
	headers := r.Header.Clone()
	headers.Set("host", r.Host)
	canonical := acssign.V3CanonicalRequest(acssign.V3Request{
		Method: r.Method, Path: r.URL.Path, Query: query, Headers: headers,
		PayloadHash: r.Header.Get("x-acs-content-sha256"),
	}, parts.SignedHeaders)
	if want := acssign.V3Signature(canonical, secret); want != parts.Signature {
		return fmt.Errorf("signature mismatch: got %s, want %s", parts.Signature, want)
	}
	return nil
}

func staticCredentials(t testing.TB) credentials.Credential {
	t.Helper()
	cred, err := credentials.NewCredential(new(credentials.Config).
		SetType("access_key").SetAccessKeyId(testKeyID).SetAccessKeySecret(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

// newTestClient points a client at server with millisecond backoff.
func newTestClient(t testing.TB, server *httptest.Server, maxRetries int) *Client {
	t.Helper()
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: server.URL, Credentials: staticCredentials(t), MaxRetries: maxRetries})
	if err != nil {
		t.Fatal(err)
	}
	c.retryWaitMin, c.retryWaitMax = time.Millisecond, 4*time.Millisecond
	return c
}

// rotatingCredentials hands out a different key on every GetCredential, as a refreshing STS
// provider does.
type rotatingCredentials struct {
	credentials.Credential // unused methods
	mu                     sync.Mutex
	calls                  int
}

func (r *rotatingCredentials) GetCredential() (*credentials.CredentialModel, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	id, secret, token := fmt.Sprintf("sts-id-%d", r.calls), fmt.Sprintf("sts-secret-%d", r.calls), fmt.Sprintf("sts-token-%d", r.calls)
	return &credentials.CredentialModel{AccessKeyId: &id, AccessKeySecret: &secret, SecurityToken: &token}, nil
}

func attributeJSON(id string, extra string) string {
	fields := fmt.Sprintf(`"DBInstanceId":%q,"DBInstanceStatus":"Running","Engine":"MySQL"`, id)
	if extra != "" {
		fields += "," + extra
	}
	return `{"RequestId":"r-1","Items":{"DBInstanceAttribute":[{` + fields + `}]}}`
}

func mustContain(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%q does not contain %q", s, p)
		}
	}
}
