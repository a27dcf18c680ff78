package simulator

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

// maxSkew is the accepted distance between a request's timestamp and the simulator's clock.
const maxSkew = 15 * time.Minute

// authResult is what a verified request tells about itself.
type authResult struct {
	action, version string
}

// authenticate verifies a V3 request (Authorization header) or a V1 request (Signature
// parameter) and records its nonce. Checks run in the order: completeness, key, timestamp,
// signature, nonce, so that a nonce is only spent by a genuine request.
func (s *Simulator) authenticate(r *http.Request, q params, all params, body []byte) (authResult, *apiError) {
	if r.Header.Get("Authorization") != "" {
		return s.authenticateV3(r, q, all, body)
	}
	return s.authenticateV1(r.Method, all)
}

func (s *Simulator) authenticateV1(method string, p params) (authResult, *apiError) {
	if !p.has("Signature") {
		if !p.has("AccessKeyId") {
			return authResult{}, newErr(400, "MissingParameter", "The request is not signed: neither an Authorization header (V3) nor a Signature parameter (V1) is present.")
		}
		return authResult{}, newErr(400, "IncompleteSignature", "The request signature does not conform to Aliyun standards: the Signature parameter is missing.")
	}
	for _, name := range []string{"AccessKeyId", "SignatureMethod", "SignatureVersion", "SignatureNonce", "Timestamp", "Action", "Version"} {
		if strings.TrimSpace(p[name]) == "" {
			return authResult{}, errMissing(name)
		}
	}
	if p["SignatureMethod"] != "HMAC-SHA1" {
		return authResult{}, newErr(400, "IncompleteSignature", "SignatureMethod %q is not supported; use HMAC-SHA1.", truncate(p["SignatureMethod"]))
	}
	if p["SignatureVersion"] != "1.0" {
		return authResult{}, newErr(400, "IncompleteSignature", "SignatureVersion %q is not supported; use 1.0.", truncate(p["SignatureVersion"]))
	}
	if e := s.checkKey(p["AccessKeyId"]); e != nil {
		return authResult{}, e
	}
	if e := s.checkTimestamp(p["Timestamp"]); e != nil {
		return authResult{}, e
	}
	want := acssign.V1Signature(method, p, s.opts.AccessKeySecret)
	if subtle.ConstantTimeCompare([]byte(want), []byte(p["Signature"])) != 1 {
		return authResult{}, errSignature()
	}
	if e := s.spendNonce(p["SignatureNonce"]); e != nil {
		return authResult{}, e
	}
	return authResult{action: p["Action"], version: p["Version"]}, nil
}

// v3MustSign are the headers whose values protect a V3 request from replay and tampering; a
// signature that leaves one out is incomplete.
var v3MustSign = []string{"host", "x-acs-action", "x-acs-content-sha256", "x-acs-date", "x-acs-signature-nonce", "x-acs-version"}

func (s *Simulator) authenticateV3(r *http.Request, q params, all params, body []byte) (authResult, *apiError) {
	auth, err := acssign.ParseV3Authorization(r.Header.Get("Authorization"))
	if err != nil {
		return authResult{}, newErr(400, "IncompleteSignature", "The Authorization header is malformed: %s.", err)
	}
	signed := map[string]bool{}
	for _, h := range auth.SignedHeaders {
		signed[h] = true
	}
	for _, h := range v3MustSign {
		if h != "host" && strings.TrimSpace(r.Header.Get(h)) == "" {
			return authResult{}, errMissing(h)
		}
		if !signed[h] {
			return authResult{}, newErr(400, "IncompleteSignature", "SignedHeaders must include %s.", h)
		}
	}
	if e := s.checkKey(auth.AccessKeyID); e != nil {
		return authResult{}, e
	}
	if e := s.checkTimestamp(r.Header.Get("x-acs-date")); e != nil {
		return authResult{}, e
	}
	payloadHash := acssign.SHA256Hex(body)
	if !strings.EqualFold(strings.TrimSpace(r.Header.Get("x-acs-content-sha256")), payloadHash) {
		return authResult{}, newErr(400, "SignatureDoesNotMatch", "The x-acs-content-sha256 header does not match the SHA-256 of the request body.")
	}
	headers := http.Header{}
	for _, name := range auth.SignedHeaders {
		if name == "host" {
			headers.Set("host", r.Host)
			continue
		}
		for _, v := range r.Header.Values(name) {
			headers.Add(name, v)
		}
	}
	canonical := acssign.V3CanonicalRequest(acssign.V3Request{
		Method: r.Method, Path: r.URL.Path, Query: q, Headers: headers, PayloadHash: payloadHash,
	}, auth.SignedHeaders)
	want := acssign.V3Signature(canonical, s.opts.AccessKeySecret)
	if subtle.ConstantTimeCompare([]byte(want), []byte(strings.ToLower(auth.Signature))) != 1 {
		return authResult{}, errSignature()
	}
	if e := s.spendNonce(r.Header.Get("x-acs-signature-nonce")); e != nil {
		return authResult{}, e
	}
	action := r.Header.Get("x-acs-action")
	if a := all["Action"]; a != "" && a != action {
		return authResult{}, errInvalid("Action", "the Action parameter %q differs from the x-acs-action header %q", truncate(a), truncate(action))
	}
	return authResult{action: action, version: r.Header.Get("x-acs-version")}, nil
}

func errSignature() *apiError {
	return newErr(400, "SignatureDoesNotMatch", "Specified signature is not matched with our calculation.")
}

func (s *Simulator) checkKey(id string) *apiError {
	if subtle.ConstantTimeCompare([]byte(id), []byte(s.opts.AccessKeyID)) != 1 {
		return newErr(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.")
	}
	return nil
}

func (s *Simulator) checkTimestamp(v string) *apiError {
	t, err := time.Parse(timestampLayout, strings.TrimSpace(v))
	if err != nil {
		return newErr(400, "InvalidTimeStamp.Format", "Specified time stamp %q is not in the format yyyy-MM-ddTHH:mm:ssZ (UTC).", truncate(v))
	}
	if d := s.now().Sub(t); d > maxSkew || d < -maxSkew {
		return newErr(400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired: more than 15 minutes away from the server time.")
	}
	return nil
}

// spendNonce rejects a nonce seen within the last 15 minutes (the timestamp window: an older
// request is rejected for its timestamp anyway) and remembers this one.
func (s *Simulator) spendNonce(nonce string) *apiError {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Sweep expired nonces when the map has doubled since the last sweep: every nonce lives 30
	// minutes, so sweeping on every request would scan thousands of live ones each time.
	if len(s.nonces) > max(1024, s.nonceSweepAt) {
		for k, until := range s.nonces {
			if now.After(until) {
				delete(s.nonces, k)
			}
		}
		s.nonceSweepAt = 2 * len(s.nonces)
	}
	if until, seen := s.nonces[nonce]; seen && !now.After(until) {
		return newErr(400, "SignatureNonceUsed", "Specified signature nonce was used already.")
	}
	s.nonces[nonce] = now.Add(2 * maxSkew)
	return nil
}
