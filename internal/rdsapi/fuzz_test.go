package rdsapi

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The fuzz targets run their seeds (f.Add plus testdata/fuzz/<Name>/) in every `go test`; run one
// for longer with e.g. `go test ./internal/rdsapi -run '^$' -fuzz '^FuzzParseOptimizedWritesInfo$' -fuzztime 30s`.

// quotesWholeInput reports whether an error about a long hostile input repeats all of it;
// errors may quote only a short prefix.
func quotesWholeInput(err error, input []byte) bool {
	return len(input) > 300 && strings.Contains(err.Error(), string(input))
}

func FuzzParseOptimizedWritesInfo(f *testing.F) {
	for _, seed := range []string{
		`{"optimized_writes":true,"init_optimized_writes":true}`,
		`{"optimized_writes":false,"init_optimized_writes":false}`,
		`  {"init_optimized_writes":true,"optimized_writes":false}  `,
		``, `null`, `nil`, `{}`, `{"optimized_writes":"true","init_optimized_writes":true}`,
		`{"optimized_writes":true,"init_optimized_writes":true}{}`, `[true,true]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		info, err := ParseOptimizedWritesInfo(raw)
		if err != nil {
			if info != nil {
				t.Fatalf("both a value and an error for %q", raw)
			}
			if quotesWholeInput(err, []byte(raw)) {
				t.Fatalf("the error repeats all %d bytes of the input", len(raw))
			}
			return
		}
		if info == nil {
			if trimmed := strings.TrimSpace(raw); trimmed != "" && trimmed != "null" {
				t.Fatalf("%q parsed as absent", raw)
			}
			return
		}
		// A value that parses means exactly what its canonical form means.
		again, err := ParseOptimizedWritesInfo(FormatOptimizedWritesInfo(*info))
		if err != nil || again == nil || *again != *info {
			t.Fatalf("%q -> %+v does not round-trip (%+v, %v)", raw, info, again, err)
		}
	})
}

func FuzzDecodeDBInstanceAttribute(f *testing.F) {
	for _, seed := range []string{
		attributeJSON("rm-1", `"OptimizedWritesInfo":"{\"optimized_writes\":true,\"init_optimized_writes\":true}","Port":3306,"EngineVersion":8.0`),
		attributeJSON("rm-1", `"OptimizedWritesInfo":"","DBInstanceStorage":"20","DeletionProtection":"false"`),
		attributeJSON("rm-1", `"ReadOnlyDBInstanceIds":{"ReadOnlyDBInstanceId":[{"DBInstanceId":"rr-1"}]}`),
		`{"RequestId":"r","Items":{"DBInstanceAttribute":[]}}`,
		`{"Items":{"DBInstanceAttribute":[{"DBInstanceId":"rm-1","OptimizedWritesInfo":{"optimized_writes":true}}]}}`,
		`{"Items":null}`, `<html></html>`, `{"Items":{"DBInstanceAttribute":[{"DBInstanceId":"rm-1"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		attr, err := decodeDBInstanceAttribute("rm-1", body)
		if err != nil {
			if attr != nil {
				t.Fatal("both a value and an error")
			}
			var apiErr *Error
			if errors.As(err, &apiErr) && !IsNotFound(err) {
				t.Fatalf("a decoding problem reported as API error %v", err)
			}
			if quotesWholeInput(err, body) {
				t.Fatalf("the error repeats all %d bytes of the body", len(body))
			}
			return
		}
		if attr == nil || attr.DBInstanceID != "rm-1" {
			t.Fatalf("decoded %+v", attr)
		}
		trimmed := strings.TrimSpace(attr.OptimizedWritesInfo)
		if (attr.OptimizedWrites == nil) != (trimmed == "" || trimmed == "null") {
			t.Fatalf("OptimizedWritesInfo %q decoded as %+v", attr.OptimizedWritesInfo, attr.OptimizedWrites)
		}
	})
}

func FuzzDecodeDescribeDBInstances(f *testing.F) {
	for _, seed := range []string{
		`{"RequestId":"r","Items":{"DBInstance":[{"DBInstanceId":"rm-1","EngineVersion":8.0}]},"PageNumber":1,"TotalRecordCount":"1","NextToken":""}`,
		`{"Items":{"DBInstance":[]},"PageNumber":"2","PageRecordCount":0,"TotalRecordCount":30}`,
		`{"Items":{"DBInstance":[{"ReadOnlyDBInstanceIds":""}]},"NextToken":"abc"}`,
		`{"PageNumber":"x"}`, `{"Items":{"DBInstance":{}}}`, `[]`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var out DescribeDBInstancesResponse
		err := decodeBody("DescribeDBInstances", body, &out)
		if err != nil {
			if errors.As(err, new(*Error)) {
				t.Fatalf("a decoding problem reported as an API error: %v", err)
			}
			if quotesWholeInput(err, body) {
				t.Fatalf("the error repeats all %d bytes of the body", len(body))
			}
			return
		}
		if !looksLikeObject(body) {
			t.Fatalf("accepted a body that is not a JSON object: %q", body)
		}
	})
}

func FuzzDecodeErrorBody(f *testing.F) {
	seeds := []struct {
		status int
		body   string
	}{
		{404, `{"Code":"InvalidDBInstanceId.NotFound","HostId":"rds.aliyuncs.com","Message":"m","Recommend":"https://x","RequestId":"r"}`},
		{400, `{"code":"Throttling.User","message":"m","requestId":"r"}`},
		{503, `{"Code":503,"Message":null}`},
		{502, `<html><body>Bad Gateway</body></html>`},
		{400, `{"Code":"  ","Message":"blank"}`},
		{500, `{"Code":"InternalError"`},
		{200, ``},
	}
	for _, s := range seeds {
		f.Add(s.status, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		err := responseError("DeleteDBInstance", status, body)
		if err == nil {
			t.Fatal("no error")
		}
		var apiErr *Error
		if errors.As(err, &apiErr) {
			if apiErr.Code == "" || apiErr.Code != strings.TrimSpace(apiErr.Code) || apiErr.HTTPStatus != status {
				t.Fatalf("error %+v", apiErr)
			}
			_ = apiErr.Class().String() // every class has a name
		} else if quotesWholeInput(err, body) {
			t.Fatalf("the error repeats all %d bytes of the body", len(body))
		}
		// Classification never fails, whatever the body.
		log := &attemptLog{action: "DeleteDBInstance", replaySafe: bytes.HasPrefix(body, []byte("{"))}
		log.retryStatus(status, body)
	})
}
