package simulator

import (
	"crypto/rand"
	"slices"
	"strings"
	"time"
)

// The database proxy (README "Database proxy"): ModifyDBProxy starts it on a primary (with a
// default ReadWrite endpoint), changes its persistent connections, or shuts it down;
// ModifyDBProxyInstance resizes it; ModifyDBProxyEndpoint creates, changes and deletes endpoints;
// DescribeDBProxy and DescribeDBProxyEndpoint read them. A change with EffectiveTime MaintainTime
// (the API's default) waits for the instance's maintenance window.

func init() {
	for name, h := range map[string]handler{
		"ModifyDBProxy":           (*Simulator).modifyDBProxy,
		"ModifyDBProxyInstance":   (*Simulator).modifyDBProxyInstance,
		"ModifyDBProxyEndpoint":   (*Simulator).modifyDBProxyEndpoint,
		"DescribeDBProxy":         (*Simulator).describeDBProxy,
		"DescribeDBProxyEndpoint": (*Simulator).describeDBProxyEndpoint,
	} {
		actions[name] = h
	}
}

// Proxy features and their highest status (CausalConsistRead: 0 eventual, 1 session, 2 global).
var proxyFeatures = map[string]int{"ReadWriteSpliting": 1, "ConnectionPersist": 1, "TransactionReadSqlRouteOptimizeStatus": 1, "CausalConsistRead": 2}

// proxyMinMinor is the oldest minor version (rds_YYYYMMDD) of a High-availability instance that
// may start the proxy, per major version (ModifyDBProxy's API reference).
var proxyMinMinor = map[string]string{"8.0": "rds_20190915", "5.7": "rds_20190925", "5.6": "rds_20200229"}

// proxyUnofferedZones are the zones that do not offer the database proxy (README "Database proxy"
// [P9]: Alibaba's "Enable the database proxy" names Zones C and D of China (Hangzhou)).
var proxyUnofferedZones = []string{"cn-hangzhou-c", "cn-hangzhou-d"}

// proxyUnofferedZone is the zone of an instance's zone id that does not offer the proxy ("": none):
// the id itself, or one of a multi-zone id's zones, <region>-MAZ<n>(a,b[,c]) (README [P10]).
func proxyUnofferedZone(zoneID string) string {
	zones := []string{zoneID}
	if i, open := strings.Index(zoneID, "-MAZ"), strings.Index(zoneID, "("); i > 0 && open > i && strings.HasSuffix(zoneID, ")") {
		zones = nil
		for _, letter := range strings.Split(zoneID[open+1:len(zoneID)-1], ",") {
			zones = append(zones, zoneID[:i]+"-"+strings.TrimSpace(letter))
		}
	}
	for _, z := range zones {
		if slices.Contains(proxyUnofferedZones, z) {
			return z
		}
	}
	return ""
}

// Limits of the API reference: proxy instances (ModifyDBProxy, ModifyDBProxyInstance: 1-16 in the
// current request models, README "Database proxy" [P2]), the delay threshold and the read weights
// (ModifyDBProxyEndpoint).
const (
	proxyMaxInstances  = 16
	proxyMaxDelay      = 3600
	proxyDefaultDelay  = 30
	proxyWeightStep    = 100
	proxyMaxWeight     = 10000
	proxyStandardShare = 100 // assumption: Standard gives each read-only instance this weight, the primary none
)

// dbProxy is a primary's proxy; nil or Started false: off.
type dbProxy struct {
	Started     bool             `json:"started"`
	Status      string           `json:"status"`
	StatusUntil time.Time        `json:"status_until"`
	Type        string           `json:"type"`
	Num         int64            `json:"num"`
	VpcID       string           `json:"vpc_id"`
	VSwitchID   string           `json:"vswitch_id"`
	Persistent  bool             `json:"persistent"`
	Endpoints   []*proxyEndpoint `json:"endpoints"`
	// NextNum, from NextAt on, is a resize waiting for the maintenance window.
	NextNum int64     `json:"next_num,omitempty"`
	NextAt  time.Time `json:"next_at,omitempty"`
}

// proxyEndpoint is one endpoint of a proxy; Next, from NextAt on, is a change waiting for the
// maintenance window.
type proxyEndpoint struct {
	ID           string           `json:"id"`
	Default      bool             `json:"default"`
	Aliases      string           `json:"aliases,omitempty"`
	Mode         string           `json:"mode"`
	Features     map[string]int   `json:"features"`
	Distribution string           `json:"distribution"`
	Weights      map[string]int64 `json:"weights,omitempty"`
	MaxDelay     int64            `json:"max_delay"`
	// SSLUntil is when the endpoint's certificate expires; zero: SSL is off.
	SSLUntil time.Time `json:"ssl_until,omitempty"`
	// Host and Port are the address ModifyDBProxyEndpointAddress gave it; "": the one it was made with.
	Host   string         `json:"host,omitempty"`
	Port   string         `json:"port,omitempty"`
	Next   *proxyEndpoint `json:"next,omitempty"`
	NextAt time.Time      `json:"next_at,omitempty"`
}

func errNoProxy(id string) *apiError {
	return newErr(400, "InvalidDBProxy.NotStarted", "The database proxy of %s is not started; call ModifyDBProxy with ConfigDBProxyService=Startup first.", id)
}

// proxyOf is the started proxy of the primary named by DBInstanceId, brought up to now.
func (s *Simulator) proxyOf(c *call) (*instance, *dbProxy, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, nil, e
	}
	if in.Proxy == nil || !in.Proxy.Started {
		return in, nil, errNoProxy(in.ID)
	}
	settleProxy(in.Proxy, c.now)
	return in, in.Proxy, nil
}

// settleProxy ends the proxy's Creating status and applies the changes whose window has come.
func settleProxy(px *dbProxy, now time.Time) {
	if px.Status != statusRunning && !now.Before(px.StatusUntil) {
		px.Status = statusRunning
	}
	if px.NextNum != 0 && !now.Before(px.NextAt) {
		px.Num, px.NextNum, px.NextAt = px.NextNum, 0, time.Time{}
	}
	for _, ep := range px.Endpoints {
		if ep.Next != nil && !now.Before(ep.NextAt) {
			next := ep.Next
			*ep = *next
		}
	}
}

func (s *Simulator) modifyDBProxy(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	service, e := c.p.oneOf("ConfigDBProxyService", "", "Startup", "Modify", "Shutdown")
	if e != nil {
		return nil, e
	}
	switch service {
	case "Startup":
		e = s.startProxy(c, in)
	case "Modify":
		e = s.modifyProxyConnections(c, in)
	case "Shutdown":
		if in.Proxy == nil || !in.Proxy.Started {
			return nil, errNoProxy(in.ID)
		}
		in.Proxy = nil
	default:
		return nil, errMissing("ConfigDBProxyService")
	}
	if e != nil {
		return nil, e
	}
	c.dirty = true
	return map[string]any{}, nil
}

// proxyEligible checks what ModifyDBProxy's Startup requires of the instance.
func (s *Simulator) proxyEligible(in *instance) *apiError {
	switch {
	case !in.isMySQL() || in.MasterID != "":
		return newErr(400, "InvalidDBInstance.NotSupported", "The database proxy runs on a MySQL primary instance; %s is not one.", in.ID)
	case in.Status != statusRunning:
		return errBusy(in.ID, in.Status)
	case proxyUnofferedZone(in.ZoneID) != "":
		return newErr(400, "InvalidZone.NotSupported", "The database proxy is not offered in zone %s, where %s runs.", proxyUnofferedZone(in.ZoneID), in.ID)
	case strings.EqualFold(in.Category, "Basic"):
		return newErr(400, "InvalidDBInstanceCategory.NotSupported", "The database proxy needs the High-availability or Cluster edition; %s is Basic.", in.ID)
	case in.Proxy != nil && in.Proxy.Started:
		return newErr(400, "InvalidDBProxy.AlreadyStarted", "The database proxy of %s is already started.", in.ID)
	}
	if least, ok := proxyMinMinor[in.EngineVersion]; ok && strings.EqualFold(in.Category, "HighAvailability") && s.kernelOf(in) < least {
		return newErr(400, "InvalidMinorVersion.NotSupported", "The database proxy needs minor version %s or later on MySQL %s; %s runs %s.", least, in.EngineVersion, in.ID, s.kernelOf(in))
	}
	return nil
}

func (s *Simulator) startProxy(c *call, in *instance) *apiError {
	if e := s.proxyEligible(in); e != nil {
		return e
	}
	kind, e := c.p.oneOf("DBProxyInstanceType", "common", "common", "exclusive")
	if e != nil {
		return e
	}
	num, e := proxyNum(c.p, 2)
	if e != nil {
		return e
	}
	persistent, e := persistentStatus(c.p, false)
	if e != nil {
		return e
	}
	px := &dbProxy{Started: true, Status: statusCreating, StatusUntil: c.now.Add(s.opts.RestartDuration), Type: kind, Num: num,
		VpcID: firstSet(c.p.get("VPCId"), in.VpcID), VSwitchID: firstSet(c.p.get("VSwitchId"), in.VSwitchID), Persistent: persistent}
	px.Endpoints = []*proxyEndpoint{{ID: newProxyEndpointID(), Default: true, Mode: "ReadWrite", MaxDelay: proxyDefaultDelay,
		Distribution: "Standard", Features: map[string]int{"ReadWriteSpliting": 1, "ConnectionPersist": 0, "TransactionReadSqlRouteOptimizeStatus": 0, "CausalConsistRead": 0}}}
	in.Proxy = px
	return nil
}

func (s *Simulator) modifyProxyConnections(c *call, in *instance) *apiError {
	if in.Proxy == nil || !in.Proxy.Started {
		return errNoProxy(in.ID)
	}
	persistent, e := persistentStatus(c.p, in.Proxy.Persistent)
	if e != nil {
		return e
	}
	in.Proxy.Persistent = persistent
	return nil
}

func persistentStatus(p params, current bool) (bool, *apiError) {
	v, e := p.oneOf("PersistentConnectionStatus", "", "Enabled", "Disabled")
	if e != nil || v == "" {
		return current, e
	}
	return v == "Enabled", nil
}

func proxyNum(p params, def int64) (int64, *apiError) {
	n, ok, e := p.integer("DBProxyInstanceNum")
	switch {
	case e != nil:
		return 0, e
	case !ok:
		return def, nil
	case n < 1 || n > proxyMaxInstances:
		return 0, errInvalid("DBProxyInstanceNum", "%d is outside 1-%d", n, proxyMaxInstances)
	}
	return n, nil
}

func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func newProxyEndpointID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// effectiveAt is when a change sent with EffectiveTime (default MaintainTime) takes effect.
func effectiveAt(c *call, in *instance) (time.Time, *apiError) {
	when, e := c.p.oneOf("EffectiveTime", "MaintainTime", "Immediate", "MaintainTime", "SpecificTime")
	switch {
	case e != nil:
		return time.Time{}, e
	case when == "Immediate":
		return c.now, nil
	case when == "SpecificTime":
		at, err := time.Parse("2006-01-02T15:04:05Z", c.p.get("EffectiveSpecificTime"))
		if err != nil {
			return time.Time{}, errInvalid("EffectiveSpecificTime", "%q is not yyyy-MM-ddTHH:mm:ssZ", truncate(c.p.get("EffectiveSpecificTime")))
		}
		return at, nil
	}
	start, _ := windowAround(in.MaintainTime, c.now)
	return start, nil
}

func (s *Simulator) modifyDBProxyInstance(c *call) (map[string]any, *apiError) {
	in, px, e := s.proxyOf(c)
	if e != nil {
		return nil, e
	}
	if px.Status != statusRunning {
		return nil, newErr(400, "InvalidDBProxyStatus", "The database proxy of %s is %s.", in.ID, px.Status)
	}
	if _, ok := c.p["DBProxyInstanceNum"]; !ok {
		return nil, errMissing("DBProxyInstanceNum")
	}
	num, e := proxyNum(c.p, px.Num)
	if e != nil {
		return nil, e
	}
	at, e := effectiveAt(c, in)
	if e != nil {
		return nil, e
	}
	px.NextNum, px.NextAt = num, at
	settleProxy(px, c.now)
	c.dirty = true
	return map[string]any{}, nil
}
