package rdsapi

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

// params are the API parameters of one call. Empty optional values are never sent, so the cloud
// applies its own default rather than an empty string.
type params map[string]string

func (p params) set(name, value string) {
	if value != "" {
		p[name] = value
	}
}

func (p params) setInt(name string, value int64) {
	if value != 0 {
		p[name] = strconv.FormatInt(value, 10)
	}
}

func (p params) setBool(name string, value bool) { p[name] = strconv.FormatBool(value) }

// setIfTrue sends a flag whose default is false only when it is set.
func (p params) setIfTrue(name string, value bool) {
	if value {
		p.setBool(name, true)
	}
}

// encode writes the query string exactly as the V3 canonical query: sorted, RFC 3986 encoded.
func (p params) encode() string {
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	sort.Strings(names)
	pairs := make([]string, 0, len(names))
	for _, name := range names {
		pairs = append(pairs, acssign.PercentEncode(name)+"="+acssign.PercentEncode(p[name]))
	}
	return strings.Join(pairs, "&")
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// NewClientToken returns a fresh idempotency token: ASCII, at most 64 characters.
func NewClientToken() string { return "tf-rds-" + uuid.NewString() }

// clientToken returns the caller's token, or a new one; the caller's must fit the API's format.
func clientToken(token string) (string, error) {
	if token == "" {
		return NewClientToken(), nil
	}
	if len(token) > 64 {
		return "", fmt.Errorf("ClientToken is %d characters long; at most 64 are allowed", len(token))
	}
	for i := 0; i < len(token); i++ {
		if token[i] < 0x21 || token[i] > 0x7e {
			return "", errors.New("ClientToken must be printable ASCII without spaces")
		}
	}
	return token, nil
}

func requireInstanceID(id string) error {
	if strings.TrimSpace(id) == "" {
		return errors.New("DBInstanceId is required")
	}
	return nil
}

// networkType is the explicit value, or VPC when a VPC is given (cloud disks require VPC).
func networkType(explicit, vpcID string) string {
	if explicit == "" && vpcID != "" {
		return NetworkTypeVPC
	}
	return explicit
}

func encodeCreateDBInstance(req *CreateDBInstanceRequest, region string) (params, error) {
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, err
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, region))
	p.set("ZoneId", req.ZoneID)
	p.set("ZoneIdSlave1", req.ZoneIDSlave1)
	p.set("ZoneIdSlave2", req.ZoneIDSlave2)
	p.set("Engine", req.Engine)
	p.set("EngineVersion", req.EngineVersion)
	p.set("DBInstanceClass", req.DBInstanceClass)
	p.setInt("DBInstanceStorage", req.DBInstanceStorage)
	p.set("DBInstanceStorageType", req.DBInstanceStorageType)
	p.set("Category", req.Category)
	p.set("PayType", firstNonEmpty(req.PayType, PayTypePostpaid))
	p.set("DBInstanceNetType", firstNonEmpty(req.DBInstanceNetType, NetTypeIntranet))
	p.set("InstanceNetworkType", networkType(req.InstanceNetworkType, req.VPCID))
	p.set("VPCId", req.VPCID)
	p.set("VSwitchId", req.VSwitchID)
	p.set("SecurityIPList", req.SecurityIPList)
	p.set("DBInstanceDescription", req.DBInstanceDescription)
	p.setIfTrue("DeletionProtection", req.DeletionProtection)
	p.set("OptimizedWrites", req.OptimizedWrites)
	p.set("IoAccelerationEnabled", req.IoAccelerationEnabled)
	p.set("ClientToken", token)
	p.set("ResourceGroupId", req.ResourceGroupID)
	p.set("TargetMinorVersion", req.TargetMinorVersion)
	p.set("DBParamGroupId", req.DBParamGroupID)
	setTags(p, req.Tags, "Key", "Value")
	if req.Subscription != nil && req.PayType == PayTypePrepaid {
		req.Subscription.set(p, true)
	}
	return p, nil
}

func encodeCreateReadOnlyDBInstance(req *CreateReadOnlyDBInstanceRequest, region string) (params, error) {
	if err := requireInstanceID(req.PrimaryDBInstanceID); err != nil {
		return nil, fmt.Errorf("primary %w", err)
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, err
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, region))
	p.set("DBInstanceId", req.PrimaryDBInstanceID)
	p.set("ZoneId", req.ZoneID)
	p.set("EngineVersion", req.EngineVersion)
	p.set("DBInstanceClass", req.DBInstanceClass)
	p.setInt("DBInstanceStorage", req.DBInstanceStorage)
	p.set("DBInstanceStorageType", req.DBInstanceStorageType)
	p.set("Category", req.Category)
	p.set("PayType", firstNonEmpty(req.PayType, PayTypePostpaid))
	p.set("InstanceNetworkType", networkType(req.InstanceNetworkType, req.VPCID))
	p.set("VPCId", req.VPCID)
	p.set("VSwitchId", req.VSwitchID)
	p.set("DBInstanceDescription", req.DBInstanceDescription)
	p.setIfTrue("DeletionProtection", req.DeletionProtection)
	p.set("ClientToken", token)
	return p, nil
}

func encodeCloneDBInstance(req *CloneDBInstanceRequest, region string) (params, error) {
	if err := requireInstanceID(req.SourceDBInstanceID); err != nil {
		return nil, fmt.Errorf("source %w", err)
	}
	if req.BackupID != "" && req.RestoreTime != "" {
		return nil, errors.New("CloneDBInstance takes BackupId or RestoreTime, not both")
	}
	token, err := clientToken(req.ClientToken)
	if err != nil {
		return nil, err
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, region))
	p.set("DBInstanceId", req.SourceDBInstanceID)
	p.set("BackupId", req.BackupID)
	p.set("RestoreTime", req.RestoreTime)
	p.set("PayType", firstNonEmpty(req.PayType, PayTypePostpaid))
	p.set("DBInstanceClass", req.DBInstanceClass)
	p.setInt("DBInstanceStorage", req.DBInstanceStorage)
	p.set("DBInstanceStorageType", req.DBInstanceStorageType)
	p.set("Category", req.Category)
	p.set("ZoneId", req.ZoneID)
	p.set("InstanceNetworkType", networkType(req.InstanceNetworkType, req.VPCID))
	p.set("VPCId", req.VPCID)
	p.set("VSwitchId", req.VSwitchID)
	p.set("ClientToken", token)
	return p, nil
}

func encodeDescribeDBInstances(req *DescribeDBInstancesRequest, region string) (params, error) {
	tokenMode := req.MaxResults != 0 || req.NextToken != ""
	classicMode := req.PageSize != 0 || req.PageNumber != 0
	if tokenMode && classicMode {
		return nil, errors.New("DescribeDBInstances: use MaxResults/NextToken or PageSize/PageNumber, not both")
	}
	if req.MaxResults < 0 || req.PageSize < 0 || req.PageNumber < 0 {
		return nil, errors.New("DescribeDBInstances: paging values must not be negative")
	}
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, region))
	p.set("Engine", req.Engine)
	p.set("DBInstanceStatus", req.DBInstanceStatus)
	p.set("DBInstanceType", req.DBInstanceType)
	p.set("VpcId", req.VPCID)
	p.set("DBInstanceId", req.DBInstanceID)
	setTags(p, req.Tags, "key", "value")
	p.setInt("PageNumber", req.PageNumber)
	p.setInt("PageSize", req.PageSize)
	p.setInt("MaxResults", req.MaxResults)
	p.set("NextToken", req.NextToken)
	return p, nil
}

func encodeDescribeAvailableClasses(req *DescribeAvailableClassesRequest, region string) params {
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, region))
	p.set("ZoneId", req.ZoneID)
	p.set("Engine", req.Engine)
	p.set("EngineVersion", req.EngineVersion)
	p.set("DBInstanceStorageType", req.DBInstanceStorageType)
	p.set("Category", req.Category)
	p.set("InstanceChargeType", firstNonEmpty(req.InstanceChargeType, PayTypePostpaid))
	return p
}

func encodeModifyDBInstanceSpec(req *ModifyDBInstanceSpecRequest) (params, error) {
	if err := requireInstanceID(req.DBInstanceID); err != nil {
		return nil, err
	}
	p := params{}
	p.set("DBInstanceId", req.DBInstanceID)
	p.set("DBInstanceClass", req.DBInstanceClass)
	p.setInt("DBInstanceStorage", req.DBInstanceStorage)
	p.set("DBInstanceStorageType", req.DBInstanceStorageType)
	p.set("PayType", req.PayType)
	p.set("EffectiveTime", firstNonEmpty(req.EffectiveTime, EffectiveTimeImmediate))
	p.set("OptimizedWrites", req.OptimizedWrites)
	p.set("IoAccelerationEnabled", req.IoAccelerationEnabled)
	p.set("Category", req.Category)
	return p, nil
}

func encodeModifySecurityIps(req *ModifySecurityIpsRequest) (params, error) {
	if err := requireInstanceID(req.DBInstanceID); err != nil {
		return nil, err
	}
	p := params{}
	p.set("DBInstanceId", req.DBInstanceID)
	p.set("SecurityIps", req.SecurityIps)
	p.set("DBInstanceIPArrayName", firstNonEmpty(req.DBInstanceIPArrayName, DefaultSecurityIPArray))
	p.set("ModifyMode", req.ModifyMode)
	return p, nil
}

// instanceParams are the parameters of the actions that take only an instance id.
func instanceParams(id string) (params, error) {
	if err := requireInstanceID(id); err != nil {
		return nil, err
	}
	return params{"DBInstanceId": id}, nil
}

// setTags encodes tags as Tag.N.<key>/Tag.N.<value> from 1. CreateDBInstance spells the suffixes
// Key/Value, the DescribeDBInstances filter key/value (the SDK's request models).
func setTags(p params, tags []Tag, key, value string) {
	for i, t := range tags {
		p.set(fmt.Sprintf("Tag.%d.%s", i+1, key), t.Key)
		p.set(fmt.Sprintf("Tag.%d.%s", i+1, value), t.Value)
	}
}
