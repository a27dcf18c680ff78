package rdsapi

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Backup policy, on-demand backups and backup sets. Parameter and field names are those of the
// RDS 2014-08-15 models (alibaba-cloud-sdk-go services/rds modify_backup_policy.go,
// describe_backup_policy.go, create_backup.go, describe_backups.go, describe_backup_tasks.go,
// delete_backup.go) and of Alibaba's ModifyBackupPolicy reference
// (https://www.alibabacloud.com/help/en/rds/apsaradb-rds-for-mysql/api-rds-2014-08-15-modifybackuppolicy-mysql).

// BackupPolicyMode values: ModifyBackupPolicy changes either the data backup settings or the log
// backup settings in one call, never both.
const (
	BackupPolicyModeData = "DataBackupPolicy"
	BackupPolicyModeLog  = "LogBackupPolicy"
)

// Values of CreateBackup, DescribeBackups and DescribeBackupTasks the provider uses.
const (
	BackupMethodLogical    = "Logical"
	BackupMethodPhysical   = "Physical"
	BackupMethodSnapshot   = "Snapshot"
	BackupStrategyDB       = "db"
	BackupStrategyInstance = "instance"
	BackupStatusSuccess    = "Success"
	BackupStatusFailed     = "Failed"
	BackupModeManual       = "Manual"
	BackupModeAutomated    = "Automated"
	// BackupJobStatus values of DescribeBackupTasks.
	BackupJobNoStart   = "NoStart"
	BackupJobChecking  = "Checking"
	BackupJobPreparing = "Preparing"
	BackupJobWaiting   = "Waiting"
	BackupJobUploading = "Uploading"
	BackupJobFinished  = "Finished"
	BackupJobFailed    = "Failed"
)

// Error codes of the backup actions the provider branches on (as the simulator answers them;
// Alibaba does not publish the full list).
const (
	CodeBackupNotFound   = "InvalidBackupId.NotFound"
	CodeBackupInProgress = "BackupJobExists"
	CodeBackupDailyLimit = "BackupQuota.Exceeded"
	// CodeBackupRetention refuses DeleteBackup of a set Alibaba's retention rules keep.
	CodeBackupRetention = "OperationDenied.BackupRetention"
)

// BackupPolicy is DescribeBackupPolicy's answer: the data settings and the log settings.
type BackupPolicy struct {
	RequestID string `json:"RequestId"`
	// Data backup settings (BackupPolicyMode=DataBackupPolicy).
	PreferredBackupTime          string     `json:"PreferredBackupTime"`   // HH:mmZ-HH:mmZ, UTC
	PreferredBackupPeriod        string     `json:"PreferredBackupPeriod"` // Monday,Wednesday,...
	BackupRetentionPeriod        FlexInt    `json:"BackupRetentionPeriod"`
	BackupInterval               FlexString `json:"BackupInterval"` // minutes, "-1" for none
	Category                     string     `json:"Category"`       // Flash or Standard
	CompressType                 FlexString `json:"CompressType"`
	ArchiveBackupRetentionPeriod FlexInt    `json:"ArchiveBackupRetentionPeriod"`
	ArchiveBackupKeepPolicy      string     `json:"ArchiveBackupKeepPolicy"`
	ArchiveBackupKeepCount       FlexInt    `json:"ArchiveBackupKeepCount"`
	ReleasedKeepPolicy           string     `json:"ReleasedKeepPolicy"`
	BackupLog                    string     `json:"BackupLog"` // Enable or Disabled
	PreferredNextBackupTime      string     `json:"PreferredNextBackupTime"`
	// Log backup settings (BackupPolicyMode=LogBackupPolicy).
	EnableBackupLog               FlexString `json:"EnableBackupLog"` // "1"/"0" (also True/False)
	LocalLogRetentionHours        FlexInt    `json:"LocalLogRetentionHours"`
	LocalLogRetentionSpace        FlexInt    `json:"LocalLogRetentionSpace"`
	HighSpaceUsageProtection      string     `json:"HighSpaceUsageProtection"` // Enable or Disable
	LogBackupRetentionPeriod      FlexInt    `json:"LogBackupRetentionPeriod"`
	LogBackupLocalRetentionNumber FlexInt    `json:"LogBackupLocalRetentionNumber"`
	LogBackupFrequency            string     `json:"LogBackupFrequency"`
}

// LogBackupEnabled reads EnableBackupLog, which the API spells "1"/"0" or True/False.
func (p *BackupPolicy) LogBackupEnabled() bool {
	v := strings.TrimSpace(string(p.EnableBackupLog))
	return v == "1" || strings.EqualFold(v, "true")
}

// DataBackupPolicyRequest is ModifyBackupPolicy with BackupPolicyMode=DataBackupPolicy. The API
// requires PreferredBackupTime, PreferredBackupPeriod and BackupRetentionPeriod in this mode, so
// the caller sends the whole data policy (current values for what it does not change). Zero
// optional values are left out.
type DataBackupPolicyRequest struct {
	DBInstanceID                 string
	PreferredBackupTime          string
	PreferredBackupPeriod        []string
	BackupRetentionPeriod        int64
	BackupInterval               string
	Category                     string
	CompressType                 string
	ArchiveBackupRetentionPeriod *int64 // 0 turns archiving off, so nil means "leave out"
	ArchiveBackupKeepPolicy      string
	ArchiveBackupKeepCount       int64
	ReleasedKeepPolicy           string
	// LogBackupRetentionPeriod is accepted in both modes; sending it here with a shorter data
	// retention keeps the two consistent in one call.
	LogBackupRetentionPeriod int64
}

// LogBackupPolicyRequest is ModifyBackupPolicy with BackupPolicyMode=LogBackupPolicy. The API
// requires EnableBackupLog, LocalLogRetentionHours, LocalLogRetentionSpace and
// HighSpaceUsageProtection in this mode.
type LogBackupPolicyRequest struct {
	DBInstanceID                  string
	EnableBackupLog               bool
	LocalLogRetentionHours        int64
	LocalLogRetentionSpace        int64
	HighSpaceUsageProtection      string
	LogBackupRetentionPeriod      int64
	LogBackupLocalRetentionNumber int64
}

// CreateBackupRequest holds the CreateBackup parameters; empty values take the cloud's defaults
// (Physical, instance).
type CreateBackupRequest struct {
	DBInstanceID   string
	BackupMethod   string
	BackupStrategy string
	DBNames        []string
}

// DescribeBackupsRequest filters an instance's backup sets. Times are "yyyy-MM-ddTHH:mmZ" (UTC).
type DescribeBackupsRequest struct {
	DBInstanceID string
	BackupID     string
	BackupStatus string
	BackupMode   string
	StartTime    string
	EndTime      string
	PageNumber   int64
	PageSize     int64 // 30-100
}

// DescribeBackupsResponse is one page of backup sets.
type DescribeBackupsResponse struct {
	RequestID        string  `json:"RequestId"`
	PageNumber       FlexInt `json:"PageNumber"`
	PageRecordCount  FlexInt `json:"PageRecordCount"`
	TotalRecordCount FlexInt `json:"TotalRecordCount"`
	Items            struct {
		Backup []Backup `json:"Backup"`
	} `json:"Items"`
}

// Backup is one backup set.
type Backup struct {
	BackupID        FlexString `json:"BackupId"`
	DBInstanceID    string     `json:"DBInstanceId"`
	BackupStatus    string     `json:"BackupStatus"`
	BackupStartTime string     `json:"BackupStartTime"`
	BackupEndTime   string     `json:"BackupEndTime"`
	BackupType      string     `json:"BackupType"` // FullBackup or IncrementalBackup
	BackupMode      string     `json:"BackupMode"` // Automated or Manual
	BackupMethod    string     `json:"BackupMethod"`
	BackupScale     string     `json:"BackupScale"` // DBInstance or Database
	BackupDBNames   string     `json:"BackupDBNames"`
	BackupSize      FlexInt    `json:"BackupSize"`
	BackupInitiator string     `json:"BackupInitiator"` // System or User
	StoreStatus     string     `json:"StoreStatus"`     // Enabled: DeleteBackup may delete it
	ConsistentTime  FlexInt    `json:"ConsistentTime"`
}

// DescribeBackupTasksRequest filters the backup jobs of the last day.
type DescribeBackupTasksRequest struct {
	DBInstanceID    string
	BackupJobID     string
	BackupMode      string
	BackupJobStatus string
}

// DescribeBackupTasksResponse lists backup jobs.
type DescribeBackupTasksResponse struct {
	RequestID string `json:"RequestId"`
	Items     struct {
		BackupJob []BackupJob `json:"BackupJob"`
	} `json:"Items"`
}

// BackupJob is one backup job; BackupID is set once the job has made its backup set.
type BackupJob struct {
	BackupJobID          FlexString `json:"BackupJobId"`
	BackupStatus         string     `json:"BackupStatus"`
	BackupProgressStatus string     `json:"BackupProgressStatus"`
	JobMode              string     `json:"JobMode"`
	Process              string     `json:"Process"`
	TaskAction           string     `json:"TaskAction"`
	BackupID             FlexString `json:"BackupId"`
}

// DescribeBackupPolicy reads an instance's data and log backup settings.
func (c *Client) DescribeBackupPolicy(ctx context.Context, dbInstanceID string) (*BackupPolicy, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeBackupPolicy: %w", err)
	}
	var out BackupPolicy
	if err := c.call(ctx, "DescribeBackupPolicy", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDataBackupPolicy sends the data backup settings. Setting the same values again is
// harmless, so the call is resent on transient errors.
func (c *Client) ModifyDataBackupPolicy(ctx context.Context, req *DataBackupPolicyRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err == nil && (req.PreferredBackupTime == "" || len(req.PreferredBackupPeriod) == 0 || req.BackupRetentionPeriod == 0) {
		err = errors.New("PreferredBackupTime, PreferredBackupPeriod and BackupRetentionPeriod are required")
	}
	if err != nil {
		return fmt.Errorf("RDS ModifyBackupPolicy: %w", err)
	}
	p.set("BackupPolicyMode", BackupPolicyModeData)
	p.set("PreferredBackupTime", req.PreferredBackupTime)
	p.set("PreferredBackupPeriod", strings.Join(req.PreferredBackupPeriod, ","))
	p.setInt("BackupRetentionPeriod", req.BackupRetentionPeriod)
	p.set("BackupInterval", req.BackupInterval)
	p.set("Category", req.Category)
	p.set("CompressType", req.CompressType)
	if req.ArchiveBackupRetentionPeriod != nil {
		p["ArchiveBackupRetentionPeriod"] = strconv.FormatInt(*req.ArchiveBackupRetentionPeriod, 10)
	}
	p.set("ArchiveBackupKeepPolicy", req.ArchiveBackupKeepPolicy)
	p.setInt("ArchiveBackupKeepCount", req.ArchiveBackupKeepCount)
	p.set("ReleasedKeepPolicy", req.ReleasedKeepPolicy)
	p.setInt("LogBackupRetentionPeriod", req.LogBackupRetentionPeriod)
	return c.call(ctx, "ModifyBackupPolicy", p, true, nil)
}

// ModifyLogBackupPolicy sends the log backup settings (resent on transient errors, as above).
func (c *Client) ModifyLogBackupPolicy(ctx context.Context, req *LogBackupPolicyRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err == nil && req.HighSpaceUsageProtection == "" {
		err = errors.New("HighSpaceUsageProtection is required")
	}
	if err != nil {
		return fmt.Errorf("RDS ModifyBackupPolicy: %w", err)
	}
	p.set("BackupPolicyMode", BackupPolicyModeLog)
	p.set("EnableBackupLog", map[bool]string{true: "1", false: "0"}[req.EnableBackupLog])
	// 0 is a meaningful value of both (no local retention), so they are always sent.
	p["LocalLogRetentionHours"] = strconv.FormatInt(req.LocalLogRetentionHours, 10)
	p["LocalLogRetentionSpace"] = strconv.FormatInt(req.LocalLogRetentionSpace, 10)
	p.set("HighSpaceUsageProtection", req.HighSpaceUsageProtection)
	p.setInt("LogBackupRetentionPeriod", req.LogBackupRetentionPeriod)
	p.setInt("LogBackupLocalRetentionNumber", req.LogBackupLocalRetentionNumber)
	return c.call(ctx, "ModifyBackupPolicy", p, true, nil)
}

// CreateBackup starts a backup and returns its job id. It is not resent: a resent create would
// start a second backup (or meet the one in progress).
func (c *Client) CreateBackup(ctx context.Context, req *CreateBackupRequest) (string, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return "", fmt.Errorf("RDS CreateBackup: %w", err)
	}
	p.set("BackupMethod", req.BackupMethod)
	p.set("BackupStrategy", req.BackupStrategy)
	p.set("DBName", strings.Join(req.DBNames, ","))
	var out struct {
		BackupJobID FlexString `json:"BackupJobId"`
	}
	if err := c.call(ctx, "CreateBackup", p, false, &out); err != nil {
		return "", err
	}
	if out.BackupJobID == "" {
		return "", errors.New("RDS CreateBackup: the answer has no BackupJobId")
	}
	return string(out.BackupJobID), nil
}

// DescribeBackups returns one page of backup sets.
func (c *Client) DescribeBackups(ctx context.Context, req *DescribeBackupsRequest) (*DescribeBackupsResponse, error) {
	return c.describeBackupSets(ctx, "DescribeBackups", req, nil)
}

// DescribeDetachedBackups lists the backup sets released instances kept (the same filters and
// answer as DescribeBackups; the region is sent as Region, as its reference names it).
func (c *Client) DescribeDetachedBackups(ctx context.Context, req *DescribeBackupsRequest) (*DescribeBackupsResponse, error) {
	return c.describeBackupSets(ctx, "DescribeDetachedBackups", req, func(p params) { p.set("Region", c.regionID) })
}

// describeBackupSets sends one of the two listings of backup sets, which share their filters and answer.
func (c *Client) describeBackupSets(ctx context.Context, action string, req *DescribeBackupsRequest, extra func(params)) (*DescribeBackupsResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS %s: %w", action, err)
	}
	if extra != nil {
		extra(p)
	}
	p.set("BackupId", req.BackupID)
	p.set("BackupStatus", req.BackupStatus)
	p.set("BackupMode", req.BackupMode)
	p.set("StartTime", req.StartTime)
	p.set("EndTime", req.EndTime)
	p.setInt("PageNumber", req.PageNumber)
	p.setInt("PageSize", req.PageSize)
	var out DescribeBackupsResponse
	if err := c.call(ctx, action, p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DescribeBackupTasks lists the backup jobs that match.
func (c *Client) DescribeBackupTasks(ctx context.Context, req *DescribeBackupTasksRequest) (*DescribeBackupTasksResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeBackupTasks: %w", err)
	}
	p.set("BackupJobId", req.BackupJobID)
	p.set("BackupMode", req.BackupMode)
	p.set("BackupJobStatus", req.BackupJobStatus)
	var out DescribeBackupTasksResponse
	if err := c.call(ctx, "DescribeBackupTasks", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteBackup deletes one backup set; a resent delete meets InvalidBackupId.NotFound.
func (c *Client) DeleteBackup(ctx context.Context, dbInstanceID, backupID string) error {
	p, err := instanceParams(dbInstanceID)
	if err == nil && strings.TrimSpace(backupID) == "" {
		err = errors.New("BackupId is required")
	}
	if err != nil {
		return fmt.Errorf("RDS DeleteBackup: %w", err)
	}
	p.set("BackupId", backupID)
	return c.call(ctx, "DeleteBackup", p, true, nil)
}

// ReleasedKeepPolicy values of DeleteDBInstance and ModifyBackupPolicy: which backup sets survive the
// release of an instance.
const (
	ReleasedKeepNone    = "None"
	ReleasedKeepLastest = "Lastest" // sic: the API's spelling
	ReleasedKeepAll     = "All"
)

// DeleteDBInstanceKeeping releases the instance as DeleteDBInstance does, with ReleasedKeepPolicy
// ("" sends none: the instance's backup policy decides).
func (c *Client) DeleteDBInstanceKeeping(ctx context.Context, dbInstanceID, releasedKeepPolicy string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS DeleteDBInstance: %w", err)
	}
	p.set("ReleasedKeepPolicy", releasedKeepPolicy)
	return c.call(ctx, "DeleteDBInstance", p, true, nil)
}
