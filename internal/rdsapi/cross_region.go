package rdsapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Cross-region backups (issue 46 §2): ModifyInstanceCrossBackupPolicy and
// DescribeInstanceCrossBackupPolicy write and read an instance's copy of its backups in another
// region, DescribeAvailableCrossRegion lists the regions a source region may copy to, and
// DescribeCrossRegionBackups lists the copies (request and answer fields: the classic SDK's rds
// models; sources in internal/simulator/README.md, "Cross-region backups").

// CrossBackupPolicy is an instance's cross-region backup: Region is the destination, Retention
// the days copies are kept (7-1825), LogEnabled whether log backups are copied too.
type CrossBackupPolicy struct {
	Enabled    bool
	Region     string
	Retention  int64
	LogEnabled bool
	// EnabledTime is when copying was turned on (yyyy-MM-ddTHH:mm:ssZ; read only).
	EnabledTime string
}

// ModifyInstanceCrossBackupPolicy turns cross-region backup on (to p.Region, keeping copies
// p.Retention days, RetentType 1, CrossBackupType 1: every set is copied) or off. Sending the
// same policy again is harmless, so the call is resent on transient errors.
func (c *Client) ModifyInstanceCrossBackupPolicy(ctx context.Context, dbInstanceID string, p CrossBackupPolicy) error {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return fmt.Errorf("RDS ModifyInstanceCrossBackupPolicy: %w", err)
	}
	q := params{"RegionId": c.regionID, "DBInstanceId": dbInstanceID, "BackupEnabled": flag01(p.Enabled)}
	if p.Enabled {
		q.set("CrossBackupRegion", p.Region)
		q.set("CrossBackupType", "1")
		q.set("RetentType", "1")
		q.setInt("Retention", p.Retention)
		q.set("LogBackupEnabled", flag01(p.LogEnabled))
	}
	return c.call(ctx, "ModifyInstanceCrossBackupPolicy", q, true, nil)
}

func flag01(on bool) string {
	if on {
		return "1"
	}
	return "0"
}

// crossPolicyResponse is DescribeInstanceCrossBackupPolicy's answer (SDK model
// DescribeInstanceCrossBackupPolicyResponse): the switches read "Enable" or "Disabled".
type crossPolicyResponse struct {
	BackupEnabled     string  `json:"BackupEnabled"`
	LogBackupEnabled  string  `json:"LogBackupEnabled"`
	CrossBackupRegion string  `json:"CrossBackupRegion"`
	Retention         FlexInt `json:"Retention"`
	BackupEnabledTime string  `json:"BackupEnabledTime"`
}

// DescribeInstanceCrossBackupPolicy reads an instance's cross-region backup policy.
func (c *Client) DescribeInstanceCrossBackupPolicy(ctx context.Context, dbInstanceID string) (*CrossBackupPolicy, error) {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return nil, fmt.Errorf("RDS DescribeInstanceCrossBackupPolicy: %w", err)
	}
	var out crossPolicyResponse
	q := params{"RegionId": c.regionID, "DBInstanceId": dbInstanceID}
	if err := c.call(ctx, "DescribeInstanceCrossBackupPolicy", q, true, &out); err != nil {
		return nil, err
	}
	on := func(v string) bool { return strings.EqualFold(v, "Enable") || v == "1" }
	if !on(out.BackupEnabled) {
		return &CrossBackupPolicy{}, nil
	}
	return &CrossBackupPolicy{Enabled: true, Region: out.CrossBackupRegion, Retention: int64(out.Retention),
		LogEnabled: on(out.LogBackupEnabled), EnabledTime: out.BackupEnabledTime}, nil
}

// DescribeAvailableCrossRegion lists the regions the client's region may copy backups to.
func (c *Client) DescribeAvailableCrossRegion(ctx context.Context) ([]string, error) {
	var out struct {
		Regions struct {
			Region []string `json:"Region"`
		} `json:"Regions"`
	}
	if err := c.call(ctx, "DescribeAvailableCrossRegion", params{"RegionId": c.regionID}, true, &out); err != nil {
		return nil, err
	}
	return out.Regions.Region, nil
}

// DescribeCrossRegionBackupsRequest lists an instance's copies that started in [StartTime,
// EndTime] (yyyy-MM-ddTHH:mm:ssZ, both required by the API unless CrossBackupID is set), in one
// destination region or all.
type DescribeCrossRegionBackupsRequest struct {
	// RegionID is the source instance's region ("": the client's).
	RegionID           string
	DBInstanceID       string
	CrossBackupRegion  string
	CrossBackupID      string
	StartTime, EndTime string
	PageNumber         int64
	PageSize           int64
}

// CrossRegionBackup is one item of DescribeCrossRegionBackups.
type CrossRegionBackup struct {
	CrossBackupID      FlexString `json:"CrossBackupId"`
	CrossBackupRegion  string     `json:"CrossBackupRegion"`
	DBInstanceID       string     `json:"DBInstanceId"`
	BackupStartTime    string     `json:"BackupStartTime"`
	BackupEndTime      string     `json:"BackupEndTime"`
	ConsistentTime     string     `json:"ConsistentTime"`
	BackupMethod       string     `json:"BackupMethod"`
	BackupType         string     `json:"BackupType"`
	CrossBackupSetSize FlexInt    `json:"CrossBackupSetSize"`
	StorageType        string     `json:"DBInstanceStorageType"`
	Engine             string     `json:"Engine"`
	EngineVersion      string     `json:"EngineVersion"`
	RestoreRegions     struct {
		RestoreRegion []string `json:"RestoreRegion"`
	} `json:"RestoreRegions"`
}

// DescribeCrossRegionBackupsResponse is one page of copies.
type DescribeCrossRegionBackupsResponse struct {
	TotalRecordCount FlexInt `json:"TotalRecordCount"`
	PageNumber       FlexInt `json:"PageNumber"`
	Items            struct {
		Item []CrossRegionBackup `json:"Item"`
	} `json:"Items"`
}

// DescribeCrossRegionBackups lists one page of an instance's cross-region copies.
func (c *Client) DescribeCrossRegionBackups(ctx context.Context, req *DescribeCrossRegionBackupsRequest) (*DescribeCrossRegionBackupsResponse, error) {
	if err := requireInstanceID(req.DBInstanceID); err != nil {
		return nil, fmt.Errorf("RDS DescribeCrossRegionBackups: %w", err)
	}
	q := params{"RegionId": firstNonEmpty(req.RegionID, c.regionID), "DBInstanceId": req.DBInstanceID}
	q.set("CrossBackupRegion", req.CrossBackupRegion)
	q.set("CrossBackupId", req.CrossBackupID)
	q.set("StartTime", req.StartTime)
	q.set("EndTime", req.EndTime)
	q.setInt("PageNumber", req.PageNumber)
	q.setInt("PageSize", req.PageSize)
	var out DescribeCrossRegionBackupsResponse
	if err := c.call(ctx, "DescribeCrossRegionBackups", q, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateDdrInstanceRequest restores a cross-region backup set (RestoreType 0) to a new instance
// in RegionID, the region that holds the copy.
type CreateDdrInstanceRequest struct {
	RegionID           string // the destination: the copy's region
	SourceRegion       string
	SourceDBInstanceID string // sent as SourceDBInstanceName
	BackupSetID        string // a CrossBackupId of DescribeCrossRegionBackups
	Engine             string
	EngineVersion      string
	DBInstanceClass    string
	DBInstanceStorage  int64
	// DBInstanceStorageType is the new instance's ("" keeps the set's).
	DBInstanceStorageType string
	PayType               string
	ZoneID                string
	VPCID                 string
	VSwitchID             string
	SecurityIPList        string
	ClientToken           string
}

// CreateDdrInstance restores a cross-region backup set to a new instance, idempotently.
func (c *Client) CreateDdrInstance(ctx context.Context, req *CreateDdrInstanceRequest) (*CreateDBInstanceResponse, error) {
	if err := requireInstanceID(req.SourceDBInstanceID); err != nil {
		return nil, fmt.Errorf("RDS CreateDdrInstance: source %w", err)
	}
	if req.RegionID == "" || req.BackupSetID == "" {
		return nil, errors.New("RDS CreateDdrInstance: the destination region and the backup set are required")
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, fmt.Errorf("RDS CreateDdrInstance: %w", err)
	}
	p := params{"RegionId": req.RegionID, "SourceRegion": firstNonEmpty(req.SourceRegion, c.regionID), "SourceDBInstanceName": req.SourceDBInstanceID,
		"BackupSetId": req.BackupSetID, "RestoreType": "0", "ClientToken": token}
	p.set("Engine", req.Engine)
	p.set("EngineVersion", req.EngineVersion)
	p.set("DBInstanceClass", req.DBInstanceClass)
	p.setInt("DBInstanceStorage", req.DBInstanceStorage)
	p.set("DBInstanceStorageType", req.DBInstanceStorageType)
	p.set("PayType", firstNonEmpty(req.PayType, PayTypePostpaid))
	p.set("DBInstanceNetType", NetTypeIntranet)
	p.set("ZoneId", req.ZoneID)
	p.set("InstanceNetworkType", networkType("", req.VPCID))
	p.set("VPCId", req.VPCID)
	p.set("VSwitchId", req.VSwitchID)
	p.set("SecurityIPList", req.SecurityIPList)
	var out CreateDBInstanceResponse
	if err := c.call(ctx, "CreateDdrInstance", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
