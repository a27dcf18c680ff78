// Package simtest starts the simulator for tests that speak to it both through the API and as a
// MySQL client: instant transitions, MySQL endpoints on, and an API client signed with the
// simulator's default credentials.
package simtest

import (
	"net/http/httptest"
	"testing"

	"github.com/aliyun/credentials-go/credentials"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

// Start runs a simulator whose instances answer MySQL clients, on a loopback server closed when
// the test ends, and returns it with an API client for it and the server's URL.
func Start(t testing.TB) (*simulator.Simulator, *rdsapi.Client, string) {
	t.Helper()
	sim, err := simulator.New(simulator.Options{Endpoints: mysqlendpoint.ForSimulator}) // instant transitions
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	server := httptest.NewServer(sim)
	t.Cleanup(server.Close)
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").
		SetAccessKeyId(simulator.DefaultAccessKeyID).SetAccessKeySecret(simulator.DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	api, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: server.URL, Credentials: cred})
	if err != nil {
		t.Fatal(err)
	}
	return sim, api, server.URL
}
