package rdsapi

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordingWritesScrubbedCassettes: with RDS_RECORD_CASSETTES set, every answer becomes a
// cassette with the request's parameters (query and form body) and the answer, and neither the
// credentials, the signature, a password nor an account id reaches the file. Off by default.
func TestRecordingWritesScrubbedCassettes(t *testing.T) {
	const uid = "1234567890123456"
	answer := `{"RequestId":"r","Items":[{"TaskId":"t-1","Uid":"` + uid + `","CallerUid":` + uid + `,` +
		`"TaskDetail":"{\"RoleArn\":\"acs:ram::` + uid + `:role/aliyunrdsinstanceencryptiondefaultrole\"}"}],"TotalCount":1}`
	_, server := newFakeCloud(t, answers(success(answer)))
	if c := newTestClient(t, server, 0); c.recorder != nil {
		t.Fatal("recording is on without RDS_RECORD_CASSETTES")
	}
	dir := filepath.Join(t.TempDir(), "cassettes")
	t.Setenv(RecordEnv, dir)
	c := newTestClient(t, server, 0)
	ctx := context.Background()
	if err := c.ResetAccountPassword(ctx, "rm-1", "app", "Secret-pass-9876"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeHistoryTasks(ctx, &DescribeHistoryTasksRequest{InstanceID: "rm-1"}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 2 || !strings.HasSuffix(files[0], "-0001-ResetAccountPassword.json") || !strings.HasSuffix(files[1], "-0002-DescribeHistoryTasks.json") {
		t.Fatalf("cassettes %v", files)
	}
	var all string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all += string(raw)
		var cs Cassette
		if err := json.Unmarshal(raw, &cs); err != nil || cs.Status != 200 || cs.Version != APIVersion || !strings.HasPrefix(cs.Source, "recorded ") {
			t.Fatalf("%s: %+v (%v)", f, cs, err)
		}
	}
	for _, secret := range []string{testKeyID, testSecret, "Secret-pass-9876", uid, "Signature", "Authorization"} {
		if strings.Contains(all, secret) {
			t.Errorf("a cassette contains %q:\n%s", secret, all)
		}
	}
	for _, want := range []string{`"AccountName": "app"`, `"AccountPassword": "<scrubbed>"`, `"Uid": "` + ScrubbedAccountID, `"CallerUid": ` + ScrubbedAccountID,
		`acs:ram::` + ScrubbedAccountID + `:role`, `"FromStartTime"`} {
		if !strings.Contains(all, want) {
			t.Errorf("the cassettes lack %s:\n%s", want, all)
		}
	}
}
