package simulator

import "testing"

// The proxy's zone prerequisite reads a multi-zone id by its zones (README [P10]): one of them
// without the proxy refuses it, as a single zone without it does.
func TestProxyUnofferedZoneOfMultiZoneIDs(t *testing.T) {
	for id, want := range map[string]string{"cn-hangzhou-d": "cn-hangzhou-d", "cn-hangzhou-h": "", "cn-hangzhou-MAZ6(h,c)": "cn-hangzhou-c",
		"cn-hangzhou-MAZ5(b,e,d)": "cn-hangzhou-d", "cn-hangzhou-MAZ10(h,i)": "", "cn-beijing-MAZ1(c,d)": ""} {
		if got := proxyUnofferedZone(id); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}
