package rdsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The database proxy (read/write splitting, connection pooling): ModifyDBProxy starts, changes and
// shuts it down, ModifyDBProxyInstance resizes it, ModifyDBProxyEndpoint configures an endpoint,
// DescribeDBProxy and DescribeDBProxyEndpoint read them back. Sources and assumptions:
// internal/simulator/README.md, "Database proxy".

// Values of ModifyDBProxy's ConfigDBProxyService.
const (
	ProxyStartup  = "Startup"
	ProxyModify   = "Modify"
	ProxyShutdown = "Shutdown"
)

// Proxy instance types as ModifyDBProxy takes them; DescribeDBProxy answers "3" and "2".
const (
	ProxyTypeCommon    = "common"
	ProxyTypeExclusive = "exclusive"
)

// Values of DbEndpointReadWriteMode.
const (
	ProxyReadWrite = "ReadWrite"
	ProxyReadOnly  = "ReadOnly"
)

// Proxy features of ConfigDBProxyFeatures and DBProxyFeatures ("Name:Status;...").
const (
	ProxyFeatureReadWriteSplitting = "ReadWriteSpliting" // sic: the API's spelling
	ProxyFeatureConnectionPersist  = "ConnectionPersist"
	ProxyFeatureTransactionSplit   = "TransactionReadSqlRouteOptimizeStatus"
	ProxyFeatureCausalConsistRead  = "CausalConsistRead"
)

// CodeProxyNotStarted is the simulator's answer to an endpoint action on a proxy that is off
// (README "Database proxy": the code is an assumption).
const CodeProxyNotStarted = "InvalidDBProxy.NotStarted"

// IsProxyEndpointGone tells an endpoint that no longer exists: not found, or its proxy shut down.
func IsProxyEndpointGone(err error) bool {
	return IsNotFound(err) || ErrorCode(err) == CodeProxyNotStarted
}

// Values of DbEndpointOperator besides Modify, the default.
const (
	ProxyEndpointCreate = "Create"
	ProxyEndpointDelete = "Delete"
)

// Values of ReadOnlyInstanceDistributionType.
const (
	ProxyDistributionStandard = "Standard"
	ProxyDistributionCustom   = "Custom"
)

// ModifyDBProxyRequest starts (Startup), changes (Modify: persistent connections) or shuts down
// (Shutdown) the proxy of a primary instance.
type ModifyDBProxyRequest struct {
	DBInstanceID string
	Service      string
	InstanceType string
	InstanceNum  int64
	VPCID        string
	VSwitchID    string
	// PersistentConnections: "Enabled" or "Disabled" ("" leaves it).
	PersistentConnections string
}

// ModifyDBProxy sends the request. Startup is not resent after a lost answer (a second one is
// refused while the first is starting); Modify and Shutdown leave the same proxy when repeated.
func (c *Client) ModifyDBProxy(ctx context.Context, req *ModifyDBProxyRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBProxy: %w", err)
	}
	if !slices.Contains([]string{ProxyStartup, ProxyModify, ProxyShutdown}, req.Service) {
		return fmt.Errorf("RDS ModifyDBProxy: ConfigDBProxyService %q is not Startup, Modify or Shutdown", req.Service)
	}
	p.set("ConfigDBProxyService", req.Service)
	p.set("DBProxyInstanceType", req.InstanceType)
	p.setInt("DBProxyInstanceNum", req.InstanceNum)
	p.set("VPCId", req.VPCID)
	p.set("VSwitchId", req.VSwitchID)
	if req.Service == ProxyStartup {
		p.set("InstanceNetworkType", "VPC")
	}
	p.set("PersistentConnectionStatus", req.PersistentConnections)
	return c.call(ctx, "ModifyDBProxy", p, req.Service != ProxyStartup, nil)
}

// ModifyDBProxyInstanceRequest resizes the proxy; EffectiveTime is Immediate or MaintainTime.
type ModifyDBProxyInstanceRequest struct {
	DBInstanceID  string
	InstanceType  string
	InstanceNum   int64
	EffectiveTime string
}

// ModifyDBProxyInstance sends the request; repeated, it asks for the same size.
func (c *Client) ModifyDBProxyInstance(ctx context.Context, req *ModifyDBProxyInstanceRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBProxyInstance: %w", err)
	}
	if req.InstanceNum < 1 || req.EffectiveTime == "" {
		return errors.New("RDS ModifyDBProxyInstance: DBProxyInstanceNum and EffectiveTime are required")
	}
	p.set("DBProxyInstanceType", req.InstanceType)
	p.setInt("DBProxyInstanceNum", req.InstanceNum)
	p.set("EffectiveTime", req.EffectiveTime)
	return c.call(ctx, "ModifyDBProxyInstance", p, true, nil)
}

// DBProxy is DescribeDBProxy's answer. Started is false when the proxy is off (never started, or
// shut down): the answer then has no DBProxyInstanceStatus.
type DBProxy struct {
	Started bool
	// Status is DBProxyInstanceStatus: Creating, Running, ...
	Status string
	// InstanceType is common or exclusive.
	InstanceType          string
	InstanceNum           int64
	PersistentConnections bool
	Endpoints             []DBProxyAddress
}

// DBProxyAddress is one proxy endpoint's id and address, with its description
// (DbEndpointAliases) and type as DbProxyEndpointItems lists them by endpoint name.
type DBProxyAddress struct {
	EndpointID    string
	ConnectString string
	Port          string
	VSwitchID     string
	Aliases       string
	Type          string
}

type dbProxyAnswer struct {
	DBProxyServiceStatus              string     `json:"DBProxyServiceStatus"`
	DBProxyInstanceStatus             string     `json:"DBProxyInstanceStatus"`
	DBProxyInstanceType               FlexString `json:"DBProxyInstanceType"`
	DBProxyInstanceNum                FlexString `json:"DBProxyInstanceNum"`
	DBProxyPersistentConnectionStatus string     `json:"DBProxyPersistentConnectionStatus"`
	DBProxyConnectStringItems         struct {
		Items []struct {
			DBProxyEndpointID        string     `json:"DBProxyEndpointId"`
			DBProxyConnectString     string     `json:"DBProxyConnectString"`
			DBProxyConnectStringPort FlexString `json:"DBProxyConnectStringPort"`
			DBProxyVswitchID         string     `json:"DBProxyVswitchId"`
		} `json:"DBProxyConnectStringItems"`
	} `json:"DBProxyConnectStringItems"`
	DbProxyEndpointItems struct {
		Items []struct {
			Name    string `json:"DbProxyEndpointName"`
			Type    string `json:"DbProxyEndpointType"`
			Aliases string `json:"DbProxyEndpointAliases"`
		} `json:"DbProxyEndpointItems"`
	} `json:"DbProxyEndpointItems"`
}

// proxyTypeNames maps DescribeDBProxy's DBProxyInstanceType codes to ModifyDBProxy's names.
var proxyTypeNames = map[string]string{"3": ProxyTypeCommon, "2": ProxyTypeExclusive, ProxyTypeCommon: ProxyTypeCommon, ProxyTypeExclusive: ProxyTypeExclusive}

// DescribeDBProxy reads the proxy of a primary instance.
func (c *Client) DescribeDBProxy(ctx context.Context, dbInstanceID string) (*DBProxy, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBProxy: %w", err)
	}
	var out dbProxyAnswer
	if err := c.call(ctx, "DescribeDBProxy", p, true, &out); err != nil {
		return nil, err
	}
	proxy := &DBProxy{Started: out.DBProxyInstanceStatus != "", Status: out.DBProxyInstanceStatus,
		PersistentConnections: strings.EqualFold(out.DBProxyPersistentConnectionStatus, "Enabled")}
	if !proxy.Started {
		return proxy, nil
	}
	kind, ok := proxyTypeNames[string(out.DBProxyInstanceType)]
	if !ok {
		return nil, fmt.Errorf("RDS DescribeDBProxy: unexpected DBProxyInstanceType %s", quoteForError(string(out.DBProxyInstanceType)))
	}
	num, err := strconv.ParseInt(string(out.DBProxyInstanceNum), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBProxy: unexpected DBProxyInstanceNum %s", quoteForError(string(out.DBProxyInstanceNum)))
	}
	proxy.InstanceType, proxy.InstanceNum = kind, num
	for _, it := range out.DBProxyConnectStringItems.Items {
		a := DBProxyAddress{EndpointID: it.DBProxyEndpointID, ConnectString: it.DBProxyConnectString,
			Port: string(it.DBProxyConnectStringPort), VSwitchID: it.DBProxyVswitchID}
		for _, item := range out.DbProxyEndpointItems.Items {
			if item.Name == a.EndpointID {
				a.Aliases, a.Type = item.Aliases, item.Type
			}
		}
		proxy.Endpoints = append(proxy.Endpoints, a)
	}
	return proxy, nil
}

// DBProxyEndpoint is DescribeDBProxyEndpoint's answer, parsed.
type DBProxyEndpoint struct {
	EndpointID    string
	ConnectString string
	Port          string
	ReadWriteMode string
	// Features maps each feature named in DBProxyFeatures to its status (0, 1; 0-2 for CausalConsistRead).
	Features map[string]int
	// Weights maps an instance id (the primary's or a read-only instance's) to its read weight.
	Weights          map[string]int64
	DistributionType string
	// MaxDelaySeconds is ReadOnlyInstanceMaxDelayTime; -1 when the endpoint has none.
	MaxDelaySeconds int64
	// Aliases is the endpoint's description (DbProxyEndpointAliases).
	Aliases string
}

type dbProxyEndpointAnswer struct {
	DBProxyEndpointID                string     `json:"DBProxyEndpointId"`
	DBProxyConnectString             string     `json:"DBProxyConnectString"`
	DBProxyConnectStringPort         FlexString `json:"DBProxyConnectStringPort"`
	DbProxyEndpointReadWriteMode     string     `json:"DbProxyEndpointReadWriteMode"`
	DBProxyFeatures                  string     `json:"DBProxyFeatures"`
	ReadOnlyInstanceWeight           string     `json:"ReadOnlyInstanceWeight"`
	ReadOnlyInstanceDistributionType string     `json:"ReadOnlyInstanceDistributionType"`
	ReadOnlyInstanceMaxDelayTime     FlexString `json:"ReadOnlyInstanceMaxDelayTime"`
	DbProxyEndpointAliases           string     `json:"DbProxyEndpointAliases"`
}

// DescribeDBProxyEndpoint reads one proxy endpoint ("" : the default one).
func (c *Client) DescribeDBProxyEndpoint(ctx context.Context, dbInstanceID, endpointID string) (*DBProxyEndpoint, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBProxyEndpoint: %w", err)
	}
	p.set("DBProxyEndpointId", endpointID)
	var out dbProxyEndpointAnswer
	if err := c.call(ctx, "DescribeDBProxyEndpoint", p, true, &out); err != nil {
		return nil, err
	}
	return parseProxyEndpoint(&out)
}

func parseProxyEndpoint(out *dbProxyEndpointAnswer) (*DBProxyEndpoint, error) {
	features, err := ParseProxyFeatures(out.DBProxyFeatures)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBProxyEndpoint: %w", err)
	}
	weights, err := parseProxyWeights(out.ReadOnlyInstanceWeight)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBProxyEndpoint: %w", err)
	}
	delay := int64(-1)
	if s := string(out.ReadOnlyInstanceMaxDelayTime); s != "" {
		if delay, err = strconv.ParseInt(s, 10, 64); err != nil {
			return nil, fmt.Errorf("RDS DescribeDBProxyEndpoint: unexpected ReadOnlyInstanceMaxDelayTime %s", quoteForError(s))
		}
	}
	return &DBProxyEndpoint{EndpointID: out.DBProxyEndpointID, ConnectString: out.DBProxyConnectString, Port: string(out.DBProxyConnectStringPort),
		ReadWriteMode: out.DbProxyEndpointReadWriteMode, Features: features, Weights: weights,
		DistributionType: out.ReadOnlyInstanceDistributionType, MaxDelaySeconds: delay, Aliases: out.DbProxyEndpointAliases}, nil
}

// ParseProxyFeatures reads "Name:Status;Name:Status" (DBProxyFeatures, ConfigDBProxyFeatures).
func ParseProxyFeatures(s string) (map[string]int, error) {
	out := map[string]int{}
	for _, item := range strings.Split(s, ";") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		name, status, ok := strings.Cut(item, ":")
		n, err := strconv.Atoi(strings.TrimSpace(status))
		if !ok || err != nil || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("proxy feature %s is not Name:Status", quoteForError(item))
		}
		out[strings.TrimSpace(name)] = n
	}
	return out, nil
}

// FormatProxyFeatures writes ConfigDBProxyFeatures, names sorted, no trailing semicolon.
func FormatProxyFeatures(features map[string]int) string {
	parts := make([]string, 0, len(features))
	for _, name := range slices.Sorted(maps.Keys(features)) {
		parts = append(parts, name+":"+strconv.Itoa(features[name]))
	}
	return strings.Join(parts, ";")
}

// parseProxyWeights reads DescribeDBProxyEndpoint's ReadOnlyInstanceWeight: a JSON list of
// {"DBInstanceId", "Weight"} objects (README: the shape is the official provider's reading), or,
// tolerated, the request's {"id":"weight"} object.
func parseProxyWeights(s string) (map[string]int64, error) {
	out := map[string]int64{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	var list []struct {
		ID     string     `json:"DBInstanceId"`
		Weight FlexString `json:"Weight"`
	}
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		var object map[string]FlexString
		if json.Unmarshal([]byte(s), &object) != nil {
			return nil, fmt.Errorf("ReadOnlyInstanceWeight %s is neither a list nor an object of weights", quoteForError(s))
		}
		for id, w := range object {
			list = append(list, struct {
				ID     string     `json:"DBInstanceId"`
				Weight FlexString `json:"Weight"`
			}{id, w})
		}
	}
	for _, it := range list {
		w, err := strconv.ParseInt(string(it.Weight), 10, 64)
		if err != nil || it.ID == "" {
			return nil, fmt.Errorf("ReadOnlyInstanceWeight %s: weight %s of %q is not a number", quoteForError(s), quoteForError(string(it.Weight)), it.ID)
		}
		out[it.ID] = w
	}
	return out, nil
}

// ModifyDBProxyEndpointRequest configures a proxy endpoint. Weights, when set, are sent with
// ReadOnlyInstanceDistributionType Custom; DistributionType Standard sends none.
type ModifyDBProxyEndpointRequest struct {
	DBInstanceID string
	EndpointID   string
	// Operator is Modify (the default), Create or Delete.
	Operator string
	// Aliases is the endpoint's description (DbEndpointAliases; "" leaves it).
	Aliases          string
	ReadWriteMode    string
	Features         map[string]int
	DistributionType string
	Weights          map[string]int64
	// MaxDelaySeconds is sent when not nil.
	MaxDelaySeconds *int64
	// EffectiveTime is Immediate or MaintainTime; the API's default is MaintainTime, so it is
	// always sent.
	EffectiveTime string
}

// ModifyDBProxyEndpoint sends the request. A Create is not resent after a lost answer (it would
// make a second endpoint); Modify and Delete are.
func (c *Client) ModifyDBProxyEndpoint(ctx context.Context, req *ModifyDBProxyEndpointRequest) error {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBProxyEndpoint: %w", err)
	}
	if req.EffectiveTime == "" || (req.EndpointID == "" && req.Operator != ProxyEndpointCreate) {
		return errors.New("RDS ModifyDBProxyEndpoint: EffectiveTime, and DBProxyEndpointId unless creating, are required")
	}
	p.set("DBProxyEndpointId", req.EndpointID)
	p.set("DbEndpointOperator", req.Operator)
	p.set("DbEndpointAliases", req.Aliases)
	p.set("DbEndpointReadWriteMode", req.ReadWriteMode)
	p.set("ConfigDBProxyFeatures", FormatProxyFeatures(req.Features))
	p.set("ReadOnlyInstanceDistributionType", req.DistributionType)
	if len(req.Weights) > 0 {
		weights := map[string]string{}
		for id, w := range req.Weights {
			weights[id] = strconv.FormatInt(w, 10)
		}
		body, _ := json.Marshal(weights) // a map of strings always encodes
		p.set("ReadOnlyInstanceWeight", string(body))
	}
	if req.MaxDelaySeconds != nil {
		p["ReadOnlyInstanceMaxDelayTime"] = strconv.FormatInt(*req.MaxDelaySeconds, 10)
	}
	p.set("EffectiveTime", req.EffectiveTime)
	return c.call(ctx, "ModifyDBProxyEndpoint", p, req.Operator != ProxyEndpointCreate, nil)
}

// DBProxySSL is GetDbProxyInstanceSsl's answer: SSL is on for the endpoints it lists.
type DBProxySSL struct {
	// Endpoints are the names of the endpoints with a certificate, and ExpiresAt their expiry.
	Endpoints []string
	ExpiresAt []string
}

// GetDbProxyInstanceSsl reads the proxy's SSL certificates; none listed means SSL is off.
func (c *Client) GetDbProxyInstanceSsl(ctx context.Context, dbInstanceID string) (*DBProxySSL, error) {
	if strings.TrimSpace(dbInstanceID) == "" {
		return nil, errors.New("RDS GetDbProxyInstanceSsl: DbInstanceId is required")
	}
	p := params{}
	p.set("DbInstanceId", dbInstanceID) // sic: this action spells it Db
	var out struct {
		DbProxyCertListItems struct {
			Items []struct {
				EndpointName   string `json:"EndpointName"`
				SslExpiredTime string `json:"SslExpiredTime"`
			} `json:"DbProxyCertListItems"`
		} `json:"DbProxyCertListItems"`
	}
	if err := c.call(ctx, "GetDbProxyInstanceSsl", p, true, &out); err != nil {
		return nil, err
	}
	ssl := &DBProxySSL{}
	for _, it := range out.DbProxyCertListItems.Items {
		ssl.Endpoints, ssl.ExpiresAt = append(ssl.Endpoints, it.EndpointName), append(ssl.ExpiresAt, it.SslExpiredTime)
	}
	return ssl, nil
}

// ModifyDbProxyInstanceSsl turns SSL of a proxy endpoint on or off; repeated, it asks for the same.
func (c *Client) ModifyDbProxyInstanceSsl(ctx context.Context, dbInstanceID, endpointID string, enabled bool) error {
	if strings.TrimSpace(dbInstanceID) == "" || endpointID == "" {
		return errors.New("RDS ModifyDbProxyInstanceSsl: DbInstanceId and DbProxyEndpointId are required")
	}
	p := params{}
	p.set("DbInstanceId", dbInstanceID)
	p.set("DbProxyEndpointId", endpointID)
	p["DbProxySslEnabled"] = map[bool]string{true: "1", false: "0"}[enabled]
	return c.call(ctx, "ModifyDbProxyInstanceSsl", p, true, nil)
}
