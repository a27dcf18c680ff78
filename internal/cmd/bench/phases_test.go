package main

import (
	"bufio"
	"strings"
	"testing"
	"time"
)

func TestParsePhasesOfATraceLog(t *testing.T) {
	start := time.Date(2026, 12, 2, 4, 23, 9, 900_000_000, time.UTC)
	log := `2026-12-02T04:23:10.018Z [INFO]  Terraform version: 1.11.4
2026-12-02T04:23:10.138Z [TRACE] statemgr.Filesystem: read snapshot with lineage "x" serial 301
2026-12-02T04:23:10.276Z [TRACE] GRPCProvider.v6: GetProviderSchema
2026-12-02T04:23:10.648Z [TRACE] GRPCProvider.v6: ConfigureProvider
2026-12-02T04:23:11.096Z [TRACE] GRPCProvider.v6: UpgradeResourceState
2026-12-02T04:23:11.174Z [TRACE] GRPCProvider.v6: ReadResource
2026-12-02T04:23:11.200Z [TRACE] GRPCProvider.v6: ReadResource
2026-12-02T04:23:31.000Z [TRACE] GRPCProvider.v6: PlanResourceChange
2026-12-02T04:23:31.550Z [TRACE] GRPCProvider.v6: PlanResourceChange
a continued line without a timestamp
2026-12-02T04:23:32.059Z [INFO]  backend/local: plan operation completed
`
	phases := parsePhases(bufio.NewScanner(strings.NewReader(log)), start)
	want := map[string]float64{"Terraform logging": 0.118, "state read": 0.238, "GetProviderSchema": 0.376,
		"ConfigureProvider": 0.748, "first UpgradeResourceState": 1.196,
		"first ReadResource": 1.274, "last PlanResourceChange": 21.65, "plan operation completed": 22.159}
	if len(phases) != len(want) {
		t.Fatalf("phases %v, want %d of them", phases, len(want))
	}
	for i, p := range phases {
		if w, ok := want[p.Name]; !ok || p.At < w-1e-9 || p.At > w+1e-9 {
			t.Errorf("%s at +%.3f s, want +%.3f s", p.Name, p.At, w)
		}
		if i > 0 && p.At < phases[i-1].At {
			t.Errorf("%s out of order", p.Name)
		}
	}
	if got := phasesShown(phases[:2]); !strings.Contains(got, "Terraform logging +0.12, state read +0.24") {
		t.Errorf("shown %q", got)
	}
}
