package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestParseListenLine(t *testing.T) {
	got, err := parseListenLine("listening on http://127.0.0.1:40123\n")
	if err != nil || got != "http://127.0.0.1:40123" {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, bad := range []string{"", "starting", "listening on ftp://x", "listening on "} {
		if _, err := parseListenLine(bad); err == nil {
			t.Errorf("%q: expected an error", bad)
		}
	}
}

func TestParseReattachLine(t *testing.T) {
	line := "\tTF_REATTACH_PROVIDERS='{\"registry.terraform.io/openrds/rds\":{\"Protocol\":\"grpc\",\"ProtocolVersion\":6," +
		"\"Pid\":42,\"Test\":true,\"Addr\":{\"Network\":\"unix\",\"String\":\"/tmp/plugin1\"}}}'"
	got, ok := parseReattachLine(line)
	if !ok || !strings.HasPrefix(got, "{\"registry.terraform.io/openrds/rds\"") || !strings.HasSuffix(got, "}}}") {
		t.Fatalf("got %q, %v", got, ok)
	}
	for _, bad := range []string{"Provider started.", "TF_REATTACH_PROVIDERS='not json'", "\tCommand Prompt:\tset \"TF_REATTACH_PROVIDERS={}\""} {
		if _, ok := parseReattachLine(bad); ok {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestParseVmHWM(t *testing.T) {
	status := "Name:\tterraform-provi\nVmPeak:\t  900000 kB\nVmHWM:\t   41234 kB\nVmRSS:\t   40000 kB\n"
	got, err := parseVmHWM(status)
	if err != nil || got != 41234 {
		t.Fatalf("got %d, %v", got, err)
	}
	if _, err := parseVmHWM("Name: x\n"); err == nil {
		t.Error("missing VmHWM accepted")
	}
}

func TestCountAddresses(t *testing.T) {
	out := "╷\n│ Warning: Provider development overrides are in effect\n╵\nrds_instance.bench[0]\nrds_instance.bench[1]\n\nterraform_data.x\n"
	if got := countAddresses(out); got != 3 {
		t.Fatalf("got %d, want 3", got)
	}
}

func TestParseResourceTypes(t *testing.T) {
	doc := `warning text {not json
{"format_version":"1.0","provider_schemas":{"registry.terraform.io/openrds/rds":{"resource_schemas":{"rds_instance":{},"rds_readonly_instance":{}}}}}`
	types, err := parseResourceTypes(jsonDocument(doc))
	if err != nil || !types["rds_readonly_instance"] {
		t.Fatalf("a brace inside a warning line must not be taken for the document: %v, %v", types, err)
	}
	doc = "╷\n│ Warning: overrides\n╵\n" + `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/openrds/rds":{"resource_schemas":{"rds_instance":{},"rds_readonly_instance":{}}}}}`
	types, err = parseResourceTypes(jsonDocument(doc))
	if err != nil || !types["rds_instance"] || !types["rds_readonly_instance"] || types["x"] {
		t.Fatalf("got %v, %v", types, err)
	}
}

func TestBaseEnvDropsInfluences(t *testing.T) {
	env := baseEnv([]string{"PATH=/bin", "TF_LOG=trace", "TF_REATTACH_PROVIDERS={}", "ALIBABA_CLOUD_ACCESS_KEY_ID=real",
		"ALICLOUD_SECRET_KEY=real", "HOME=/root"}, "/tmp/rc")
	joined := strings.Join(env, "\n")
	for _, bad := range []string{"TF_LOG", "TF_REATTACH", "=real"} {
		if strings.Contains(joined, bad) {
			t.Errorf("environment keeps %s:\n%s", bad, joined)
		}
	}
	for _, good := range []string{"PATH=/bin", "HOME=/root", "TF_CLI_CONFIG_FILE=/tmp/rc", "CHECKPOINT_DISABLE=1",
		"ALIBABA_CLOUD_ACCESS_KEY_ID=" + simAccessKeyID} {
		if !strings.Contains(joined, good) {
			t.Errorf("environment lacks %s", good)
		}
	}
}

func TestCountsAndStats(t *testing.T) {
	if !equalCounts(map[string]int{"a": 1, "b": 0}, map[string]int{"a": 1}) {
		t.Error("zero entries should not matter")
	}
	if equalCounts(map[string]int{"a": 2}, map[string]int{"a": 1}) || equalCounts(map[string]int{"a": 1, "c": 1}, map[string]int{"a": 1}) {
		t.Error("different counts compared equal")
	}
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %v", m)
	}
	if m := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Errorf("median %v", m)
	}
	if allPass([]*figure{{Status: statusPass}, {Status: statusNotRun}}) || allPass(nil) {
		t.Error("a figure that did not run, or no figure at all, is not a pass")
	}
}

func TestSimulatorArgs(t *testing.T) {
	args := strings.Join(simOptions{CreateDuration: 1e10, RestartDuration: 1e9, ThrottleRate: 0.2}.args(), " ")
	for _, want := range []string{"-listen 127.0.0.1:0", "-create-duration 10s", "-restart-duration 1s", "-throttle-rate 0.2"} {
		if !strings.Contains(args, want) {
			t.Errorf("%q lacks %q", args, want)
		}
	}
	if strings.Contains(strings.Join(simOptions{}.args(), " "), "throttle") {
		t.Error("no throttling flag expected without a rate")
	}
}

// The generated configurations must be valid HCL; terraform fmt parses them without a provider.
func TestConfigsParse(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform not on PATH")
	}
	for name, cfg := range map[string]string{
		"many":        manyInstancesConfig(3),
		"extras":      fleetExtrasConfig(3),
		"data":        terraformDataConfig(3),
		"null":        nullProviderConfig(3),
		"restarts":    restartsConfig(false),
		"restarts+ro": restartsConfig(true),
	} {
		cmd := exec.Command(tf, "fmt", "-")
		cmd.Stdin = strings.NewReader(cfg)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: terraform fmt: %v\n%s\n%s", name, err, stderr.String(), cfg)
		}
	}
	for _, attr := range []string{"security_ips", "parameters", "tags"} {
		if strings.Count(fleetExtrasConfig(3), attr+" ") != 1 {
			t.Errorf("figure 10's configuration sets %s not once:\n%s", attr, fleetExtrasConfig(3))
		}
	}
	if !strings.Contains(restartsConfig(true), `resource "rds_readonly_instance" "ro"`) ||
		strings.Contains(restartsConfig(false), "rds_readonly_instance") {
		t.Error("read-only instances must appear only when asked for")
	}
}

func TestParseStatCPU(t *testing.T) {
	stat := "4242 (terraform-provi der) S 1 4242 4242 0 -1 4194560 1000 0 0 0 203 11 0 0 20 0 9 0 100 0 0"
	got, err := parseStatCPU(stat)
	if err != nil || got.Milliseconds() != 2140 {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := parseStatCPU("garbage"); err == nil {
		t.Error("garbage accepted")
	}
}

func TestLimitedWriter(t *testing.T) {
	var buf bytes.Buffer
	w := &limitedWriter{w: &buf, left: 5}
	for _, s := range []string{"abc", "defg", "hij"} {
		if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
			t.Fatalf("write %q: %d, %v", s, n, err)
		}
	}
	if buf.String() != "abcde" {
		t.Fatalf("kept %q", buf.String())
	}
}

func TestCutState(t *testing.T) {
	dir := t.TempDir()
	src, dst := dir+"/big.tfstate", dir+"/small.tfstate"
	state := `{"version":4,"lineage":"l","outputs":{"ids":{"value":["a","b","c"],"type":["tuple",["string","string","string"]]}},
"resources":[{"mode":"managed","type":"rds_instance","name":"bench","instances":[{"index_key":0},{"index_key":1},{"index_key":2}]}]}`
	if err := os.WriteFile(src, []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cutState(src, dst, 2); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(dst)
	var got struct {
		Outputs struct {
			IDs struct {
				Value []string
				Type  []any
			} `json:"ids"`
		}
		Resources []struct{ Instances []map[string]any }
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Resources[0].Instances) != 2 || strings.Join(got.Outputs.IDs.Value, ",") != "a,b" ||
		len(got.Outputs.IDs.Type[1].([]any)) != 2 {
		t.Fatalf("cut state: %s", data)
	}
	if err := cutState(src, dst, 4); err == nil {
		t.Error("keeping more instances than the state holds was accepted")
	}
}

func TestParsePprofTop(t *testing.T) {
	out := `File: terraform-provider-rds-pprof
      flat  flat%   sum%        cum   cum%
         0     0%     0%      4.64s 74.12%  google.golang.org/grpc.(*Server).handleStream
         0     0% 23.48%      0.53s  8.47%  github.com/openrds/terraform-provider-rds/internal/provider.(*instanceResource).Read
         0     0% 35.94%      0.21s  3.35%  github.com/openrds/terraform-provider-rds/internal/rdsapi.(*Client).DescribeDBInstanceAttribute
`
	got := parsePprofTop(out, ownPackage, 1)
	if len(got) != 1 || got[0].Function != "provider.(*instanceResource).Read" || got[0].CumPct != 8.47 {
		t.Fatalf("got %+v", got)
	}
	if all := parsePprofTop(out, ownPackage, 10); len(all) != 2 {
		t.Fatalf("got %+v", all)
	}
}

func TestJudgeSharedTakesTheSlowerPlan(t *testing.T) {
	st := simStats{Throttled: map[string]int{}}
	plans := []quotaPlan{{wall: 41}, {wall: 47}}
	unquoted := []quotaPlan{{wall: 12}, {wall: 13}}
	f := &figure{}
	judgeShared(f, plans, unquoted, 40, 50, st)
	// 47 s over max(40 s, 12 s, 13 s) is 1.175: the slower plan misses 1.15.
	if f.Value == nil || *f.Value < 1.17 || *f.Value > 1.18 || f.Status != statusFail {
		t.Errorf("value %v, status %s; want 1.175 and a miss", f.Value, f.Status)
	}
	plans[1] = quotaPlan{wall: 44, surfaced: 1, log: "plan.log"}
	f = &figure{}
	judgeShared(f, plans, unquoted, 40, 50, st)
	if f.Status != statusFail || !strings.Contains(f.Note, "throttling shown") {
		t.Errorf("a throttling answer shown to the user passed: %s, %q", f.Status, f.Note)
	}
	plans[1] = quotaPlan{wall: 44}
	f = &figure{}
	judgeShared(f, plans, unquoted, 40, 50, st)
	if f.Status != statusPass {
		t.Errorf("44 s over 40 s (1.10) failed: %q", f.Note)
	}
}
