package rdsservice

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// "This plan deletes data" (issue 46 §3) is a rule family of the table, as restarts are: every
// plan that deletes data for good names what goes in a warning of the family's row for that kind
// of loss, and prevent_data_loss = true turns each into the refusal row, before anything is sent.

// AttrPreventDataLoss is the guard every resource that can delete data carries.
const AttrPreventDataLoss = "prevent_data_loss"

// Rule ids of the data-loss family.
const (
	RuleDataLossBackupSet RuleID = "data-loss-backup-set"
	RuleDataLossDatabase  RuleID = "data-loss-database"
	RuleDataLossRetention RuleID = "data-loss-backup-retention"
	RuleDataLossRefused   RuleID = "prevent-data-loss-refuses-data-loss"
)

// DataLossFamily are the family's warning rows, as the plan-rules guide lists them.
var DataLossFamily = []RuleID{RuleDataLossBackupSet, RuleDataLossDatabase, RuleDataLossRetention, RuleDataLossAudit,
	RuleDataLossCrossRegion, RuleDataLossCrossRelease}

// DataLoss is one loss a plan causes: the family's row and the arguments that name what goes.
type DataLoss struct {
	Rule  RuleID
	Value string
	Args  []any
}

// Problem is the loss's warning, or with prevent (prevent_data_loss = true) its refusal.
func (l DataLoss) Problem(prevent bool) Problem {
	warning := Raise(l.Rule, l.Value, l.Args...)
	if !prevent {
		return warning
	}
	// The warning's summary continues the refusal's ("prevent_data_loss refuses this plan: this apply deletes ...").
	loss := strings.ToLower(warning.Summary[:1]) + warning.Summary[1:]
	return Raise(RuleDataLossRefused, l.Value, loss, format(Rules[l.Rule].Detail, l.Args...))
}

// GuardDataLoss renders every loss of a plan: all warnings, or all refusals at once.
func GuardDataLoss(prevent bool, losses ...DataLoss) []Problem {
	out := make([]Problem, 0, len(losses))
	for _, l := range losses {
		out = append(out, l.Problem(prevent))
	}
	return out
}

// BackupSetLoss is the DeleteBackup of a destroyed (or replaced) rds_backup.
func BackupSetLoss(instanceID string, set *rdsapi.Backup) DataLoss {
	id := string(set.BackupID)
	return DataLoss{Rule: RuleDataLossBackupSet, Value: id, Args: []any{id, instanceID, set.BackupStartTime}}
}

// DatabaseLoss is the DeleteDatabase of a destroyed (or replaced) rds_database.
func DatabaseLoss(instanceID, name string) DataLoss {
	return DataLoss{Rule: RuleDataLossDatabase, Value: name, Args: []any{name, instanceID}}
}

// RetentionLoss is what lowering backup_retention_period from current to desired days deletes:
// the data backup sets that started more than desired days before now (RDS deletes them at once).
// ok is false when no set goes.
func RetentionLoss(instanceID string, current, desired int64, sets []rdsapi.Backup, now time.Time) (DataLoss, bool) {
	if desired >= current {
		return DataLoss{}, false
	}
	cutoff := now.Add(-time.Duration(desired) * 24 * time.Hour)
	var gone []string
	for _, s := range sets {
		start, err := time.Parse(BackupTimeLayout, s.BackupStartTime)
		if err == nil && start.Before(cutoff) {
			gone = append(gone, fmt.Sprintf("  - %s (%s, started %s)", s.BackupID, strings.ToLower(s.BackupMode), s.BackupStartTime))
		}
	}
	if len(gone) == 0 {
		return DataLoss{}, false
	}
	return DataLoss{Rule: RuleDataLossRetention, Value: i64(desired),
		Args: []any{len(gone), instanceID, current, desired, strings.Join(gone, "\n")}}, true
}

// PlanRetentionLoss reads the instance's data backup sets when the plan shortens
// backup_retention_period, and returns the loss (nil when nothing goes).
func PlanRetentionLoss(ctx context.Context, api rdsapi.API, instanceID string, current, desired BackupPolicySpec, now time.Time) (*DataLoss, error) {
	if desired.BackupRetentionPeriod >= current.BackupRetentionPeriod {
		return nil, nil
	}
	sets, err := ListBackups(ctx, api, &rdsapi.DescribeBackupsRequest{DBInstanceID: instanceID})
	if err != nil {
		return nil, fmt.Errorf("DescribeBackups %s: %w", instanceID, err)
	}
	loss, ok := RetentionLoss(instanceID, current.BackupRetentionPeriod, desired.BackupRetentionPeriod, sets, now)
	if !ok {
		return nil, nil
	}
	return &loss, nil
}
