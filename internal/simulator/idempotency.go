package simulator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
)

// idempotentActions take a ClientToken: the same token with the same parameters returns the
// first result without a second side effect (Q8; tokens are remembered for the simulator's
// lifetime, and across restarts through the state file).
var idempotentActions = map[string]bool{
	"CreateDBInstance":                   true,
	"CreateReadOnlyDBInstance":           true,
	"CloneDBInstance":                    true,
	"RestartDBInstance":                  true,
	"ModifyDBInstanceDeletionProtection": true,
	"ModifyParameter":                    true,
	"RenewInstance":                      true,
}

// notFingerprinted are the parameters that legitimately differ between retries of one request
// (or between a V1 and a V3 retry: V3 carries Action and Version in headers).
var notFingerprinted = map[string]bool{
	"Signature": true, "SignatureNonce": true, "SignatureMethod": true, "SignatureVersion": true,
	"Timestamp": true, "AccessKeyId": true, "SecurityToken": true, "Format": true, "SourceIp": true,
	"ClientToken": true, "Action": true, "Version": true,
}

func (s *Simulator) withClientToken(action string, c *call, h handler) (map[string]any, *apiError) {
	token := c.p.get("ClientToken")
	if token == "" || !idempotentActions[action] {
		return h(s, c)
	}
	if len(token) > 64 || strings.IndexFunc(token, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
		return nil, errInvalid("ClientToken", "it must be at most 64 printable ASCII characters")
	}
	key := action + "\x00" + token
	fp := fingerprint(c.p)
	if rec, ok := s.state.Tokens[key]; ok {
		if rec.Fingerprint != fp {
			return nil, newErr(400, "IdempotentParameterMismatch", "The ClientToken %q was used before with different parameters.", token)
		}
		resp := map[string]any{}
		dec := json.NewDecoder(bytes.NewReader(rec.Response))
		dec.UseNumber()
		if err := dec.Decode(&resp); err != nil {
			return nil, errInternal("stored idempotent response is unreadable")
		}
		return resp, nil
	}
	resp, e := h(s, c)
	if e != nil {
		return nil, e
	}
	data, err := json.Marshal(resp)
	if err != nil {
		return nil, errInternal("response encoding failed")
	}
	s.state.Tokens[key] = tokenRecord{Fingerprint: fp, Response: data}
	c.dirty = true
	return resp, nil
}

// fingerprint hashes the request's own parameters, sorted.
func fingerprint(p params) string {
	h := sha256.New()
	for _, name := range sortedKeys(p) {
		if !notFingerprinted[name] {
			h.Write([]byte(name + "=" + p[name] + "\x00"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
