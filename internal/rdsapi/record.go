package rdsapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
)

// RecordEnv names the directory where the client writes a cassette per answered request (off when
// unset or empty; Config.RecordDir wins). A maintainer records a real-cloud run with it, and the
// simulator's conformance test replays the cassettes (internal/simulator/cassettes_test.go;
// docs/guides/testing-against-the-cloud.md).
const RecordEnv = "RDS_RECORD_CASSETTES"

// ScrubbedAccountID replaces account ids (Uid, CallerUid, OwnerId, the account of a RAM ARN) in
// cassettes; the simulator uses the same id for its account.
const ScrubbedAccountID = "1000000000000000"

// scrubbed replaces a secret's value.
const scrubbed = "<scrubbed>"

// Cassette is one recorded request and its answer. Credentials and signatures never reach it:
// they travel in headers, which are not recorded; secret parameters and account ids are scrubbed.
type Cassette struct {
	// Source says where the answer comes from: "recorded <time> from <endpoint>", or for the
	// cassettes derived from Alibaba's API reference, the page's address.
	Source  string            `json:"source"`
	Action  string            `json:"action"`
	Version string            `json:"version"`
	Request map[string]string `json:"request"`
	Status  int               `json:"status"`
	Answer  json.RawMessage   `json:"answer"`
	// Fixture names the simulator object the replay acts on ("" the primary; "prepaid" the
	// subscription instance); KnownDifferences maps an answer path to why the simulator differs.
	Fixture          string            `json:"fixture,omitempty"`
	KnownDifferences map[string]string `json:"known_differences,omitempty"`
}

// recorder writes cassettes into dir, one file per answer, numbered in the order of the answers.
type recorder struct {
	dir   string
	start string
	seq   atomic.Int64
}

func newRecorder(dir string) (*recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("rdsapi: recording cassettes: %w", err)
	}
	return &recorder{dir: dir, start: time.Now().UTC().Format("20060102T150405")}, nil
}

// record writes the cassette of one answer. Recording never fails a call: a cassette that cannot
// be written is left out.
func (r *recorder) record(endpoint, action, version string, query, form params, status int, body []byte) {
	if r == nil {
		return
	}
	request := maps.Clone(query)
	maps.Copy(request, form)
	delete(request, "Format")
	answer := json.RawMessage(ScrubAnswer(body))
	if !json.Valid(answer) {
		answer, _ = json.Marshal(string(body))
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Cassette{Source: "recorded " + time.Now().UTC().Format(time.RFC3339) + " from " + endpoint,
		Action: action, Version: version, Request: ScrubRequest(request), Status: status, Answer: answer}); err != nil {
		return
	}
	name := fmt.Sprintf("%s-%04d-%s.json", r.start, r.seq.Add(1), action)
	_ = os.WriteFile(filepath.Join(r.dir, name), data.Bytes(), 0o600)
}

// secretParams are request parameters whose values never reach a cassette.
var secretParams = []string{"password", "serverkey", "privatekey", "securitytoken", "accesskeyid", "signature", "certificate"}

// ScrubRequest replaces secret values and account ids in recorded request parameters.
func ScrubRequest(p map[string]string) map[string]string {
	out := map[string]string{}
	for name, v := range p {
		lower := strings.ToLower(name)
		if strings.Contains(lower, "password") || containsAny(lower, secretParams) {
			v = scrubbed
		}
		out[name] = ramAccount.ReplaceAllString(v, "${1}"+ScrubbedAccountID+":")
	}
	return out
}

func containsAny(s string, list []string) bool {
	for _, x := range list {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// ramAccount is the account id inside a RAM ARN (acs:ram::<account>:role/...).
var ramAccount = regexp.MustCompile(`(acs:ram::)[0-9]+:`)

// accountIDField is an answer field that carries an account id, with its value.
var accountIDField = regexp.MustCompile(`("(?:Uid|CallerUid|OwnerId|ResourceOwnerId|AliUid|UserId)"\s*:\s*"?)[0-9]+`)

// ScrubAnswer replaces account ids in a recorded answer (a JSON body).
func ScrubAnswer(body []byte) []byte {
	body = accountIDField.ReplaceAll(body, []byte("${1}"+ScrubbedAccountID))
	return ramAccount.ReplaceAll(body, []byte("${1}"+ScrubbedAccountID+":"))
}
