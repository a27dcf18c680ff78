package rdsservice

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The checks of rds_backup_policy and rds_backup: one check per row of the rule table
// (ruletable.go holds their messages). They run at validate time with the configuration alone and
// at plan time with the instance's facts, so a bad value costs no API write. Sources:
// internal/simulator/README.md, "Backups".

// Terraform attribute names of the backup resources.
const (
	AttrBackupTime          = "preferred_backup_time"
	AttrBackupPeriod        = "preferred_backup_period"
	AttrBackupRetention     = "backup_retention_period"
	AttrBackupInterval      = "backup_interval"
	AttrBackupCategory      = "category"
	AttrCompressType        = "compress_type"
	AttrArchiveRetention    = "archive_backup_retention_period"
	AttrArchiveKeepPolicy   = "archive_backup_keep_policy"
	AttrArchiveKeepCount    = "archive_backup_keep_count"
	AttrLogBackupEnabled    = "log_backup_enabled"
	AttrLocalLogHours       = "local_log_retention_hours"
	AttrLocalLogSpace       = "local_log_retention_space"
	AttrHighSpaceProtection = "high_space_usage_protection"
	AttrLogRetention        = "log_backup_retention_period"
	AttrLocalLogNumber      = "log_backup_local_retention_number"
	AttrBackupMethod        = "backup_method"
	AttrBackupStrategy      = "backup_strategy"
	AttrBackupDBNames       = "db_names"
	AttrReleasedKeepPolicy  = "released_keep_policy"
)

// Rule ids of the backup resources (rows at the end of ruletable.go).
const (
	RuleBackupTimeFormat       RuleID = "backup-time-format"
	RuleBackupPeriodDay        RuleID = "backup-period-day"
	RuleBackupPeriodTwoDays    RuleID = "backup-period-two-days"
	RuleBackupRetentionRange   RuleID = "backup-retention-range"
	RuleBackupIntervalValue    RuleID = "backup-interval-value"
	RuleBackupCategoryValue    RuleID = "backup-category-value"
	RuleBackupIntervalFlash    RuleID = "backup-interval-with-flash"
	RuleBackupSnapshotDisk     RuleID = "backup-snapshot-needs-cloud-disk"
	RuleBackupCompressValue    RuleID = "backup-compress-type-value"
	RuleBackupCompressVersion  RuleID = "backup-compress-type-version"
	RuleBackupArchiveRange     RuleID = "backup-archive-retention-range"
	RuleBackupArchivePolicy    RuleID = "backup-archive-keep-policy"
	RuleBackupArchiveCount     RuleID = "backup-archive-keep-count"
	RuleLogLocalHoursRange     RuleID = "log-local-retention-hours-range"
	RuleLogLocalSpaceRange     RuleID = "log-local-retention-space-range"
	RuleLogHighSpaceValue      RuleID = "log-high-space-usage-protection"
	RuleLogRetentionRange      RuleID = "log-retention-range"
	RuleLogRetentionAboveData  RuleID = "log-retention-above-data"
	RuleLogLocalNumberRange    RuleID = "log-local-retention-number-range"
	RuleBackupOnReadOnly       RuleID = "backup-on-read-only"
	RuleBackupInstanceMissing  RuleID = "backup-instance-missing"
	RuleBackupPolicyLeftAsIs   RuleID = "backup-policy-left-as-is"
	RuleBackupMethodValue      RuleID = "backup-method-value"
	RuleBackupStrategyValue    RuleID = "backup-strategy-value"
	RuleBackupStrategyDBNames  RuleID = "backup-strategy-db-names"
	RuleBackupDBNamesLogical   RuleID = "backup-db-names-need-logical"
	RuleBackupLogicalNoDB      RuleID = "backup-logical-needs-databases"
	RuleBackupDBNotFound       RuleID = "backup-database-not-found"
	RuleBackupSnapshotNoCloud  RuleID = "backup-snapshot-method-needs-cloud-disk"
	RuleBackupInProgress       RuleID = "backup-in-progress"
	RuleBackupDailyLimit       RuleID = "backup-daily-limit"
	RuleBackupInstanceNotReady RuleID = "backup-instance-not-running"
	RuleBackupKeptOnDestroy    RuleID = "backup-kept-on-destroy"
	RuleBackupTimeFilter       RuleID = "backup-time-filter"
	RuleReleasedKeepValue      RuleID = "released-keep-policy-value"
	RuleReleasedKeepForced     RuleID = "released-keep-policy-forced"
	RuleReleasedKeepOnDestroy  RuleID = "released-keep-policy-on-destroy"
)

// Values the backup API offers.
var (
	WeekDays        = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	BackupIntervals = []int64{-1, 15, 30, 60, 120, 180, 240, 360, 480, 720}
	CompressTypes   = []string{"0", "1", "2", "4", "8"}
	backupWindow    = regexp.MustCompile(`^([01][0-9]|2[0-3]):00Z-([01][0-9]|2[0-3]):00Z$`)
)

// MaxBackupsPerDay is CreateBackup's daily limit per instance.
const MaxBackupsPerDay = 20

// BackupPolicySpec is a whole backup policy, data and log settings, as the provider manages it.
type BackupPolicySpec struct {
	PreferredBackupTime           string
	PreferredBackupPeriod         []string
	BackupRetentionPeriod         int64
	BackupInterval                int64
	Category                      string
	CompressType                  string
	ArchiveBackupRetentionPeriod  int64
	ArchiveBackupKeepPolicy       string
	ArchiveBackupKeepCount        int64
	LogBackupEnabled              bool
	LocalLogRetentionHours        int64
	LocalLogRetentionSpace        int64
	HighSpaceUsageProtection      string
	LogBackupRetentionPeriod      int64
	LogBackupLocalRetentionNumber int64
	// CrossRegion is the configured cross-region backup (nil: not managed; cross_region.go).
	CrossRegion *rdsapi.CrossBackupPolicy
	// Unknown names the attributes whose values the plan does not know yet: checks that need
	// them wait.
	Unknown map[string]bool
}

// BackupFacts are the instance facts the backup rules need; Known is false when the instance is
// not readable yet (about to be created).
type BackupFacts struct {
	Known         bool
	InstanceID    string
	EngineVersion string
	StorageType   string
	Category      string
	ReadOnly      bool
	// Status, LockMode and LockReason: a locked, stopped or deleting instance refuses
	// ModifyBackupPolicy like any other change (PolicyStateProblems).
	Status, LockMode, LockReason string
}

// BackupFactsFromAttribute reads the facts from DescribeDBInstanceAttribute.
func BackupFactsFromAttribute(attr *rdsapi.DBInstanceAttribute) BackupFacts {
	return BackupFacts{
		Known: true, InstanceID: attr.DBInstanceID, EngineVersion: string(attr.EngineVersion),
		StorageType: attr.DBInstanceStorageType, Category: attr.Category,
		ReadOnly: attr.MasterInstanceID != "" || attr.DBInstanceType == rdsapi.InstanceTypeReadonly,
		Status:   attr.DBInstanceStatus, LockMode: attr.LockMode, LockReason: attr.LockReason,
	}
}

// PolicyStateProblems are the instance-state problems of a policy change: the plan says when the
// instance's state makes the cloud refuse the ModifyBackupPolicy calls it will send, the
// cross-region one (crossCall) included (sweep seed 68: a locked instance refused it, unwarned).
func PolicyStateProblems(facts BackupFacts, current *BackupPolicySpec, desired BackupPolicySpec, crossCall bool) []Problem {
	if !facts.Known || facts.ReadOnly || current == nil || len(BackupPolicyCalls(facts.InstanceID, *current, desired)) == 0 && !crossCall {
		return nil
	}
	return StateProblems(facts.InstanceID, facts.Status, facts.LockMode, facts.LockReason, true, false)
}

// CloudDisk reports whether the storage type is a cloud disk (snapshot backups need one).
func (f BackupFacts) CloudDisk() bool {
	return strings.HasPrefix(f.StorageType, "cloud_") || f.StorageType == "general_essd"
}

// policyCheck decides one row; Needs are the attributes it reads (it waits while one is unknown).
type policyCheck struct {
	Rule   RuleID
	Needs  []string
	Facts  bool // needs the instance facts
	Broken func(p BackupPolicySpec, f BackupFacts) bool
	Value  func(p BackupPolicySpec, f BackupFacts) string
	Args   func(p BackupPolicySpec, f BackupFacts) []any
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func outside(n, lo, hi int64) bool { return n < lo || n > hi }

// CheckBackupPolicy evaluates every backup-policy row that its known values and facts decide.
func CheckBackupPolicy(p BackupPolicySpec, f BackupFacts) []Problem {
	var out []Problem
	for _, c := range policyChecks {
		if (c.Facts && !f.Known) || slices.ContainsFunc(c.Needs, func(a string) bool { return p.Unknown[a] }) || !c.Broken(p, f) {
			continue
		}
		value := c.Value(p, f)
		args := []any{value}
		if c.Args != nil {
			args = append(args, c.Args(p, f)...)
		}
		out = append(out, problem(c.Rule, value, args...))
	}
	return out
}

var policyChecks = append(dataPolicyChecks, logPolicyChecks...)

var dataPolicyChecks = []policyCheck{
	{Rule: RuleBackupOnReadOnly, Facts: true, Broken: func(_ BackupPolicySpec, f BackupFacts) bool { return f.ReadOnly },
		Value: func(_ BackupPolicySpec, f BackupFacts) string { return f.InstanceID }},
	{Rule: RuleBackupTimeFormat, Needs: []string{AttrBackupTime}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return !oneHourWindow(p.PreferredBackupTime) },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return p.PreferredBackupTime }},
	{Rule: RuleBackupPeriodDay, Needs: []string{AttrBackupPeriod}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return badDay(p.PreferredBackupPeriod) != "" },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return badDay(p.PreferredBackupPeriod) }},
	{Rule: RuleBackupPeriodTwoDays, Needs: []string{AttrBackupPeriod}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return len(p.PreferredBackupPeriod) < 2 },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return strings.Join(p.PreferredBackupPeriod, ",") }},
	{Rule: RuleBackupRetentionRange, Needs: []string{AttrBackupRetention}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return outside(p.BackupRetentionPeriod, 7, 730) },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.BackupRetentionPeriod) }},
	{Rule: RuleBackupIntervalValue, Needs: []string{AttrBackupInterval}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool {
		return !slices.Contains(BackupIntervals, p.BackupInterval)
	},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.BackupInterval) }},
	{Rule: RuleBackupCategoryValue, Needs: []string{AttrBackupCategory}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return p.Category != "Flash" && p.Category != "Standard" },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return p.Category }},
	{Rule: RuleBackupIntervalFlash, Needs: []string{AttrBackupInterval, AttrBackupCategory},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return p.Category == "Flash" && p.BackupInterval != -1 },
		Value:  func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.BackupInterval) }},
	{Rule: RuleBackupSnapshotDisk, Needs: []string{AttrBackupInterval, AttrBackupCategory}, Facts: true,
		Broken: func(p BackupPolicySpec, f BackupFacts) bool {
			return (p.BackupInterval != -1 || p.Category == "Flash") && !f.CloudDisk()
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string {
			return i64(p.BackupInterval) + ", category " + p.Category
		},
		Args: func(_ BackupPolicySpec, f BackupFacts) []any { return []any{f.InstanceID, f.StorageType} }},
	{Rule: RuleBackupCompressValue, Needs: []string{AttrCompressType}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return !slices.Contains(CompressTypes, p.CompressType) },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return p.CompressType }},
	{Rule: RuleBackupCompressVersion, Needs: []string{AttrCompressType}, Facts: true,
		Broken: func(p BackupPolicySpec, f BackupFacts) bool {
			return (p.CompressType == "4" && f.EngineVersion == "8.0") || (p.CompressType == "8" && f.EngineVersion != "8.0")
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return p.CompressType },
		Args:  func(_ BackupPolicySpec, f BackupFacts) []any { return []any{f.InstanceID, f.EngineVersion} }},
	{Rule: RuleBackupArchiveRange, Needs: []string{AttrArchiveRetention},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool {
			return p.ArchiveBackupRetentionPeriod != 0 && outside(p.ArchiveBackupRetentionPeriod, 30, 1095)
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.ArchiveBackupRetentionPeriod) }},
	{Rule: RuleBackupArchivePolicy, Needs: []string{AttrArchiveKeepPolicy},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return archiveLimit(p.ArchiveBackupKeepPolicy) < 0 },
		Value:  func(p BackupPolicySpec, _ BackupFacts) string { return p.ArchiveBackupKeepPolicy }},
	{Rule: RuleBackupArchiveCount, Needs: []string{AttrArchiveKeepPolicy, AttrArchiveKeepCount},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool {
			limit := archiveLimit(p.ArchiveBackupKeepPolicy)
			return limit > 0 && outside(p.ArchiveBackupKeepCount, 1, limit)
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.ArchiveBackupKeepCount) },
		Args: func(p BackupPolicySpec, _ BackupFacts) []any {
			return []any{p.ArchiveBackupKeepPolicy, archiveLimit(p.ArchiveBackupKeepPolicy)}
		}},
}

var logPolicyChecks = []policyCheck{
	{Rule: RuleLogLocalHoursRange, Needs: []string{AttrLocalLogHours}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return outside(p.LocalLogRetentionHours, 0, 168) },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.LocalLogRetentionHours) }},
	{Rule: RuleLogLocalSpaceRange, Needs: []string{AttrLocalLogSpace}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return outside(p.LocalLogRetentionSpace, 0, 50) },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.LocalLogRetentionSpace) }},
	{Rule: RuleLogHighSpaceValue, Needs: []string{AttrHighSpaceProtection},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool {
			return p.HighSpaceUsageProtection != "Enable" && p.HighSpaceUsageProtection != "Disable"
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return p.HighSpaceUsageProtection }},
	{Rule: RuleLogRetentionRange, Needs: []string{AttrLogRetention}, Broken: func(p BackupPolicySpec, _ BackupFacts) bool { return outside(p.LogBackupRetentionPeriod, 7, 730) },
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.LogBackupRetentionPeriod) }},
	{Rule: RuleLogRetentionAboveData, Needs: []string{AttrLogRetention, AttrBackupRetention},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool {
			return p.LogBackupRetentionPeriod > p.BackupRetentionPeriod
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.LogBackupRetentionPeriod) },
		Args:  func(p BackupPolicySpec, _ BackupFacts) []any { return []any{p.BackupRetentionPeriod} }},
	{Rule: RuleLogLocalNumberRange, Needs: []string{AttrLocalLogNumber},
		Broken: func(p BackupPolicySpec, _ BackupFacts) bool {
			return p.LogBackupLocalRetentionNumber != -1 && outside(p.LogBackupLocalRetentionNumber, 6, 100)
		},
		Value: func(p BackupPolicySpec, _ BackupFacts) string { return i64(p.LogBackupLocalRetentionNumber) }},
}

// oneHourWindow reports whether w is HH:00Z-HH:00Z with the end one hour after the start.
func oneHourWindow(w string) bool {
	m := backupWindow.FindStringSubmatch(w)
	if m == nil {
		return false
	}
	start, _ := strconv.Atoi(m[1])
	end, _ := strconv.Atoi(m[2])
	return (start+1)%24 == end
}

// badDay is the first entry that is not a day of the week as the API spells it ("" when none).
func badDay(days []string) string {
	for _, d := range days {
		if !slices.Contains(WeekDays, d) {
			return d
		}
	}
	return ""
}

// archiveLimit is the largest keep count of an archive policy: 0 for KeepAll, -1 for no policy.
func archiveLimit(policy string) int64 {
	switch policy {
	case "ByMonth":
		return 31
	case "ByWeek":
		return 7
	case "KeepAll":
		return 0
	}
	return -1
}

// ReleasedKeepCutoff: cloud-disk instances created from this day keep their latest backup set when
// released, whatever ReleasedKeepPolicy says (Alibaba, "Backup for deleted instances").
var ReleasedKeepCutoff = time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)

// CheckReleasedKeepPolicy checks rds_instance's released_keep_policy ("" when unset) against the
// instance's storage type and creation time (zero when not known: the forced-value rule waits).
func CheckReleasedKeepPolicy(value, storageType string, created time.Time) []Problem {
	switch {
	case value == "":
		return nil
	case !slices.Contains([]string{rdsapi.ReleasedKeepNone, rdsapi.ReleasedKeepLastest, rdsapi.ReleasedKeepAll}, value):
		allowed := "None (no backup set survives the release), Lastest (the latest set; the API's spelling) or All"
		if releasedKeepForced(storageType, created) {
			allowed = "Lastest (the latest set; the API's spelling): the only value for an instance on cloud disks created on or after 2024-02-01"
		}
		return []Problem{problem(RuleReleasedKeepValue, value, value, allowed)}
	case value != rdsapi.ReleasedKeepLastest && releasedKeepForced(storageType, created):
		return []Problem{problem(RuleReleasedKeepForced, value, value, storageType, created.UTC().Format("2006-01-02"))}
	}
	return nil
}

// releasedKeepForced reports whether the cloud forces Lastest: cloud disks, created on or after
// ReleasedKeepCutoff.
func releasedKeepForced(storageType string, created time.Time) bool {
	return (BackupFacts{StorageType: storageType}).CloudDisk() && !created.IsZero() && !created.Before(ReleasedKeepCutoff)
}

// ReleasedKeepOnDestroy is the destroy plan's note of what survives the release of the instance.
func ReleasedKeepOnDestroy(id, value string) Problem {
	kept := map[string]string{
		rdsapi.ReleasedKeepNone: "no backup set", rdsapi.ReleasedKeepLastest: "its latest backup set",
		rdsapi.ReleasedKeepAll: "all its backup sets",
	}[value]
	return problem(RuleReleasedKeepOnDestroy, value, id, kept)
}

// CheckBackup evaluates the rds_backup rows its known values decide: the request's shape always,
// the instance's facts and state when known.
func CheckBackup(req BackupRequest, f BackupFacts, st BackupInstanceState) []Problem {
	var out []Problem
	add := func(id RuleID, value string, args ...any) {
		out = append(out, problem(id, value, append([]any{value}, args...)...))
	}
	methodKnown, strategyKnown := !req.Unknown[AttrBackupMethod], !req.Unknown[AttrBackupStrategy]
	if methodKnown && !slices.Contains([]string{rdsapi.BackupMethodPhysical, rdsapi.BackupMethodLogical, rdsapi.BackupMethodSnapshot}, req.Method) {
		add(RuleBackupMethodValue, req.Method)
	}
	if strategyKnown && req.Strategy != rdsapi.BackupStrategyInstance && req.Strategy != rdsapi.BackupStrategyDB {
		add(RuleBackupStrategyValue, req.Strategy)
	}
	if strategyKnown && !req.Unknown[AttrBackupDBNames] && (req.Strategy == rdsapi.BackupStrategyDB) != (len(req.DBNames) > 0) {
		add(RuleBackupStrategyDBNames, req.Strategy)
	}
	if methodKnown && strategyKnown && req.Strategy == rdsapi.BackupStrategyDB && req.Method != rdsapi.BackupMethodLogical {
		add(RuleBackupDBNamesLogical, req.Method)
	}
	if !f.Known {
		return out
	}
	if f.ReadOnly {
		return append(out, problem(RuleBackupOnReadOnly, f.InstanceID, f.InstanceID))
	}
	if methodKnown && req.Method == rdsapi.BackupMethodSnapshot && !f.CloudDisk() {
		add(RuleBackupSnapshotNoCloud, req.Method, f.InstanceID, f.StorageType)
	}
	return append(out, checkBackupState(req, f, st)...)
}

// checkBackupState checks the instance as it is now: databases, a job in progress, today's sets.
func checkBackupState(req BackupRequest, f BackupFacts, st BackupInstanceState) []Problem {
	if !st.Known {
		return nil
	}
	var out []Problem
	if !req.Unknown[AttrBackupMethod] && req.Method == rdsapi.BackupMethodLogical && len(st.Databases) == 0 {
		out = append(out, problem(RuleBackupLogicalNoDB, req.Method, req.Method, f.InstanceID))
	}
	if !req.Unknown[AttrBackupDBNames] {
		for _, name := range req.DBNames {
			if !slices.Contains(st.Databases, name) {
				out = append(out, problem(RuleBackupDBNotFound, name, name, f.InstanceID))
			}
		}
	}
	if st.SetsToday >= MaxBackupsPerDay {
		out = append(out, problem(RuleBackupDailyLimit, f.InstanceID, f.InstanceID, st.SetsToday, MaxBackupsPerDay))
	}
	if st.JobRunning != "" {
		out = append(out, problem(RuleBackupInProgress, f.InstanceID, f.InstanceID, st.JobRunning))
	}
	if st.Status != "" && st.Status != StatusRunning {
		out = append(out, problem(RuleBackupInstanceNotReady, f.InstanceID, f.InstanceID, st.Status))
	}
	return out
}

// BackupRequest is what rds_backup asks CreateBackup for.
type BackupRequest struct {
	Method   string
	Strategy string
	DBNames  []string
	// Unknown names the attributes the plan does not know yet.
	Unknown map[string]bool
}

// BackupInstanceState is what the plan knows of the instance beyond its facts: its status, its
// databases, a backup job in progress and the sets made today (UTC).
type BackupInstanceState struct {
	Known      bool
	Status     string
	Databases  []string
	JobRunning string
	SetsToday  int
}

// BackupKeptReason says why DeleteBackup cannot delete the set now ("" when it can): the API
// deletes sets whose StoreStatus is Enabled, on High-availability instances.
func BackupKeptReason(set *rdsapi.Backup, category string) string {
	switch {
	case category != "" && !strings.EqualFold(category, "HighAvailability"):
		return fmt.Sprintf("DeleteBackup supports High-availability Edition instances only, and this one is %s.", category)
	case set.StoreStatus != "Enabled":
		return "its StoreStatus is " + firstOf(set.StoreStatus, "not Enabled") + ": RDS deletes a data backup set only when it is older than 7 days " +
			"with log backups off, or older than a log backup retention that is shorter than the data backup retention."
	}
	return ""
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
