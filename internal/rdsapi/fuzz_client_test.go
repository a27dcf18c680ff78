package rdsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Fuzz targets for the answers fuzz_test.go does not reach: every API method of the Client fed an
// arbitrary status and body through a fake transport (decodeBody, the per-action decoders, the
// error path and the retry classification together), and the lenient scalar types on their own.
// Run one for longer with e.g.
// `go test ./internal/rdsapi -run '^$' -fuzz '^FuzzClientAnswer$' -fuzztime 5m -parallel 1`.

// cannedTransport answers every request with the same status and body.
type cannedTransport struct {
	status int
	body   []byte
}

func (c cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: c.status, Status: http.StatusText(c.status), Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(c.body)), ContentLength: int64(len(c.body)), Request: r,
	}, nil
}

// clientActions calls every API method once and returns, per action, the error and whether a
// value came back.
func clientActions(ctx context.Context, c *Client) map[string]struct {
	err error
	ok  bool
} {
	out := map[string]struct {
		err error
		ok  bool
	}{}
	rec := func(action string, ok bool, err error) {
		out[action] = struct {
			err error
			ok  bool
		}{err, ok}
	}
	r1, err := c.CreateDBInstance(ctx, &CreateDBInstanceRequest{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, PayType: PayTypePostpaid, SecurityIPList: "127.0.0.1"})
	rec("CreateDBInstance", r1 != nil, err)
	r2, err := c.CreateReadOnlyDBInstance(ctx, &CreateReadOnlyDBInstanceRequest{PrimaryDBInstanceID: "rm-1", EngineVersion: "8.0",
		DBInstanceClass: "mysqlro.n2.medium.1c", DBInstanceStorage: 20})
	rec("CreateReadOnlyDBInstance", r2 != nil, err)
	r3, err := c.CloneDBInstance(ctx, &CloneDBInstanceRequest{SourceDBInstanceID: "rm-1", BackupID: "b-1"})
	rec("CloneDBInstance", r3 != nil, err)
	r4, err := c.DescribeDBInstanceAttribute(ctx, "rm-1")
	rec("DescribeDBInstanceAttribute", r4 != nil, err)
	r5, err := c.DescribeDBInstances(ctx, &DescribeDBInstancesRequest{MaxResults: 100})
	rec("DescribeDBInstances", r5 != nil, err)
	r6, err := c.DescribeAvailableClasses(ctx, &DescribeAvailableClassesRequest{Engine: "MySQL", EngineVersion: "8.0"})
	rec("DescribeAvailableClasses", r6 != nil, err)
	r7, err := c.ModifyDBInstanceSpec(ctx, &ModifyDBInstanceSpecRequest{DBInstanceID: "rm-1", DBInstanceClass: "mysql.n2.large.2c"})
	rec("ModifyDBInstanceSpec", r7 != nil, err)
	err = c.ModifyDBInstanceDescription(ctx, "rm-1", "name")
	rec("ModifyDBInstanceDescription", err == nil, err)
	err = c.ModifySecurityIps(ctx, &ModifySecurityIpsRequest{DBInstanceID: "rm-1", SecurityIps: "10.0.0.1"})
	rec("ModifySecurityIps", err == nil, err)
	err = c.ModifyDBInstanceDeletionProtection(ctx, "rm-1", true)
	rec("ModifyDBInstanceDeletionProtection", err == nil, err)
	err = c.RestartDBInstance(ctx, "rm-1")
	rec("RestartDBInstance", err == nil, err)
	err = c.DeleteDBInstance(ctx, "rm-1")
	rec("DeleteDBInstance", err == nil, err)
	return out
}

func FuzzClientAnswer(f *testing.F) {
	for _, s := range []struct {
		status int
		body   string
	}{
		{200, `{"RequestId":"r","DBInstanceId":"rm-1","OrderId":123,"ConnectionString":"x","Port":3306}`},
		{200, attributeJSON("rm-1", `"OptimizedWritesInfo":"{\"optimized_writes\":true,\"init_optimized_writes\":true}"`)},
		{200, `{"Items":{"DBInstance":[{"DBInstanceId":"rm-1"}]},"NextToken":""}`},
		{200, `{"DBInstanceClasses":[{"DBInstanceClass":"mysql.n2.medium.2c","DBInstanceStorageRange":{"MinValue":"20","MaxValue":32000,"Step":5}}]}`},
		{200, `{"DBInstanceClasses":{"DBInstanceClass":[]}}`},
		{200, `{}`}, {200, ``}, {200, `null`}, {200, `[]`}, {200, `{"DBInstanceId":123}`}, {200, `{"OrderId":{"a":1}}`},
		{200, `<html><body>captive portal</body></html>`},
		{200, `{"RequestId":"r"` + strings.Repeat(" ", 10) + `,"DBInstanceId":"rm-`},
		{400, `{"Code":"InvalidParameter","Message":"bad"}`},
		{404, `{"Code":"InvalidDBInstanceId.NotFound"}`},
		{403, `{"Code":"OperationDenied.DeletionProtection","Message":"no"}`},
		{502, `<html>Bad Gateway</html>`},
		{301, ``},
	} {
		f.Add(s.status, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		// Keep the status a real one; the transport never makes up 1xx answers.
		if status < 200 || status > 599 {
			status = 200 + (abs(status) % 400)
		}
		c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: "https://rds.example.test", Credentials: staticCredentials(t),
			MaxRetries: 0, HTTPClient: &http.Client{Transport: cannedTransport{status: status, body: body}}})
		if err != nil {
			t.Fatal(err)
		}
		for action, got := range clientActions(context.Background(), c) {
			if got.err == nil && !got.ok {
				t.Fatalf("%s: neither a value nor an error", action)
			}
			if got.err != nil && got.ok {
				t.Fatalf("%s: both a value and an error: %v", action, got.err)
			}
			if got.err == nil {
				if status >= 300 {
					t.Fatalf("%s: HTTP %d accepted as success", action, status)
				}
				if !looksLikeObject(body) {
					t.Fatalf("%s: accepted a body that is not a JSON object: %q", action, body)
				}
				continue
			}
			msg := got.err.Error()
			if msg == "" {
				t.Fatalf("%s: empty error", action)
			}
			if quotesWholeInput(got.err, body) {
				t.Fatalf("%s: the error repeats all %d bytes of the body", action, len(body))
			}
			if strings.Contains(msg, testSecret) {
				t.Fatalf("%s: the error contains the secret", action)
			}
			var apiErr *Error
			if status < 300 && errors.As(got.err, &apiErr) && !IsNotFound(got.err) {
				// A 200 with a bad body is a decoding problem, not an API error with a code.
				t.Fatalf("%s: HTTP %d decoding problem reported as API error %v", action, status, apiErr)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}

// FuzzFlexScalars feeds arbitrary JSON values to the lenient scalar decoders, alone and inside an
// object, the way the API answers reach them.
func FuzzFlexScalars(f *testing.F) {
	for _, seed := range []string{
		`"8.0"`, `8.0`, `3306`, `"3306"`, `null`, `""`, `true`, `"TRUE"`, `"false "`, `1e400`, `-0`, `"9223372036854775808"`,
		`{"a":1}`, `[1,2]`, `"\u0000"`, `{"ReadOnlyDBInstanceId":[{"DBInstanceId":"rr-1"},{"DBInstanceId":""}]}`,
		`"rr-1,rr-2"`, `[]`, `{"ReadOnlyDBInstanceId":null}`, `{"ReadOnlyDBInstanceId":{"DBInstanceId":"rr-1"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var s FlexString
		var n FlexInt
		var b FlexBool
		var l ReadOnlyList
		for name, target := range map[string]json.Unmarshaler{"FlexString": &s, "FlexInt": &n, "FlexBool": &b, "ReadOnlyList": &l} {
			err := target.UnmarshalJSON(raw)
			if err != nil && quotesWholeInput(err, raw) {
				t.Fatalf("%s: the error repeats all %d bytes of the input", name, len(raw))
			}
		}
		// Inside an object, through encoding/json, as the response structs use them.
		var wrapped struct {
			S FlexString
			N FlexInt
			B FlexBool
			L ReadOnlyList
		}
		for _, field := range []string{"S", "N", "B", "L"} {
			doc := append(append([]byte(`{"`+field+`":`), raw...), '}')
			if err := json.Unmarshal(doc, &wrapped); err != nil && quotesWholeInput(err, raw) {
				t.Fatalf("%s in an object: the error repeats all %d bytes of the input", field, len(raw))
			}
		}
		// A list that decoded holds no empty ids and re-encodes to something that decodes the same.
		var list ReadOnlyList
		if list.UnmarshalJSON(raw) == nil {
			for _, id := range list {
				if strings.TrimSpace(id) == "" {
					t.Fatalf("%q decoded to a list with an empty id: %q", raw, []string(list))
				}
			}
			enc, err := json.Marshal(list)
			if err != nil {
				t.Fatalf("re-encoding %q: %v", []string(list), err)
			}
			var again ReadOnlyList
			if err := json.Unmarshal(enc, &again); err != nil || len(again) != len(list) {
				t.Fatalf("%q -> %s does not decode back (%q, %v)", []string(list), enc, []string(again), err)
			}
		}
	})
}

// An item without a DBInstanceId must not become an empty read-only id: the provider would put ""
// into read_only_instance_ids and describe instance "" when it lists the instances that follow a
// primary's toggle. Found by FuzzFlexScalars.
func TestReadOnlyListSkipsItemsWithoutID(t *testing.T) {
	var l ReadOnlyList
	if err := json.Unmarshal([]byte(`{"ReadOnlyDBInstanceId":[{"DBInstanceId":"rr-1"},{},{"DBInstanceId":" "}]}`), &l); err != nil {
		t.Fatal(err)
	}
	if len(l) != 1 || l[0] != "rr-1" {
		t.Fatalf("decoded %q, want [rr-1]", []string(l))
	}
}
