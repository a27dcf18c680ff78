package provider

import (
	"context"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// The oracle's clock moves only when the provider waits, as real time passes while a real provider
// waits. The clients sign with it (the provider's through RDSProvider.clock, the harness's direct
// one too), so a scenario whose waits add up to more than the 15 minutes the cloud accepts between a
// request's timestamp and its own clock is still answered (issue 39: a later run's wait for Running
// was answered InvalidTimeStamp.Expired while the client signed with the wall clock).
func TestOracleClientsSignWithTheScenarioClock(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	id, err := w.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		Storage: 20, StorageType: "cloud_essd", Category: "HighAvailability"})
	if err != nil {
		t.Fatal(err)
	}
	<-w.clock.After(40 * time.Minute) // the waits of a long apply
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.DescribeDBInstanceAttribute(context.Background(), id); err != nil {
		t.Fatalf("the direct client after 40 minutes of waits: %v", err)
	}
	if err := w.importInstance("rds_instance.primary", id); err != nil {
		t.Fatalf("the provider after 40 minutes of waits: %v", err)
	}
}
