package rdsservice

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

func summaries(ids ...string) []rdsapi.DBInstanceSummary {
	out := make([]rdsapi.DBInstanceSummary, len(ids))
	for i, id := range ids {
		out[i].DBInstanceID = id
	}
	return out
}

func page(next string, ids ...string) *rdsapi.DescribeDBInstancesResponse {
	resp := &rdsapi.DescribeDBInstancesResponse{NextToken: next}
	resp.Items.DBInstance = summaries(ids...)
	return resp
}

func TestListAllDBInstancesReadsEveryPage(t *testing.T) {
	api := newFakeAPI(newFakeClock())
	api.pages = map[string]*rdsapi.DescribeDBInstancesResponse{
		"":   page("t1", "rm-1", "rm-2"),
		"t1": page("t2", "rm-3"),
		"t2": page("", "rm-4"),
	}
	got, err := ListAllDBInstances(context.Background(), api, &rdsapi.DescribeDBInstancesRequest{
		RegionID: "cn-hangzhou", Engine: "MySQL", PageSize: 30, PageNumber: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range got {
		ids = append(ids, s.DBInstanceID)
	}
	if strings.Join(ids, ",") != "rm-1,rm-2,rm-3,rm-4" {
		t.Fatalf("got %v", ids)
	}
	for _, r := range api.listReqs {
		if r.MaxResults != 100 || r.PageSize != 0 || r.PageNumber != 0 || r.Engine != "MySQL" || r.RegionID != "cn-hangzhou" {
			t.Fatalf("request %+v: token mode with the caller's filters expected", r)
		}
	}
	if len(api.listReqs) != 3 || api.listReqs[2].NextToken != "t2" {
		t.Fatalf("requests %+v", api.listReqs)
	}
}

func TestListAllDBInstancesStopsOnARepeatedToken(t *testing.T) {
	api := newFakeAPI(newFakeClock())
	api.pages = map[string]*rdsapi.DescribeDBInstancesResponse{
		"":   page("t1", "rm-1"),
		"t1": page("t2", "rm-2"),
		"t2": page("t1", "rm-3"),
	}
	_, err := ListAllDBInstances(context.Background(), api, nil)
	if err == nil || !strings.Contains(err.Error(), `the server returned NextToken "t1" again on page 3`) {
		t.Fatalf("got %v", err)
	}
	if len(api.listReqs) != 3 {
		t.Fatalf("%d requests", len(api.listReqs))
	}

	api.pages = map[string]*rdsapi.DescribeDBInstancesResponse{"": page("", "rm-1")}
	api.listReqs = nil
	api.pages["x"] = nil
	if _, err := ListAllDBInstances(context.Background(), api, &rdsapi.DescribeDBInstancesRequest{NextToken: "nope"}); err == nil || !strings.Contains(err.Error(), "page 1") {
		t.Fatalf("page error should name the page: %v", err)
	}
}
