package simulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

var listParams = map[string]string{"RegionId": DefaultRegion}

func TestSignaturesAccepted(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		c    *client
	}{
		{"V1 GET query", e.c.with(func(c *client) { c.mode, c.method = "v1query", http.MethodGet })},
		{"V1 POST query", e.c.with(func(c *client) { c.mode = "v1query" })},
		{"V1 POST form body", e.c.with(func(c *client) { c.mode = "v1form" })},
		{"V3 POST", e.c},
		{"V3 GET", e.c.with(func(c *client) { c.method = http.MethodGet })},
		{"V1 with STS token", e.c.with(func(c *client) { c.mode, c.securityToken = "v1query", "sts-token" })},
		{"V3 with STS token", e.c.with(func(c *client) { c.securityToken = "sts-token" })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.t = t
			body := tc.c.ok("DescribeDBInstances", listParams)
			if n := body["TotalRecordCount"].(float64); n != 4 {
				t.Fatalf("TotalRecordCount = %v, want the 4 seeds", n)
			}
		})
	}
}

func TestSignatureRejections(t *testing.T) {
	e := newEnv(t)
	modes := []string{"v1query", "v1form", "v3"}
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			c := e.c.with(func(c *client) { c.mode, c.t = mode, t })
			c.with(func(c *client) { c.id = "someone-else" }).fails("DescribeDBInstances", listParams, 404, "InvalidAccessKeyId.NotFound")
			c.with(func(c *client) { c.secret = "wrong" }).fails("DescribeDBInstances", listParams, 400, "SignatureDoesNotMatch")
			c.with(func(c *client) { c.timestampShift = 16 * time.Minute }).fails("DescribeDBInstances", listParams, 400, "InvalidTimeStamp.Expired")
			c.with(func(c *client) { c.timestampShift = -16 * time.Minute }).fails("DescribeDBInstances", listParams, 400, "InvalidTimeStamp.Expired")
			c.with(func(c *client) { c.timestampShift = 14 * time.Minute }).ok("DescribeDBInstances", listParams)
			reuse := c.with(func(c *client) { c.fixedNonce = "nonce-" + mode })
			reuse.ok("DescribeDBInstances", listParams)
			reuse.fails("DescribeDBInstances", listParams, 400, "SignatureNonceUsed")
		})
	}
}

// send issues a hand-made request and returns the decoded answer.
func send(t *testing.T, e *env, req *http.Request) answer {
	t.Helper()
	c := e.c.with(func(c *client) { c.t = t })
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	return decodeAnswer(c, resp)
}

func TestMalformedAuthentication(t *testing.T) {
	e := newEnv(t)
	v1 := func(mutate func(url.Values)) *http.Request {
		req := e.c.with(func(c *client) { c.mode = "v1query" }).build("DescribeDBInstances", listParams)
		q := req.URL.Query()
		mutate(q)
		req.URL.RawQuery = q.Encode()
		return req
	}
	v3 := func(mutate func(*http.Request)) *http.Request {
		req := e.c.build("DescribeDBInstances", listParams)
		mutate(req)
		return req
	}
	cases := []struct {
		name   string
		req    *http.Request
		status int
		code   string
	}{
		{"unsigned", mustRequest(http.MethodGet, e.srv.URL+"/?Action=DescribeDBInstances&RegionId=cn-hangzhou"), 400, "MissingParameter"},
		{"V1 without Signature", v1(func(q url.Values) { q.Del("Signature") }), 400, "IncompleteSignature"},
		{"V1 without Timestamp", v1(func(q url.Values) { q.Del("Timestamp") }), 400, "MissingParameter"},
		{"V1 without SignatureNonce", v1(func(q url.Values) { q.Del("SignatureNonce") }), 400, "MissingParameter"},
		{"V1 bad Timestamp format", v1(func(q url.Values) { q.Set("Timestamp", "2026-03-01 10:00:00") }), 400, "InvalidTimeStamp.Format"},
		{"V1 SignatureMethod", v1(func(q url.Values) { q.Set("SignatureMethod", "HMAC-MD5") }), 400, "IncompleteSignature"},
		{"V1 tampered parameter", v1(func(q url.Values) { q.Set("RegionId", "cn-beijing") }), 400, "SignatureDoesNotMatch"},
		{"V1 duplicate parameter", v1(func(q url.Values) { q.Add("RegionId", "cn-hangzhou") }), 400, "InvalidParameter"},
		{"V3 garbage Authorization", v3(func(r *http.Request) { r.Header.Set("Authorization", "Bearer x") }), 400, "IncompleteSignature"},
		{"V3 without x-acs-date", v3(func(r *http.Request) { r.Header.Del("x-acs-date") }), 400, "MissingParameter"},
		{"V3 bad x-acs-date", v3(func(r *http.Request) { r.Header.Set("x-acs-date", "yesterday") }), 400, "InvalidTimeStamp.Format"},
		{"V3 host not signed", v3(func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "SignedHeaders=host;", "SignedHeaders=", 1))
		}), 400, "IncompleteSignature"},
		{"V3 tampered query", v3(func(r *http.Request) { r.URL.RawQuery = "RegionId=cn-shanghai" }), 400, "SignatureDoesNotMatch"},
		{"V3 body not matching x-acs-content-sha256", v3(func(r *http.Request) {
			r.Body, r.ContentLength = ioNopCloser("PageSize=5"), 10
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}), 400, "SignatureDoesNotMatch"},
		{"V3 wrong host", v3(func(r *http.Request) { r.Host = "rds.aliyuncs.com" }), 400, "SignatureDoesNotMatch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := send(t, e, tc.req)
			if a.status != tc.status || a.code() != tc.code {
				t.Fatalf("got HTTP %d %s, want HTTP %d %s", a.status, a.raw, tc.status, tc.code)
			}
		})
	}
}

func TestV3HostWithPortIsSigned(t *testing.T) {
	e := newEnv(t)
	req := e.c.build("DescribeDBInstances", listParams)
	if !strings.Contains(req.URL.Host, ":") {
		t.Fatalf("test server host %q has no port", req.URL.Host)
	}
	if a := send(t, e, req); a.status != 200 {
		t.Fatalf("HTTP %d %s", a.status, a.raw)
	}
}

func TestV3FormBodyCoveredByPayloadHash(t *testing.T) {
	e := newEnv(t)
	body := "RegionId=cn-hangzhou&PageSize=2"
	u, _ := url.Parse(e.srv.URL + "/")
	req := mustRequest(http.MethodPost, u.String())
	req.Body, req.ContentLength = ioNopCloser(body), int64(len(body))
	hash := acssign.SHA256Hex([]byte(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("x-acs-action", "DescribeDBInstances")
	req.Header.Set("x-acs-version", apiVersion)
	req.Header.Set("x-acs-date", e.clock.Now().Format(acssign.TimestampLayout))
	req.Header.Set("x-acs-signature-nonce", "form-body-nonce")
	req.Header.Set("x-acs-content-sha256", hash)
	signing := req.Header.Clone()
	signing.Set("host", u.Host)
	req.Header.Set("Authorization", acssign.V3Authorization(acssign.V3Request{Method: http.MethodPost, Path: "/", Headers: signing, PayloadHash: hash}, DefaultAccessKeyID, DefaultAccessKeySecret))
	a := send(t, e, req)
	if a.status != 200 || a.body["PageRecordCount"].(float64) != 2 {
		t.Fatalf("HTTP %d %s", a.status, a.raw)
	}
}

func TestProtocolErrors(t *testing.T) {
	e := newEnv(t)
	e.c.fails("NoSuchAction", nil, 404, "InvalidAction.NotFound")
	e.c.ok("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "Format": "json"})
	e.c.fails("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "Format": "yaml"}, 400, "InvalidParameter")
	e.c.with(func(c *client) { c.mode = "v1query" }).fails("DescribeDBInstances", map[string]string{"RegionId": DefaultRegion, "Version": "2099-01-01"}, 400, "InvalidVersion")

	a := send(t, e, mustRequest(http.MethodPut, e.srv.URL+"/"))
	if a.status != 405 || a.code() != "UnsupportedHTTPMethod" {
		t.Fatalf("PUT: HTTP %d %s", a.status, a.raw)
	}
	a = send(t, e, mustRequest(http.MethodGet, e.srv.URL+"/other"))
	if a.status != 404 || a.code() != "InvalidAction.NotFound" {
		t.Fatalf("GET /other: HTTP %d %s", a.status, a.raw)
	}
	big := mustRequest(http.MethodPost, e.srv.URL+"/")
	big.Body, big.ContentLength = ioNopCloser(strings.Repeat("a", maxBodyBytes+1)), maxBodyBytes+1
	big.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if a := send(t, e, big); a.status != 400 {
		t.Fatalf("oversized body: HTTP %d %s", a.status, a.raw)
	}
}
