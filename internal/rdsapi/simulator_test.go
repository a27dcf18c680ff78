package rdsapi_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// These tests run the real client against the local RDS simulator: the same wire protocol,
// signature checks, error codes and status machine the provider meets.

func simulatorClient(t *testing.T, opts simulator.Options, keyID, secret string, maxRetries int) (*simulator.Simulator, *rdsapi.Client) {
	t.Helper()
	sim, err := simulator.New(opts) // zero durations: instant transitions
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(sim)
	t.Cleanup(server.Close)
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").SetAccessKeyId(keyID).SetAccessKeySecret(secret))
	if err != nil {
		t.Fatal(err)
	}
	c, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: server.URL, Credentials: cred, MaxRetries: maxRetries})
	if err != nil {
		t.Fatal(err)
	}
	rdsapi.SetRetryWait(c, time.Millisecond, 5*time.Millisecond)
	return sim, c
}

func newMySQL(description string) *rdsapi.CreateDBInstanceRequest {
	return &rdsapi.CreateDBInstanceRequest{
		ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-test", VSwitchID: "vsw-test", SecurityIPList: "10.0.0.0/8",
		DBInstanceDescription: description, OptimizedWrites: rdsapi.OptimizedWritesOn,
	}
}

// poll reads the instance until ready says yes, for at most two seconds.
func poll(t *testing.T, c *rdsapi.Client, id string, ready func(*rdsapi.DBInstanceAttribute, error) bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		attr, err := c.DescribeDBInstanceAttribute(context.Background(), id)
		if ready(attr, err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never became ready: last %+v, %v", id, attr, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSimulatorLifecycle(t *testing.T) {
	_, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 3)
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, newMySQL("lifecycle"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	poll(t, c, id, func(a *rdsapi.DBInstanceAttribute, err error) bool {
		return err == nil && a.DBInstanceStatus == rdsapi.StatusRunning && a.OptimizedWrites != nil && a.OptimizedWrites.Enabled
	})
	if _, err := c.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{
		DBInstanceID: id, DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 20, OptimizedWrites: rdsapi.OptimizedWritesOff,
	}); err != nil {
		t.Fatal(err)
	}
	poll(t, c, id, func(a *rdsapi.DBInstanceAttribute, err error) bool {
		return err == nil && a.DBInstanceStatus == rdsapi.StatusRunning && a.OptimizedWrites != nil && !a.OptimizedWrites.Enabled && a.OptimizedWrites.Supported
	})
	if err := c.ModifyDBInstanceDescription(ctx, id, "renamed"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteDBInstance(ctx, id); err != nil {
		t.Fatal(err)
	}
	poll(t, c, id, func(_ *rdsapi.DBInstanceAttribute, err error) bool { return rdsapi.IsNotFound(err) })
}

// TestSimulatorFaultsNeverDoubleCreate: with throttling, 503s and lost responses injected, every
// create still succeeds through retries, and the ClientToken keeps it to one instance each.
func TestSimulatorFaultsNeverDoubleCreate(t *testing.T) {
	sim, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 30)
	ctx := context.Background()
	sim.SetFaults(simulator.Faults{ThrottleRate: 0.3, ErrorRate: 0.2, DropResponseRate: 0.3})
	const creates = 6
	for i := range creates {
		if _, err := c.CreateDBInstance(ctx, newMySQL(fmt.Sprintf("faulty-%d", i))); err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	sim.SetFaults(simulator.Faults{})
	page, err := c.DescribeDBInstances(ctx, &rdsapi.DescribeDBInstancesRequest{MaxResults: 100})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(page.Items.DBInstance); n != creates {
		t.Errorf("%d instances after %d creates (%d CreateDBInstance requests)", n, creates, sim.Stats().Requests["CreateDBInstance"])
	}
	if sim.Stats().Requests["CreateDBInstance"] <= creates {
		t.Logf("no fault hit a create this run (requests: %v)", sim.Stats().Requests)
	}
}

func TestSimulatorPagination(t *testing.T) {
	_, c := simulatorClient(t, simulator.Options{Seed: true}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 0)
	ctx := context.Background()
	all, err := c.DescribeDBInstances(ctx, &rdsapi.DescribeDBInstancesRequest{PageSize: 100, PageNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	total := len(all.Items.DBInstance)
	if total < 4 || int(all.TotalRecordCount) != total {
		t.Fatalf("seeded list has %d items, total %d", total, all.TotalRecordCount)
	}

	var tokenIDs []string
	req := &rdsapi.DescribeDBInstancesRequest{MaxResults: 1}
	for range 100 {
		page, err := c.DescribeDBInstances(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range page.Items.DBInstance {
			tokenIDs = append(tokenIDs, item.DBInstanceID)
		}
		if page.NextToken == "" {
			break
		}
		req.NextToken = page.NextToken
	}
	var classicIDs []string
	for number := int64(1); number <= 100; number++ {
		page, err := c.DescribeDBInstances(ctx, &rdsapi.DescribeDBInstancesRequest{PageSize: 1, PageNumber: number})
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range page.Items.DBInstance {
			classicIDs = append(classicIDs, item.DBInstanceID)
		}
		if int64(len(classicIDs)) >= int64(page.TotalRecordCount) {
			break
		}
	}
	if len(tokenIDs) != total || len(classicIDs) != total {
		t.Errorf("token paging found %d, classic %d, want %d", len(tokenIDs), len(classicIDs), total)
	}
}

func TestSimulatorRefusesWrongCredentialsWithoutRetrying(t *testing.T) {
	for _, tt := range []struct{ keyID, secret, code string }{
		{simulator.DefaultAccessKeyID, "wrong-secret", "SignatureDoesNotMatch"},
		{"unknown-key", simulator.DefaultAccessKeySecret, "InvalidAccessKeyId.NotFound"},
	} {
		sim, c := simulatorClient(t, simulator.Options{Seed: true}, tt.keyID, tt.secret, 5)
		_, err := c.DescribeDBInstanceAttribute(context.Background(), "rm-seedbasic")
		if rdsapi.ErrorCode(err) != tt.code {
			t.Errorf("err = %v, want %s", err, tt.code)
		}
		if n := sim.Stats().Requests["DescribeDBInstanceAttribute"]; n > 1 {
			t.Errorf("%s retried: %d requests", tt.code, n)
		}
	}
}
