package rdsapi

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEncodeModifyParameter(t *testing.T) {
	p, err := encodeModifyParameter(&ModifyParameterRequest{DBInstanceID: "rm-1",
		Parameters: map[string]string{"sync_binlog": "1000", "innodb_io_capacity": "4000"}, Forcerestart: true})
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	if err := json.Unmarshal([]byte(p["Parameters"]), &body); err != nil || body["sync_binlog"] != "1000" || len(body) != 2 {
		t.Fatalf("Parameters = %q (%v)", p["Parameters"], err)
	}
	// A stable body: the same map always encodes the same way (the idempotency fingerprint).
	if p["Parameters"] != `{"innodb_io_capacity":"4000","sync_binlog":"1000"}` {
		t.Fatalf("Parameters not sorted: %s", p["Parameters"])
	}
	if p["Forcerestart"] != "true" || p["SwitchTimeMode"] != "" || p["DBInstanceId"] != "rm-1" || !strings.HasPrefix(p["ClientToken"], "tf-rds-") {
		t.Fatalf("params %v", p)
	}
	p, _ = encodeModifyParameter(&ModifyParameterRequest{DBInstanceID: "rm-1", Parameters: map[string]string{"a": "b"}})
	if p["Forcerestart"] != "false" {
		t.Fatalf("Forcerestart must be sent explicitly, got %q", p["Forcerestart"])
	}
	for name, bad := range map[string]*ModifyParameterRequest{
		"no instance":           {Parameters: map[string]string{"a": "b"}},
		"no parameters":         {DBInstanceID: "rm-1"},
		"empty name":            {DBInstanceID: "rm-1", Parameters: map[string]string{" ": "b"}},
		"schedule without time": {DBInstanceID: "rm-1", Parameters: map[string]string{"a": "b"}, SwitchTimeMode: SwitchTimeScheduleTime},
		"token too long":        {DBInstanceID: "rm-1", Parameters: map[string]string{"a": "b"}, ClientToken: strings.Repeat("x", 65)},
		"token with a space":    {DBInstanceID: "rm-1", Parameters: map[string]string{"a": "b"}, ClientToken: "a b"},
	} {
		if _, err := encodeModifyParameter(bad); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDecodeParameterAnswers(t *testing.T) {
	var tmpl DescribeParameterTemplatesResponse
	raw := `{"RequestId":"r","Engine":"MySQL","EngineVersion":"8.0","ParameterCount":"2","Parameters":{"TemplateRecord":[
		{"ParameterName":"back_log","ParameterValue":"3000","CheckingCode":"[0-65535]","ForceModify":"true","ForceRestart":"true","ParameterDescription":"d"},
		{"ParameterName":"innodb_page_size","ParameterValue":"16384","CheckingCode":"[16384]","ForceModify":false,"ForceRestart":true}]}}`
	if err := json.Unmarshal([]byte(raw), &tmpl); err != nil {
		t.Fatal(err)
	}
	recs := tmpl.Parameters.TemplateRecord
	if tmpl.ParameterCount != 2 || len(recs) != 2 || !bool(recs[0].ForceModify) || !bool(recs[0].ForceRestart) || bool(recs[1].ForceModify) {
		t.Fatalf("template %+v", tmpl)
	}
	var params DescribeParametersResponse
	raw = `{"RequestId":"r","Engine":"MySQL","EngineVersion":"8.0",
		"RunningParameters":{"DBInstanceParameter":[{"ParameterName":"back_log","ParameterValue":"3000"},{"ParameterName":" ","ParameterValue":"x"}]},
		"ConfigParameters":{"DBInstanceParameter":[{"ParameterName":"back_log","ParameterValue":"5000"}]}}`
	if err := json.Unmarshal([]byte(raw), &params); err != nil {
		t.Fatal(err)
	}
	running, waiting := params.RunningParameters.Values(), params.ConfigParameters.Values()
	if len(running) != 1 || running["back_log"] != "3000" || waiting["back_log"] != "5000" {
		t.Fatalf("running %v waiting %v", running, waiting)
	}
}
