package rdsapi

import (
	"context"
	"net/http"
	"testing"
)

// The two modes of ModifyBackupPolicy carry their own fields; zero local retention is sent (it
// means "keep none"), unset optional fields are left out, and a policy answer decodes the string
// and number spellings the cloud uses.
func TestBackupPolicyEncoding(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(success(`{"RequestId":"r"}`)))
	c := newTestClient(t, server, 0)
	ctx := context.Background()
	zero := int64(0)
	if err := c.ModifyDataBackupPolicy(ctx, &DataBackupPolicyRequest{DBInstanceID: "rm-1", PreferredBackupTime: "02:00Z-03:00Z",
		PreferredBackupPeriod: []string{"Monday", "Thursday"}, BackupRetentionPeriod: 30, Category: "Flash", ArchiveBackupRetentionPeriod: &zero}); err != nil {
		t.Fatal(err)
	}
	if err := c.ModifyLogBackupPolicy(ctx, &LogBackupPolicyRequest{DBInstanceID: "rm-1", HighSpaceUsageProtection: "Enable", LogBackupRetentionPeriod: 7}); err != nil {
		t.Fatal(err)
	}
	seen := cloud.requests()
	if len(seen) != 2 {
		t.Fatalf("%d requests", len(seen))
	}
	data, log := seen[0].Query, seen[1].Query
	for name, want := range map[string]string{"BackupPolicyMode": "DataBackupPolicy", "PreferredBackupPeriod": "Monday,Thursday",
		"BackupRetentionPeriod": "30", "Category": "Flash", "ArchiveBackupRetentionPeriod": "0"} {
		if data.Get(name) != want {
			t.Errorf("data %s = %q, want %q", name, data.Get(name), want)
		}
	}
	if data.Has("BackupInterval") || data.Has("EnableBackupLog") || data.Has("LocalLogRetentionHours") {
		t.Errorf("data mode sent other fields: %v", data)
	}
	for name, want := range map[string]string{"BackupPolicyMode": "LogBackupPolicy", "EnableBackupLog": "0", "LocalLogRetentionHours": "0",
		"LocalLogRetentionSpace": "0", "HighSpaceUsageProtection": "Enable", "LogBackupRetentionPeriod": "7"} {
		if log.Get(name) != want {
			t.Errorf("log %s = %q, want %q", name, log.Get(name), want)
		}
	}
	if log.Has("PreferredBackupTime") || log.Has("BackupRetentionPeriod") {
		t.Errorf("log mode sent data fields: %v", log)
	}
	if err := c.ModifyDataBackupPolicy(ctx, &DataBackupPolicyRequest{DBInstanceID: "rm-1"}); err == nil || len(cloud.requests()) != 2 {
		t.Errorf("an incomplete data policy must fail before sending: %v", err)
	}
}

func TestDescribeBackupPolicyDecodes(t *testing.T) {
	_, server := newFakeCloud(t, answers(rawAnswer(http.StatusOK, `{"RequestId":"r","PreferredBackupTime":"02:00Z-03:00Z",
		"PreferredBackupPeriod":"Monday,Friday","BackupRetentionPeriod":7,"BackupInterval":"-1","ArchiveBackupRetentionPeriod":"365",
		"ArchiveBackupKeepCount":"2","EnableBackupLog":"1","LocalLogRetentionHours":18,"LocalLogRetentionSpace":"30","LogBackupRetentionPeriod":7}`)))
	p, err := newTestClient(t, server, 0).DescribeBackupPolicy(context.Background(), "rm-1")
	if err != nil {
		t.Fatal(err)
	}
	if !p.LogBackupEnabled() || p.ArchiveBackupRetentionPeriod != 365 || p.ArchiveBackupKeepCount != 2 || p.LocalLogRetentionSpace != 30 || p.BackupInterval != "-1" {
		t.Fatalf("decoded %+v", p)
	}
}

// DeleteDBInstanceKeeping names the policy; an empty one is left out (the backup policy decides).
func TestDeleteDBInstanceKeepingEncoding(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(success(`{"RequestId":"r"}`)))
	c := newTestClient(t, server, 0)
	for _, keep := range []string{ReleasedKeepAll, ""} {
		if err := c.DeleteDBInstanceKeeping(context.Background(), "rm-1", keep); err != nil {
			t.Fatal(err)
		}
	}
	seen := cloud.requests()
	if len(seen) != 2 || seen[0].Action != "DeleteDBInstance" || seen[0].Query.Get("ReleasedKeepPolicy") != "All" || seen[1].Query.Has("ReleasedKeepPolicy") {
		t.Fatalf("requests %+v", seen)
	}
}
