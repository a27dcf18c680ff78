package provider

// The oracle's check of rds_backup_policy (issue 26 §5): after an apply, the policy the cloud
// answers to DescribeBackupPolicy, read directly and mapped here rather than by the provider's own
// read, holds every configured value. A provider that sends a wrong value, or stores the plan
// instead of what the cloud has, is then a disagreement even when its read agrees with its write.

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// checkBackupPolicies compares each configured rds_backup_policy with the cloud's policy of its
// instance; it returns how many policies it compared.
func (w *oracleWorld) checkBackupPolicies(order []oracleResource, disagree func(class, format string, args ...any)) (checked int) {
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	for _, r := range order {
		if r.typeName() != "rds_backup_policy" {
			continue
		}
		var id string
		if err := attrOf(w.state[r.addr], "instance_id").As(&id); err != nil || id == "" {
			disagree("backup policy not in state after apply", "%s is configured, but not in state after the apply", r.addr)
			continue
		}
		p, err := api.DescribeBackupPolicy(context.Background(), id)
		if err != nil {
			disagree("backup policy unreadable after apply", "DescribeBackupPolicy %s after the apply of %s: %v", id, r.addr, err)
			continue
		}
		checked++
		cloud := map[string]any{
			"preferred_backup_time": p.PreferredBackupTime, "preferred_backup_period": weekDaysOf(p.PreferredBackupPeriod),
			"backup_retention_period": int(p.BackupRetentionPeriod), "log_backup_enabled": p.LogBackupEnabled(),
			"local_log_retention_hours": int(p.LocalLogRetentionHours), "log_backup_retention_period": int(p.LogBackupRetentionPeriod),
		}
		var wrong []string
		for name, want := range r.attrs {
			got, compared := cloud[name]
			if !compared {
				continue
			}
			if days, ok := want.([]string); ok {
				want = weekDaysOf(strings.Join(days, ","))
			}
			if fmt.Sprint(want) != fmt.Sprint(got) {
				wrong = append(wrong, fmt.Sprintf("%s: configured %v, cloud %v", name, want, got))
			}
		}
		if len(wrong) > 0 {
			slices.Sort(wrong)
			disagree("backup policy in the cloud differs from the configuration: "+strings.Join(attrNames(wrong), ","),
				"after the apply, DescribeBackupPolicy %s answers other values than %s configures: %s", id, r.addr, strings.Join(wrong, "; "))
		}
	}
	return checked
}

// weekDaysOf is a comma-separated list of days, sorted, for comparison as a set.
func weekDaysOf(s string) []string {
	var out []string
	for _, d := range strings.Split(s, ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}
