package rdsapi

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// SQL audit (issue 46 §1) through the Database Autonomy Service, which Alibaba now recommends over
// RDS's ModifySQLCollectorPolicy: ModifySqlLogConfig writes it and DescribeSqlLogConfig reads it
// back (DAS API 2020-01-16, its own endpoint, as DescribeAutoScalingConfig).

// SQLAudit is an instance's SQL audit: Retention is the days logs are kept in all (7, 30, 180 or
// 365), HotRetention the days of them kept hot (1-7).
type SQLAudit struct {
	Enabled                 bool
	Retention, HotRetention int64
}

// ModifySqlLogConfig turns SQL audit on with its retentions, or off. Sending the same
// configuration again is harmless, so the call is resent on transient errors.
func (c *Client) ModifySqlLogConfig(ctx context.Context, dbInstanceID string, cfg SQLAudit) error {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return fmt.Errorf("DAS ModifySqlLogConfig: %w", err)
	}
	p := params{"InstanceId": dbInstanceID, "Enable": strconv.FormatBool(cfg.Enabled)}
	if cfg.Enabled {
		p.setInt("Retention", cfg.Retention)
		p.setInt("HotRetention", cfg.HotRetention)
	}
	var out dasAnswer
	if err := c.call(ctx, "ModifySqlLogConfig", p, true, &out); err != nil {
		return err
	}
	return out.err("ModifySqlLogConfig", dbInstanceID)
}

// dasAnswer is the envelope of DAS answers: Code and Success are strings.
type dasAnswer struct {
	Code    string `json:"Code"`
	Message string `json:"Message"`
	Success string `json:"Success"`
}

func (a dasAnswer) err(action, id string) error {
	if strings.EqualFold(a.Success, "false") {
		return fmt.Errorf("DAS %s %s: %s %s", action, id, a.Code, a.Message)
	}
	return nil
}

// sqlLogConfigResponse is DescribeSqlLogConfig's answer (DAS SDK model
// DescribeSqlLogConfigResponseBody).
type sqlLogConfigResponse struct {
	dasAnswer
	Data struct {
		SqlLogEnable bool    `json:"SqlLogEnable"`
		Retention    FlexInt `json:"Retention"`
		HotRetention FlexInt `json:"HotRetention"`
	} `json:"Data"`
}

// DescribeSqlLogConfig reads an instance's SQL audit from DAS (retentions zero while it is off).
func (c *Client) DescribeSqlLogConfig(ctx context.Context, dbInstanceID string) (*SQLAudit, error) {
	if err := requireInstanceID(dbInstanceID); err != nil {
		return nil, fmt.Errorf("DAS DescribeSqlLogConfig: %w", err)
	}
	var out sqlLogConfigResponse
	if err := c.call(ctx, "DescribeSqlLogConfig", params{"InstanceId": dbInstanceID}, true, &out); err != nil {
		return nil, err
	}
	if err := out.err("DescribeSqlLogConfig", dbInstanceID); err != nil {
		return nil, err
	}
	if !out.Data.SqlLogEnable {
		return &SQLAudit{}, nil
	}
	return &SQLAudit{Enabled: true, Retention: int64(out.Data.Retention), HotRetention: int64(out.Data.HotRetention)}, nil
}
