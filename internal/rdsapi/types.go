package rdsapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Values of OptimizedWrites, the API name of 16K atomic write.
const (
	OptimizedWritesOn  = "optimized"
	OptimizedWritesOff = "none"
)

// Instance statuses the provider acts on (DBInstanceStatus).
const (
	StatusCreating         = "Creating"
	StatusRunning          = "Running"
	StatusDeleting         = "Deleting"
	StatusRebooting        = "Rebooting"
	StatusClassChanging    = "DBInstanceClassChanging"
	StatusRestoring        = "Restoring"
	StatusCloning          = "INS_CLONING"
	InstanceTypePrimary    = "Primary"
	InstanceTypeReadonly   = "Readonly"
	ArchitectureARM        = "arm"
	ArchitectureX86        = "x86"
	PayTypePostpaid        = "Postpaid"
	NetTypeIntranet        = "Intranet"
	NetworkTypeVPC         = "VPC"
	EffectiveTimeImmediate = "Immediate"
	DefaultSecurityIPArray = "default"
)

// CreateDBInstanceRequest holds the CreateDBInstance parameters the provider sends.
type CreateDBInstanceRequest struct {
	RegionID              string
	ZoneID                string
	Engine                string
	EngineVersion         string
	DBInstanceClass       string
	DBInstanceStorage     int64
	DBInstanceStorageType string
	Category              string
	PayType               string // defaults to Postpaid when empty
	DBInstanceNetType     string // defaults to Intranet when empty
	InstanceNetworkType   string // defaults to VPC when VPCID is set
	VPCID                 string
	VSwitchID             string
	SecurityIPList        string // comma-separated
	DBInstanceDescription string
	DeletionProtection    bool
	// ZoneIDSlave1 and ZoneIDSlave2 are the secondary nodes' zones (zone.go); empty: the cloud's choice.
	ZoneIDSlave1, ZoneIDSlave2 string
	// OptimizedWrites is OptimizedWritesOn or OptimizedWritesOff; empty leaves the choice to the cloud.
	OptimizedWrites string
	// IoAccelerationEnabled is "1" (Buffer Pool Extension on) or "0"; empty leaves it unset.
	IoAccelerationEnabled string
	// ClientToken makes a retried create return the first result instead of a second instance.
	// The client fills one in when it is empty.
	ClientToken string
	// Tags are sent as Tag.N.Key / Tag.N.Value.
	Tags []Tag
	// ResourceGroupID is the instance's resource group; empty: the account's default group.
	ResourceGroupID string
	// TargetMinorVersion is the minor version to create (rds_YYYYMMDD); empty: the latest.
	TargetMinorVersion string
	// Subscription is sent with PayType=Prepaid (billing.go).
	Subscription *Subscription
	// DBParamGroupID is the parameter group the instance is created with (parameter_groups.go);
	// empty: the template defaults.
	DBParamGroupID string
}

// Tag is one key/value tag of an instance.
type Tag struct {
	Key   string
	Value string
}

// CreateReadOnlyDBInstanceRequest holds the CreateReadOnlyDBInstance parameters. It has no
// OptimizedWrites: a read-only instance inherits its primary's value.
type CreateReadOnlyDBInstanceRequest struct {
	RegionID              string
	PrimaryDBInstanceID   string // sent as DBInstanceId
	ZoneID                string
	EngineVersion         string
	DBInstanceClass       string
	DBInstanceStorage     int64
	DBInstanceStorageType string
	Category              string
	PayType               string
	InstanceNetworkType   string
	VPCID                 string
	VSwitchID             string
	DBInstanceDescription string
	DeletionProtection    bool
	ClientToken           string
}

// CloneDBInstanceRequest restores a new instance from a backup or a point in time of a source
// instance. The clone inherits the source's OptimizedWrites value.
type CloneDBInstanceRequest struct {
	RegionID              string
	SourceDBInstanceID    string // sent as DBInstanceId
	BackupID              string // one of BackupID and RestoreTime
	RestoreTime           string // UTC yyyy-MM-ddTHH:mm:ssZ
	PayType               string
	DBInstanceClass       string
	DBInstanceStorage     int64
	DBInstanceStorageType string
	Category              string
	ZoneID                string
	InstanceNetworkType   string
	VPCID                 string
	VSwitchID             string
	ClientToken           string
}

// CreateDBInstanceResponse is the answer to CreateDBInstance, CreateReadOnlyDBInstance and
// CloneDBInstance.
type CreateDBInstanceResponse struct {
	RequestID        string     `json:"RequestId"`
	DBInstanceID     string     `json:"DBInstanceId"`
	OrderID          FlexString `json:"OrderId"`
	ConnectionString string     `json:"ConnectionString"`
	Port             FlexString `json:"Port"`
}

// ModifyDBInstanceSpecRequest changes class, storage, storage type, 16K atomic write and Buffer
// Pool Extension in one order, so that one apply costs one restart. The cloud needs at least one
// of DBInstanceClass and DBInstanceStorage; callers send the current values when only other
// fields change.
type ModifyDBInstanceSpecRequest struct {
	DBInstanceID          string
	DBInstanceClass       string
	DBInstanceStorage     int64
	DBInstanceStorageType string
	PayType               string
	EffectiveTime         string // Immediate when empty
	OptimizedWrites       string // OptimizedWritesOn, OptimizedWritesOff, or empty for no change
	IoAccelerationEnabled string // "1", "0", or empty for no change
	Category              string // the edition of an edition upgrade (Basic -> HighAvailability); empty: unchanged
}

// ModifyDBInstanceSpecResponse is the answer to ModifyDBInstanceSpec.
type ModifyDBInstanceSpecResponse struct {
	RequestID    string     `json:"RequestId"`
	DBInstanceID string     `json:"DBInstanceId"`
	OrderID      FlexString `json:"OrderId"`
}

// ModifySecurityIpsRequest replaces the IP allow-list of one array (default "default").
type ModifySecurityIpsRequest struct {
	DBInstanceID          string
	SecurityIps           string // comma-separated
	DBInstanceIPArrayName string
	// ModifyMode is Cover (empty: the cloud's default), Append or Delete; a named array whose
	// last entry Delete removes is gone.
	ModifyMode string
}

// DescribeDBInstancesRequest filters and pages the instance list. Set MaxResults (with NextToken)
// for token paging, or PageSize (with PageNumber) for classic paging, never both.
type DescribeDBInstancesRequest struct {
	RegionID         string
	Engine           string
	DBInstanceStatus string
	DBInstanceType   string
	VPCID            string
	DBInstanceID     string // comma-separated ids
	Tags             []Tag  // instances carrying all of these tags (Tag.N.key / Tag.N.value)
	PageNumber       int64
	PageSize         int64
	MaxResults       int64
	NextToken        string
}

// DescribeDBInstancesResponse is one page of the instance list.
type DescribeDBInstancesResponse struct {
	RequestID string `json:"RequestId"`
	Items     struct {
		DBInstance []DBInstanceSummary `json:"DBInstance"`
	} `json:"Items"`
	PageNumber       FlexInt `json:"PageNumber"`
	PageRecordCount  FlexInt `json:"PageRecordCount"`
	TotalRecordCount FlexInt `json:"TotalRecordCount"`
	NextToken        string  `json:"NextToken"`
}

// DBInstanceSummary is one DescribeDBInstances item. It carries no OptimizedWritesInfo, storage
// size or architecture: those need DescribeDBInstanceAttribute.
type DBInstanceSummary struct {
	DBInstanceID          string       `json:"DBInstanceId"`
	DBInstanceDescription string       `json:"DBInstanceDescription"`
	RegionID              string       `json:"RegionId"`
	ZoneID                string       `json:"ZoneId"`
	Engine                string       `json:"Engine"`
	EngineVersion         FlexString   `json:"EngineVersion"`
	DBInstanceClass       string       `json:"DBInstanceClass"`
	DBInstanceStorageType string       `json:"DBInstanceStorageType"`
	DBInstanceStatus      string       `json:"DBInstanceStatus"`
	DBInstanceType        string       `json:"DBInstanceType"`
	Category              string       `json:"Category"`
	PayType               string       `json:"PayType"`
	LockMode              string       `json:"LockMode"`
	CreateTime            string       `json:"CreateTime"`
	MasterInstanceID      string       `json:"MasterInstanceId"`
	VpcID                 string       `json:"VpcId"`
	VSwitchID             string       `json:"VSwitchId"`
	ReadOnlyDBInstanceIDs ReadOnlyList `json:"ReadOnlyDBInstanceIds"`
	// ConnectionString is the instance's internal endpoint.
	ConnectionString string `json:"ConnectionString"`
}

// DBInstanceAttribute is the one item of DescribeDBInstanceAttribute.
type DBInstanceAttribute struct {
	DBInstanceID          string       `json:"DBInstanceId"`
	DBInstanceDescription string       `json:"DBInstanceDescription"`
	RegionID              string       `json:"RegionId"`
	ZoneID                string       `json:"ZoneId"`
	Engine                string       `json:"Engine"`
	EngineVersion         FlexString   `json:"EngineVersion"`
	DBInstanceClass       string       `json:"DBInstanceClass"`
	DBInstanceStorage     FlexInt      `json:"DBInstanceStorage"`
	DBInstanceStorageType string       `json:"DBInstanceStorageType"`
	DBInstanceStatus      string       `json:"DBInstanceStatus"`
	DBInstanceType        string       `json:"DBInstanceType"`
	Category              string       `json:"Category"`
	PayType               string       `json:"PayType"`
	LockMode              string       `json:"LockMode"`
	LockReason            string       `json:"LockReason"`
	CreationTime          string       `json:"CreationTime"`
	ExpireTime            string       `json:"ExpireTime"`
	MasterInstanceID      string       `json:"MasterInstanceId"`
	ReadOnlyDBInstanceIDs ReadOnlyList `json:"ReadOnlyDBInstanceIds"`
	InstanceNetworkType   string       `json:"InstanceNetworkType"`
	VpcID                 string       `json:"VpcId"`
	VSwitchID             string       `json:"VSwitchId"`
	ConnectionString      string       `json:"ConnectionString"`
	Port                  FlexString   `json:"Port"`
	SecurityIPList        string       `json:"SecurityIPList"`
	InstructionSetArch    string       `json:"InstructionSetArch"`
	MaintainTime          string       `json:"MaintainTime"`
	ResourceGroupID       string       `json:"ResourceGroupId"`
	DeletionProtection    FlexBool     `json:"DeletionProtection"`
	IoAccelerationEnabled FlexString   `json:"IoAccelerationEnabled"`
	// CurrentKernelVersion, LatestKernelVersion and AutoUpgradeMinorVersion: the minor version (minor_version.go).
	CurrentKernelVersion    string     `json:"CurrentKernelVersion"`
	LatestKernelVersion     string     `json:"LatestKernelVersion"`
	AutoUpgradeMinorVersion string     `json:"AutoUpgradeMinorVersion"`
	SlaveZones              SlaveZones `json:"SlaveZones"`
	// OptimizedWritesInfo is the raw JSON string as sent; use OptimizedWrites for its meaning.
	OptimizedWritesInfo string `json:"OptimizedWritesInfo"`
	// OptimizedWrites is OptimizedWritesInfo parsed during decoding; nil when the field is absent
	// or empty (engines other than MySQL).
	OptimizedWrites *OptimizedWritesInfo `json:"-"`
}

// OptimizedWritesInfo is the parsed form of DescribeDBInstanceAttribute's OptimizedWritesInfo.
type OptimizedWritesInfo struct {
	// Enabled is optimized_writes: 16K atomic write is on now.
	Enabled bool
	// Supported is init_optimized_writes: the instance is eligible for the feature at all.
	Supported bool
}

// ParseOptimizedWritesInfo decodes the JSON string the cloud sends, e.g.
// {"optimized_writes":true,"init_optimized_writes":true}. An empty string (or JSON null) means the
// field does not apply and gives nil. Any other shape is an error: the raw text never reaches state.
func ParseOptimizedWritesInfo(raw string) (*OptimizedWritesInfo, error) {
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" || trimmed == "null" {
		return nil, nil
	}
	var wire struct {
		OptimizedWrites     *bool `json:"optimized_writes"`
		InitOptimizedWrites *bool `json:"init_optimized_writes"`
	}
	dec := json.NewDecoder(strings.NewReader(trimmed))
	if err := dec.Decode(&wire); err != nil {
		return nil, fmt.Errorf("OptimizedWritesInfo is not the expected JSON object: %w (got %s)", err, quoteForError(trimmed))
	}
	if dec.More() {
		return nil, fmt.Errorf("OptimizedWritesInfo has trailing data after its JSON object (got %s)", quoteForError(trimmed))
	}
	if wire.OptimizedWrites == nil || wire.InitOptimizedWrites == nil {
		return nil, fmt.Errorf("OptimizedWritesInfo lacks optimized_writes or init_optimized_writes (got %s)", quoteForError(trimmed))
	}
	return &OptimizedWritesInfo{Enabled: *wire.OptimizedWrites, Supported: *wire.InitOptimizedWrites}, nil
}

// FormatOptimizedWritesInfo writes the exact byte form the cloud sends.
func FormatOptimizedWritesInfo(info OptimizedWritesInfo) string {
	return fmt.Sprintf(`{"optimized_writes":%t,"init_optimized_writes":%t}`, info.Enabled, info.Supported)
}

// quoteForError shortens hostile input before it goes into an error message.
func quoteForError(s string) string {
	const limit = 120
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return strconv.Quote(s)
}

// ReadOnlyList decodes {"ReadOnlyDBInstanceId":[{"DBInstanceId":"rr-…"}]} into the ids.
type ReadOnlyList []string

// UnmarshalJSON accepts the nested object form, an empty string, or null.
func (l *ReadOnlyList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" || string(data) == `""` {
		*l = nil
		return nil
	}
	var wire struct {
		ReadOnlyDBInstanceID []struct {
			DBInstanceID string `json:"DBInstanceId"`
		} `json:"ReadOnlyDBInstanceId"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return fmt.Errorf("ReadOnlyDBInstanceIds: %w", err)
	}
	ids := make([]string, 0, len(wire.ReadOnlyDBInstanceID))
	for _, item := range wire.ReadOnlyDBInstanceID {
		// An item without an id names no instance; keeping "" would put it into state and
		// make callers describe instance "".
		if id := strings.TrimSpace(item.DBInstanceID); id != "" {
			ids = append(ids, id)
		}
	}
	*l = ids
	return nil
}

// MarshalJSON writes the nested object form the cloud uses.
func (l ReadOnlyList) MarshalJSON() ([]byte, error) {
	type item struct {
		DBInstanceID string `json:"DBInstanceId"`
	}
	items := make([]item, 0, len(l))
	for _, id := range l {
		items = append(items, item{DBInstanceID: id})
	}
	return json.Marshal(map[string][]item{"ReadOnlyDBInstanceId": items})
}

// DescribeAvailableClassesRequest asks which classes are offered for a combination.
type DescribeAvailableClassesRequest struct {
	RegionID              string
	ZoneID                string
	Engine                string
	EngineVersion         string
	DBInstanceStorageType string
	Category              string
	InstanceChargeType    string // Postpaid when empty
}

// DescribeAvailableClassesResponse lists the classes offered for the requested combination.
type DescribeAvailableClassesResponse struct {
	RequestID         string           `json:"RequestId"`
	DBInstanceClasses []AvailableClass `json:"DBInstanceClasses"`
}

// AvailableClass is one offered class and its storage range in GB.
type AvailableClass struct {
	DBInstanceClass        string `json:"DBInstanceClass"`
	DBInstanceStorageRange struct {
		MinValue FlexInt `json:"MinValue"`
		MaxValue FlexInt `json:"MaxValue"`
		Step     FlexInt `json:"Step"`
	} `json:"DBInstanceStorageRange"`
}

// FlexString decodes a JSON string or number (the API reference shows some string fields, such as
// EngineVersion and Port, as numbers).
type FlexString string

// UnmarshalJSON accepts a string, a number, or null.
func (s *FlexString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case string(data) == "null":
		*s = ""
	case len(data) > 0 && data[0] == '"':
		var v string
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		*s = FlexString(v)
	default:
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return fmt.Errorf("expected a string or a number, got %s", quoteForError(string(data)))
		}
		*s = FlexString(n.String())
	}
	return nil
}

// FlexInt decodes a JSON number or a string holding an integer.
type FlexInt int64

// UnmarshalJSON accepts a number, a numeric string, an empty string, or null.
func (n *FlexInt) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	text := string(data)
	if text == "null" || text == `""` {
		*n = 0
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &text); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	if err != nil {
		return fmt.Errorf("expected an integer, got %s", quoteForError(string(data)))
	}
	*n = FlexInt(v)
	return nil
}

// FlexBool decodes a JSON boolean or the strings "true"/"false" (any case).
type FlexBool bool

// UnmarshalJSON accepts a boolean, a boolean string, an empty string, or null.
func (b *FlexBool) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	text := string(data)
	if text == "null" || text == `""` {
		*b = false
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &text); err != nil {
			return err
		}
	}
	v, err := strconv.ParseBool(strings.TrimSpace(text))
	if err != nil {
		return fmt.Errorf("expected a boolean, got %s", quoteForError(string(data)))
	}
	*b = FlexBool(v)
	return nil
}

// UnmarshalJSON decodes the attribute and parses OptimizedWritesInfo, so that a malformed value is
// a decoding error rather than text that reaches state.
func (a *DBInstanceAttribute) UnmarshalJSON(data []byte) error {
	type plain DBInstanceAttribute
	var decoded plain
	if err := json.Unmarshal(data, &decoded); err != nil {
		return err
	}
	info, err := ParseOptimizedWritesInfo(decoded.OptimizedWritesInfo)
	if err != nil {
		return fmt.Errorf("instance %s: %w", quoteForError(decoded.DBInstanceID), err)
	}
	decoded.OptimizedWrites = info
	*a = DBInstanceAttribute(decoded)
	return nil
}
