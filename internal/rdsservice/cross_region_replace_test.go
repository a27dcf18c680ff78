package rdsservice

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// copiesAPI answers DescribeCrossRegionBackups with two copies of rm-1 and counts the reads.
type copiesAPI struct {
	factsAPI
	copyReads int
}

func (a *copiesAPI) DescribeCrossRegionBackups(_ context.Context, req *rdsapi.DescribeCrossRegionBackupsRequest) (*rdsapi.DescribeCrossRegionBackupsResponse, error) {
	a.copyReads++
	out := &rdsapi.DescribeCrossRegionBackupsResponse{TotalRecordCount: 2}
	for _, id := range []string{"c-1", "c-2"} {
		out.Items.Item = append(out.Items.Item, rdsapi.CrossRegionBackup{CrossBackupID: rdsapi.FlexString(id), CrossBackupRegion: "cn-shanghai",
			DBInstanceID: req.DBInstanceID, BackupStartTime: "1970-01-01T00:00:00Z"})
	}
	return out, nil
}

// TestReplacementNamesReleasedCopies: replacing a primary on cloud disks releases it, and with it
// its cross-region backups: the plan names them in the destroy's row, prevent_data_loss refuses
// it, and the copies are read only when the plan replaces an instance on cloud disks.
func TestReplacementNamesReleasedCopies(t *testing.T) {
	for _, c := range []struct {
		name, storage string
		replace       []string
		prevent       bool
		reads         int
		want          RuleID
		// abandon: a subscription that prepaid_on_destroy = "abandon" keeps in the cloud, copies and all.
		abandon bool
	}{
		{"replace cloud disk", "cloud_essd", []string{AttrEngine}, false, 1, RuleDataLossCrossRelease, false},
		{"replace guarded", "cloud_essd", []string{AttrEngine}, true, 1, RuleDataLossRefused, false},
		{"replace local disk", "local_ssd", []string{AttrEngine}, true, 0, "", false},
		{"in place", "cloud_essd", nil, true, 0, "", false},
		{"replace abandoned subscription", "cloud_essd", []string{AttrEngine}, true, 1, "", true},
	} {
		api := &copiesAPI{}
		prior := &ExistingInstance{ID: "rm-1", Engine: "MySQL", EngineVersion: "8.0", StorageType: c.storage, Storage: 100}
		req := InstanceRequest{ID: "rm-1", Replaced: c.replace, KeepPolicy: "Lastest",
			Input: PlanInput{Label: "rm-1", Prior: prior, Desired: Desired{Storage: Known[int64](100), PreventDataLoss: c.prevent}}}
		if c.abandon {
			req.Input.Desired.Billing.PriorPrepaid, req.Input.Desired.Billing.OnDestroy = true, OnDestroyAbandon
		}
		env := factsEnv(&api.factsAPI)
		env.API = api
		out := PlanInstance(context.Background(), env, req)
		if api.copyReads != c.reads || len(out.ReadFailures) > 0 {
			t.Errorf("%s: %d reads of the copies, want %d (%v)", c.name, api.copyReads, c.reads, out.ReadFailures)
		}
		var got *Problem
		for i, p := range out.Problems {
			if p.Rule == RuleDataLossCrossRelease || p.Rule == RuleDataLossRefused {
				got = &out.Problems[i]
			}
		}
		switch {
		case c.want == "" && got != nil:
			t.Errorf("%s: named %s", c.name, got.Summary)
		case c.want != "" && (got == nil || got.Rule != c.want || !strings.Contains(strings.ToLower(got.Summary), "releasing rm-1 deletes its 2 cross-region backups") ||
			!strings.Contains(got.Detail, "c-2 (in cn-shanghai")):
			t.Errorf("%s: got %+v, want %s naming both copies", c.name, got, c.want)
		}
	}
}
