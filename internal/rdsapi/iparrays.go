package rdsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Values of DBInstanceIPArrayAttribute.
const (
	// IPArrayHidden marks an array another Alibaba service (DMS, DAS, DTS) added; the console does
	// not show it.
	IPArrayHidden = "hidden"
)

// DBInstanceIPArray is one IP allow-list array of an instance (DescribeDBInstanceIPArrayList).
type DBInstanceIPArray struct {
	DBInstanceIPArrayName      string `json:"DBInstanceIPArrayName"`
	DBInstanceIPArrayAttribute string `json:"DBInstanceIPArrayAttribute"`
	SecurityIPType             string `json:"SecurityIPType"`
	// SecurityIPList is the array's entries, comma-separated (empty for an empty array).
	SecurityIPList       string `json:"SecurityIPList"`
	WhitelistNetworkType string `json:"WhitelistNetworkType"`
}

// IPArrayList decodes {"DBInstanceIPArray":[…]} into the arrays; an empty string or null is none.
type IPArrayList []DBInstanceIPArray

// UnmarshalJSON accepts the nested object form, an empty string, or null.
func (l *IPArrayList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" || string(data) == `""` {
		*l = nil
		return nil
	}
	var wire struct {
		DBInstanceIPArray []DBInstanceIPArray `json:"DBInstanceIPArray"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return fmt.Errorf("decoding Items: %w", err)
	}
	*l = wire.DBInstanceIPArray
	return nil
}

// DescribeDBInstanceIPArrayListResponse lists every IP array of an instance, hidden ones included.
type DescribeDBInstanceIPArrayListResponse struct {
	RequestID string      `json:"RequestId"`
	Items     IPArrayList `json:"Items"`
}

// Array returns the array named name (names compare case-insensitively: the API reference spells
// the default one both "default" and "Default"), or nil.
func (r *DescribeDBInstanceIPArrayListResponse) Array(name string) *DBInstanceIPArray {
	for i := range r.Items {
		if strings.EqualFold(strings.TrimSpace(r.Items[i].DBInstanceIPArrayName), name) {
			return &r.Items[i]
		}
	}
	return nil
}

// DescribeDBInstanceIPArrayList returns every IP allow-list array of an instance.
func (c *Client) DescribeDBInstanceIPArrayList(ctx context.Context, dbInstanceID string) (*DescribeDBInstanceIPArrayListResponse, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBInstanceIPArrayList: %w", err)
	}
	var out DescribeDBInstanceIPArrayListResponse
	if err := c.call(ctx, "DescribeDBInstanceIPArrayList", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
