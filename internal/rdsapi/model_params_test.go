package rdsapi

import (
	"context"
	"testing"
	"time"
)

// TestRequestsFollowTheModels: parameters the rds-20140815 request models define, no others
// (issue 47 §1 items 2 and 5). ModifyResourceGroup, TransformDBInstancePayType and
// ModifyDasInstanceConfig have no RegionId; DescribeHistoryTasks requires FromStartTime and ToStartTime, sent as the 30 days
// either side of the cloud's now.
func TestRequestsFollowTheModels(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(success(`{"RequestId":"r","OrderId":1,"Items":[]}`)))
	c := newTestClient(t, server, 0)
	ctx := context.Background()
	if err := c.ModifyResourceGroup(ctx, "rm-1", "rg-acfm1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TransformDBInstancePayType(ctx, &TransformDBInstancePayTypeRequest{DBInstanceID: "rm-1", PayType: PayTypePostpaid}); err != nil {
		t.Fatal(err)
	}
	if err := c.ModifyDasInstanceConfig(ctx, "rm-1", StorageAutoScale{}); err != nil {
		t.Fatal(err)
	}
	before := time.Now().UTC()
	if _, err := c.DescribeHistoryTasks(ctx, &DescribeHistoryTasksRequest{InstanceID: "rm-1"}); err != nil {
		t.Fatal(err)
	}
	seen := cloud.requests()
	if len(seen) != 4 {
		t.Fatalf("%d requests, want 4", len(seen))
	}
	for _, r := range seen[:3] {
		if r.Query.Has("RegionId") {
			t.Errorf("%s sends RegionId, which its model lacks", r.Action)
		}
	}
	for name, want := range map[string]time.Time{"FromStartTime": before.Add(-30 * 24 * time.Hour), "ToStartTime": before.Add(30 * 24 * time.Hour)} {
		got, err := time.Parse("2006-01-02T15:04:05Z", seen[3].Query.Get(name))
		if err != nil || got.Sub(want).Abs() > time.Minute {
			t.Errorf("DescribeHistoryTasks %s = %q, want about %s", name, seen[3].Query.Get(name), want.Format(time.RFC3339))
		}
	}
}
