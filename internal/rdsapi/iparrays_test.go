package rdsapi

import (
	"encoding/json"
	"testing"
)

// The answer's Items comes as the nested object of the API reference, as an empty string (the
// classic gateway's JSON for an empty list) or null; every form decodes.
func TestDecodeIPArrayList(t *testing.T) {
	var resp DescribeDBInstanceIPArrayListResponse
	raw := `{"RequestId":"r","Items":{"DBInstanceIPArray":[
		{"DBInstanceIPArrayName":"default","DBInstanceIPArrayAttribute":"","SecurityIPType":"IPv4","SecurityIPList":"10.0.0.1,10.0.0.0/24","WhitelistNetworkType":"MIX"},
		{"DBInstanceIPArrayName":"ali_dms_group","DBInstanceIPArrayAttribute":"hidden","SecurityIPType":"IPv4","SecurityIPList":"100.104.0.0/16","WhitelistNetworkType":"MIX"}]}}`
	if err := json.Unmarshal([]byte(raw), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Items) != 2 || resp.Items[1].DBInstanceIPArrayAttribute != IPArrayHidden {
		t.Fatalf("items %+v", resp.Items)
	}
	if a := resp.Array("Default"); a == nil || a.SecurityIPList != "10.0.0.1,10.0.0.0/24" {
		t.Fatalf("default array %+v", a)
	}
	if a := resp.Array("dtspublic"); a != nil {
		t.Fatalf("an array that is not listed: %+v", a)
	}
	for _, empty := range []string{`{"RequestId":"r","Items":""}`, `{"RequestId":"r","Items":null}`, `{"RequestId":"r"}`, `{"RequestId":"r","Items":{}}`} {
		var out DescribeDBInstanceIPArrayListResponse
		if err := json.Unmarshal([]byte(empty), &out); err != nil || len(out.Items) != 0 || out.Array(DefaultSecurityIPArray) != nil {
			t.Errorf("%s: %+v, %v", empty, out, err)
		}
	}
	var bad DescribeDBInstanceIPArrayListResponse
	if err := json.Unmarshal([]byte(`{"Items":{"DBInstanceIPArray":"x"}}`), &bad); err == nil {
		t.Error("a malformed Items must be an error, not an empty list")
	}
}
