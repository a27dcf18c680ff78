package rdsapi_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Config.Now is the clock each attempt is signed with: a client on the cloud's clock is answered
// however far that clock is from this machine's; one on the wall clock, an hour off the cloud's,
// is refused for its timestamp (the check stays).
func TestClientSignsWithConfiguredClock(t *testing.T) {
	ahead := time.Now().UTC().Add(time.Hour)
	cloudNow := func() time.Time { return ahead }
	sim, err := simulator.New(simulator.Options{Now: cloudNow})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(sim)
	t.Cleanup(server.Close)
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").
		SetAccessKeyId(simulator.DefaultAccessKeyID).SetAccessKeySecret(simulator.DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		now  func() time.Time
		code string
	}{{"the cloud's clock", cloudNow, ""}, {"the wall clock", nil, "InvalidTimeStamp.Expired"}} {
		client, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: server.URL, Credentials: cred, Now: c.now})
		if err != nil {
			t.Fatal(err)
		}
		_, err = client.DescribeRegions(context.Background())
		if got := rdsapi.ErrorCode(err); got != c.code {
			t.Errorf("signed with %s: code %q (%v), want %q", c.name, got, err, c.code)
		}
	}
}
