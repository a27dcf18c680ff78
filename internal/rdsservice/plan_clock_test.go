package rdsservice

import (
	"context"
	"testing"
	"time"
)

// An apply's provider plans its final plan before it has heard from the cloud: its clock is the local one
// until the first answer sets it to the cloud's (here eight days ahead, as the oracle's data-loss worlds run
// it). An existing primary turning atomic_write_16k on in its window, whose first read is its read-only
// instances, defers to the cloud's next window. Taken before the reads, the clock planned a window the cloud
// had passed (2026-12-07), and the read-only instance's plan, reading that start, followed the toggle now
// (oracle seed 20261206, mechanism "ignore_changes on the class, changed outside").
func TestExistingPrimaryDefersToTheCloudsWindow(t *testing.T) {
	api := primaryWithReadOnly()
	local, cloud := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC), time.Date(2026, 12, 14, 10, 0, 0, 0, time.UTC)
	env := factsEnv(api)
	env.Now = func() time.Time {
		if len(api.reads) > 0 {
			return cloud
		}
		return local
	}
	prior := &ExistingInstance{ID: "rm-1 (label)", Engine: "MySQL", EngineVersion: "8.0", InstanceClass: "mysql.n2.medium.2c", Storage: 100,
		StorageType: "cloud_essd", Category: "HighAvailability", Supported: true}
	desired := Desired{AtomicWrite: Known(true), Storage: Known[int64](100), ApplyRestarts: ApplyRestartsInWindow, MaintenanceWindow: Known("04:00Z-05:00Z")}
	plan := PlanInstance(context.Background(), env, InstanceRequest{ID: "rm-1", Input: PlanInput{Prior: prior, Desired: desired}})
	if !plan.Deferred || plan.DeferredStartsAt != "2026-12-15T04:00:00Z" || len(api.reads) == 0 {
		t.Fatalf("deferred %t to %q after reads %v, want the cloud's next window 2026-12-15T04:00:00Z", plan.Deferred, plan.DeferredStartsAt, api.reads)
	}
}
