package simulator

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Backup policy, on-demand backups and backup sets (README "Backups"). Every rule is the
// simulator's reading of Alibaba's documentation, cited in the README; the provider's own checks
// live in rdsservice.

func init() {
	for name, h := range map[string]handler{
		"DescribeBackupPolicy": (*Simulator).describeBackupPolicy,
		"ModifyBackupPolicy":   (*Simulator).modifyBackupPolicy,
		"CreateBackup":         (*Simulator).createBackup,
		"DescribeBackups":      (*Simulator).describeBackups,
		"DescribeBackupTasks":  (*Simulator).describeBackupTasks,
		"DeleteBackup":         (*Simulator).deleteBackup,
	} {
		actions[name] = h
	}
}

const (
	maxBackupsPerDay   = 20
	backupSetSizeBytes = 2167808 // the reference's example BackupSize
	firstBackupID      = 300000001
	apiMinuteLayout    = "2006-01-02T15:04Z"
)

var (
	weekDays           = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	backupIntervals    = []string{"-1", "15", "30", "60", "120", "180", "240", "360", "480", "720"}
	compressTypes      = []string{"0", "1", "2", "4", "8"}
	backupWindowFormat = regexp.MustCompile(`^([01][0-9]|2[0-3]):00Z-([01][0-9]|2[0-3]):00Z$`)
	// releasedKeepCutoff: cloud-disk instances created from this day keep the latest backup set
	// when released, whatever the policy says.
	releasedKeepCutoff = time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
)

// backupPolicy is one instance's DescribeBackupPolicy answer, data and log settings.
type backupPolicy struct {
	Time           string   `json:"time"`
	Period         []string `json:"period"`
	Retention      int64    `json:"retention"`
	Interval       string   `json:"interval"`
	Category       string   `json:"category"`
	Compress       string   `json:"compress"`
	ArchiveDays    int64    `json:"archive_days"`
	ArchivePolicy  string   `json:"archive_policy"`
	ArchiveCount   int64    `json:"archive_count"`
	ReleasedKeep   string   `json:"released_keep"`
	LogEnabled     bool     `json:"log_enabled"`
	LocalLogHours  int64    `json:"local_log_hours"`
	LocalLogSpace  int64    `json:"local_log_space"`
	HighSpace      string   `json:"high_space"`
	LogRetention   int64    `json:"log_retention"`
	LocalLogNumber int64    `json:"local_log_number"`
	// AutomaticThrough is when the automatic backups were last made up to (backups_automatic.go).
	AutomaticThrough time.Time `json:"automatic_through,omitempty"`
}

// backupSet is one backup: a job until End, then a set. Mode is Manual for CreateBackup.
type backupSet struct {
	ID       int64     `json:"id"`
	JobID    int64     `json:"job_id"`
	Method   string    `json:"method"`
	Strategy string    `json:"strategy"`
	DBNames  string    `json:"db_names,omitempty"`
	Mode     string    `json:"mode"`
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
}

func (b *backupSet) done(now time.Time) bool { return !now.Before(b.End) }

func (in *instance) cloudDisk() bool {
	return strings.HasPrefix(in.StorageType, "cloud_") || in.StorageType == "general_essd"
}

// defaultBackupPolicy is the policy of an instance nobody changed (values: assumption BK1).
func defaultBackupPolicy(in *instance) *backupPolicy {
	keep := "None"
	if in.cloudDisk() && !in.CreationTime.Before(releasedKeepCutoff) {
		keep = "Lastest"
	}
	return &backupPolicy{
		Time: "02:00Z-03:00Z", Period: []string{"Tuesday", "Thursday", "Saturday"}, Retention: 7, Interval: "-1",
		Category: "Standard", Compress: "1", ArchivePolicy: "ByMonth", ArchiveCount: 1, ReleasedKeep: keep,
		LogEnabled: true, LocalLogHours: 18, LocalLogSpace: 30, HighSpace: "Enable", LogRetention: 7, LocalLogNumber: 60,
	}
}

func (in *instance) policy() *backupPolicy {
	if in.BackupPolicy == nil {
		in.BackupPolicy = defaultBackupPolicy(in)
	}
	return in.BackupPolicy
}

// backupTarget finds the primary instance of a backup action; writes need it Running.
func (s *Simulator) backupTarget(c *call, write bool) (*instance, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if in.MasterID != "" {
		return nil, newErr(403, "IncorrectDBInstanceType", "Current DB instance type does not support this operation: %s is a read-only instance; its primary %s holds the backups.", in.ID, in.MasterID)
	}
	if s.runAutomaticBackups(in, c.now) {
		c.dirty = true
	}
	if write && in.Status != statusRunning {
		return nil, errInstanceState(in)
	}
	if write && in.lockMode() != lockUnlocked {
		return nil, in.writable("backup write")
	}
	return in, nil
}

func (s *Simulator) describeBackupPolicy(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, false)
	if e != nil {
		return nil, e
	}
	p := in.policy()
	return map[string]any{
		"PreferredBackupTime": p.Time, "PreferredBackupPeriod": strings.Join(p.Period, ","),
		"BackupRetentionPeriod": p.Retention, "BackupInterval": p.Interval, "Category": p.Category, "CompressType": p.Compress,
		"ArchiveBackupRetentionPeriod": itoa(p.ArchiveDays), "ArchiveBackupKeepPolicy": p.ArchivePolicy,
		"ArchiveBackupKeepCount": itoa(p.ArchiveCount), "ReleasedKeepPolicy": p.ReleasedKeep,
		"BackupLog": map[bool]string{true: "Enable", false: "Disabled"}[p.LogEnabled], "EnableBackupLog": map[bool]string{true: "1", false: "0"}[p.LogEnabled],
		"LocalLogRetentionHours": p.LocalLogHours, "LocalLogRetentionSpace": itoa(p.LocalLogSpace),
		"HighSpaceUsageProtection": p.HighSpace, "LogBackupRetentionPeriod": p.LogRetention,
		"LogBackupLocalRetentionNumber": p.LocalLogNumber, "LogBackupFrequency": "",
		"PreferredNextBackupTime": nextBackupTime(p, c.now).Format(apiMinuteLayout),
		"EnablePitrProtection":    false, // PITR protection is not simulated: always off
	}, nil
}

// nextBackupTime is the start of the next window on a day of the period.
func nextBackupTime(p *backupPolicy, now time.Time) time.Time {
	hour, _ := strconv.Atoi(p.Time[:2])
	day := now.Truncate(24 * time.Hour)
	for i := 0; i < 8; i++ {
		at := day.AddDate(0, 0, i).Add(time.Duration(hour) * time.Hour)
		if at.After(now) && slices.Contains(p.Period, at.Weekday().String()) {
			return at
		}
	}
	return day.Add(time.Duration(hour) * time.Hour)
}

func (s *Simulator) modifyBackupPolicy(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, true)
	if e != nil {
		return nil, e
	}
	mode, e := c.p.oneOf("BackupPolicyMode", "DataBackupPolicy", "DataBackupPolicy", "LogBackupPolicy")
	if e != nil {
		return nil, e
	}
	next := *in.policy()
	if mode == "DataBackupPolicy" {
		e = dataPolicy(c.p, in, &next)
	} else {
		e = logPolicy(c.p, &next)
	}
	if e == nil {
		e = logRetention(c.p, &next)
	}
	if e != nil {
		return nil, e
	}
	live := s.liveBackups(in, c.now)
	in.BackupPolicy = &next
	in.Backups = s.liveBackups(in, c.now) // a shorter retention deletes the older sets at once, for good
	s.recordGoneSets(in.ID, live, in.Backups)
	c.dirty = true
	// The answer carries the log policy, as the API reference's example does.
	return map[string]any{
		"DBInstanceID": in.ID, "CompressType": next.Compress, "EnableBackupLog": map[bool]string{true: "1", false: "0"}[next.LogEnabled],
		"LocalLogRetentionHours": next.LocalLogHours, "LocalLogRetentionSpace": itoa(next.LocalLogSpace),
		"HighSpaceUsageProtection": next.HighSpace, "LogBackupLocalRetentionNumber": next.LocalLogNumber,
	}, nil
}

// dataPolicy applies the DataBackupPolicy fields: the window, the period and the retention are
// required; the others keep their values when absent.
func dataPolicy(p params, in *instance, next *backupPolicy) *apiError {
	window, e := p.required("PreferredBackupTime")
	if e != nil {
		return e
	}
	if !oneHourWindow(window) {
		return errInvalid("PreferredBackupTime", "%q is not a one-hour UTC window HH:00Z-HH:00Z such as 02:00Z-03:00Z", truncate(window))
	}
	period, e := backupPeriod(p)
	if e != nil {
		return e
	}
	retention, e := intIn(p, "BackupRetentionPeriod", 7, 730, true)
	if e != nil {
		return e
	}
	next.Time, next.Period, next.Retention = window, period, retention
	if e := dataOptions(p, in, next); e != nil {
		return e
	}
	return archiveOptions(p, next)
}

// oneHourWindow reports whether w is HH:00Z-HH:00Z with the end one hour after the start.
func oneHourWindow(w string) bool {
	m := backupWindowFormat.FindStringSubmatch(w)
	if m == nil {
		return false
	}
	start, _ := strconv.Atoi(m[1])
	end, _ := strconv.Atoi(m[2])
	return (start+1)%24 == end
}

func backupPeriod(p params) ([]string, *apiError) {
	raw, e := p.required("PreferredBackupPeriod")
	if e != nil {
		return nil, e
	}
	var days []string
	for _, d := range strings.Split(raw, ",") {
		i := slices.IndexFunc(weekDays, func(w string) bool { return strings.EqualFold(w, strings.TrimSpace(d)) })
		if i < 0 {
			return nil, errInvalid("PreferredBackupPeriod", "%q is not a day of the week (Monday ... Sunday)", truncate(d))
		}
		if !slices.Contains(days, weekDays[i]) {
			days = append(days, weekDays[i])
		}
	}
	if len(days) < 2 {
		return nil, errInvalid("PreferredBackupPeriod", "%q names %d day; give at least two days", truncate(raw), len(days))
	}
	slices.SortFunc(days, func(a, b string) int { return slices.Index(weekDays, a) - slices.Index(weekDays, b) })
	return days, nil
}

// dataOptions applies BackupInterval, Category, CompressType and ReleasedKeepPolicy.
func dataOptions(p params, in *instance, next *backupPolicy) *apiError {
	var e *apiError
	if next.Interval, e = p.oneOf("BackupInterval", next.Interval, backupIntervals...); e != nil {
		return e
	}
	if next.Category, e = p.oneOf("Category", next.Category, "Standard", "Flash"); e != nil {
		return e
	}
	if (next.Interval != "-1" || next.Category == "Flash") && !in.cloudDisk() {
		return errInvalid("BackupInterval", "snapshot backups (BackupInterval %s, Category %s) need cloud disks; %s uses %s", next.Interval, next.Category, in.ID, in.StorageType)
	}
	if next.Category == "Flash" && next.Interval != "-1" {
		return errInvalid("BackupInterval", "BackupInterval %s does not apply with Category Flash; send -1", next.Interval)
	}
	if next.Compress, e = p.oneOf("CompressType", next.Compress, compressTypes...); e != nil {
		return e
	}
	if (next.Compress == "4" && in.EngineVersion == "8.0") || (next.Compress == "8" && in.EngineVersion != "8.0") {
		return errInvalid("CompressType", "CompressType %s is not offered for MySQL %s (4: 5.6 and 5.7; 8: 8.0)", next.Compress, in.EngineVersion)
	}
	keep, e := p.oneOf("ReleasedKeepPolicy", next.ReleasedKeep, "None", "Lastest", "All")
	if e != nil {
		return e
	}
	if p.has("ReleasedKeepPolicy") {
		if e := checkReleasedKeep(in, keep); e != nil {
			return e
		}
	}
	next.ReleasedKeep = keep
	return nil
}

// archiveOptions applies the archive settings: 0 (off) or 30-1095 days, ByMonth 1-31 or ByWeek 1-7
// sets, or KeepAll.
func archiveOptions(p params, next *backupPolicy) *apiError {
	if days, set, e := p.integer("ArchiveBackupRetentionPeriod"); e != nil {
		return e
	} else if set {
		if days != 0 && (days < 30 || days > 1095) {
			return errInvalid("ArchiveBackupRetentionPeriod", "%d is neither 0 (off) nor within 30-1095", days)
		}
		next.ArchiveDays = days
	}
	var e *apiError
	if next.ArchivePolicy, e = p.oneOf("ArchiveBackupKeepPolicy", next.ArchivePolicy, "ByMonth", "ByWeek", "KeepAll"); e != nil {
		return e
	}
	count, set, e := p.integer("ArchiveBackupKeepCount")
	if e != nil {
		return e
	}
	if set {
		next.ArchiveCount = count
	}
	limit := map[string]int64{"ByMonth": 31, "ByWeek": 7}[next.ArchivePolicy]
	if limit > 0 && (next.ArchiveCount < 1 || next.ArchiveCount > limit) {
		return errInvalid("ArchiveBackupKeepCount", "%d is outside 1-%d for %s", next.ArchiveCount, limit, next.ArchivePolicy)
	}
	return nil
}

// logPolicy applies the LogBackupPolicy fields, all four required.
func logPolicy(p params, next *backupPolicy) *apiError {
	enabled, e := p.required("EnableBackupLog")
	if e != nil {
		return e
	}
	switch strings.ToLower(enabled) {
	case "1", "true":
		next.LogEnabled = true
	case "0", "false":
		next.LogEnabled = false
	default:
		return errInvalid("EnableBackupLog", "%q is not True/1 or False/0", truncate(enabled))
	}
	if next.LocalLogHours, e = intIn(p, "LocalLogRetentionHours", 0, 168, true); e != nil {
		return e
	}
	if next.LocalLogSpace, e = intIn(p, "LocalLogRetentionSpace", 0, 50, true); e != nil {
		return e
	}
	if _, e := p.required("HighSpaceUsageProtection"); e != nil {
		return e
	}
	if next.HighSpace, e = p.oneOf("HighSpaceUsageProtection", "", "Enable", "Disable"); e != nil {
		return e
	}
	if n, set, e := p.integer("LogBackupLocalRetentionNumber"); e != nil {
		return e
	} else if set {
		if n != -1 && (n < 6 || n > 100) {
			return errInvalid("LogBackupLocalRetentionNumber", "%d is neither -1 (unlimited) nor within 6-100", n)
		}
		next.LocalLogNumber = n
	}
	return nil
}

// logRetention applies LogBackupRetentionPeriod (either mode): 7-730 days and not above the data
// retention, which is checked against the policy as this call leaves it.
func logRetention(p params, next *backupPolicy) *apiError {
	if p.has("LogBackupRetentionPeriod") {
		days, e := intIn(p, "LogBackupRetentionPeriod", 7, 730, false)
		if e != nil {
			return e
		}
		next.LogRetention = days
	}
	if next.LogRetention > next.Retention {
		return errInvalid("LogBackupRetentionPeriod", "log backups would be kept %d days, longer than data backups (%d days); the log retention may not exceed the data retention", next.LogRetention, next.Retention)
	}
	return nil
}

// intIn reads an integer within lo-hi; required says whether it must be present.
func intIn(p params, name string, lo, hi int64, required bool) (int64, *apiError) {
	if required {
		if _, e := p.required(name); e != nil {
			return 0, e
		}
	}
	n, _, e := p.integer(name)
	if e != nil {
		return 0, e
	}
	if n < lo || n > hi {
		return 0, errInvalid(name, "%d is outside %d-%d", n, lo, hi)
	}
	return n, nil
}

// checkReleasedKeep refuses a ReleasedKeepPolicy other than Lastest for a cloud-disk instance
// created on or after 2024-02-01, which always keeps its latest set (README "Backups").
func checkReleasedKeep(in *instance, value string) *apiError {
	if value != "" && !strings.EqualFold(value, "Lastest") && in.cloudDisk() && !in.CreationTime.Before(releasedKeepCutoff) {
		return errInvalid("ReleasedKeepPolicy", "%s uses cloud disks and was created on or after 2024-02-01: it always keeps its latest backup set (Lastest)", in.ID)
	}
	return nil
}
