package rdsservice

import "testing"

// Only a destroy that releases the instance deletes what goes with a release (the data-loss oracle found
// the copies of an abandoned subscription named as deleted, and prevent_data_loss refusing its destroy).
func TestDestroyReleasesOnlyWhatItReleases(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  DestroyRequest
		want bool
	}{
		{"pay-as-you-go", DestroyRequest{InstanceID: "rm-1"}, true},
		{"subscription converted and released", DestroyRequest{InstanceID: "rm-1", Prepaid: true, OnDestroy: OnDestroyConvertAndDelete}, true},
		{"subscription abandoned", DestroyRequest{InstanceID: "rm-1", Prepaid: true, OnDestroy: OnDestroyAbandon}, false},
		{"deletion protection (refused)", DestroyRequest{InstanceID: "rm-1", DeletionProtection: true}, false},
	} {
		if got := DestroyReleases(tc.req); got != tc.want {
			t.Errorf("%s: DestroyReleases = %t, want %t", tc.name, got, tc.want)
		}
	}
}
