package simulator

import (
	"fmt"
	"hash/fnv"
	"net"
	"strconv"
	"strings"
)

// Endpoints of an instance (README "Endpoints"): the internal one every instance has (prefix: its id until
// ModifyDBInstanceConnectionString changes it; port: Port) and the public one AllocateInstancePublicConnection
// adds and ReleaseInstancePublicConnection removes.

func init() {
	for name, h := range map[string]handler{
		"DescribeDBInstanceNetInfo":        (*Simulator).describeDBInstanceNetInfo,
		"ModifyDBInstanceConnectionString": (*Simulator).modifyDBInstanceConnectionString,
		"AllocateInstancePublicConnection": (*Simulator).allocateInstancePublicConnection,
		"ReleaseInstancePublicConnection":  (*Simulator).releaseInstancePublicConnection,
	} {
		actions[name] = h
	}
}

// publicEndpoint is an instance's public endpoint.
type publicEndpoint struct {
	Prefix string `json:"prefix"`
	Port   string `json:"port"`
}

// netEndpoint is one endpoint as DescribeDBInstanceNetInfo lists it.
type netEndpoint struct {
	prefix, port, ipType string
	// readWriteSplitting: the read/write-splitting endpoint (ConnectionStringType ReadWriteSplitting).
	readWriteSplitting bool
}

// Limits of the two prefixes and of ports (README "Endpoints").
const (
	allocPrefixMin, allocPrefixMax   = 5, 40
	modifyPrefixMin, modifyPrefixMax = 8, 64
	endpointPortMin, endpointPortMax = 1000, 5999
	// prefixForbidden are the characters both API references exclude from a prefix.
	prefixForbidden = "~!#%^&*=+|{};:'\",<>/? "
)

// internalPrefix is the prefix of the instance's internal endpoint.
func (in *instance) internalPrefix() string {
	if in.InternalPrefix != "" {
		return in.InternalPrefix
	}
	return in.ID
}

// netEndpoints lists the internal endpoint, then the public one when there is one.
func (in *instance) netEndpoints() []netEndpoint {
	internal := "Private"
	if in.NetworkType == "Classic" {
		internal = "Inner"
	}
	out := []netEndpoint{{prefix: in.internalPrefix(), port: in.Port, ipType: internal}}
	if in.Public != nil {
		out = append(out, netEndpoint{prefix: in.Public.Prefix, port: in.Public.Port, ipType: "Public"})
	}
	if rw := in.ReadWriteSplitting; rw != nil {
		out = append(out, netEndpoint{prefix: rw.Prefix, port: rw.Port, ipType: internal, readWriteSplitting: true})
	}
	return out
}

// dnsName is the connection string of a prefix for the instance's engine.
func dnsName(in *instance, prefix string) string {
	suffix := map[string]string{"MySQL": "mysql", "PostgreSQL": "pg", "SQLServer": "sqlserver", "MariaDB": "mariadb"}[in.Engine]
	return strings.ToLower(prefix) + "." + suffix + ".rds.aliyuncs.com"
}

// endpointOf finds the endpoint of the instance whose connection string is name.
func (in *instance) endpointOf(name string) (netEndpoint, bool) {
	for _, ep := range in.netEndpoints() {
		if strings.EqualFold(dnsName(in, ep.prefix), strings.TrimSpace(name)) {
			return ep, true
		}
	}
	return netEndpoint{}, false
}

// prefixHolder is the instance (other than self) one of whose endpoints has the prefix, or "".
func (s *Simulator) prefixHolder(self *instance, prefix string) string {
	for _, in := range s.state.Instances {
		if in == self || in.Status == statusDeleting {
			continue
		}
		for _, ep := range in.netEndpoints() {
			if strings.EqualFold(ep.prefix, prefix) {
				return in.ID
			}
		}
	}
	return ""
}

// endpointTarget finds a Running, writable instance for an endpoint change.
// currentEndpoint is the instance of an endpoint action and the endpoint its CurrentConnectionString names.
func (s *Simulator) currentEndpoint(c *call, action string) (*instance, netEndpoint, *apiError) {
	in, e := s.endpointTarget(c, action)
	if e != nil {
		return nil, netEndpoint{}, e
	}
	current, e := c.p.required("CurrentConnectionString")
	if e != nil {
		return nil, netEndpoint{}, e
	}
	ep, ok := in.endpointOf(current)
	if !ok {
		return nil, netEndpoint{}, newErr(404, "InvalidCurrentConnectionString.NotFound", "The connection string %q is not an endpoint of %s.",
			truncate(current), in.ID)
	}
	if ep.readWriteSplitting {
		return nil, netEndpoint{}, errReadWriteSplittingEndpoint(current, action)
	}
	return in, ep, nil
}

func (s *Simulator) endpointTarget(c *call, action string) (*instance, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if in.Status != statusRunning {
		return nil, errInstanceState(in)
	}
	if e := in.writable(action); e != nil {
		return nil, e
	}
	return in, nil
}

func checkPrefix(prefix string, minLen, maxLen int) *apiError {
	if len(prefix) < minLen || len(prefix) > maxLen || strings.ContainsAny(prefix, prefixForbidden) || !isASCII(prefix) {
		return newErr(400, "InvalidConnectionString.Malformed",
			"The specified parameter ConnectionStringPrefix %q is not valid: %d to %d letters, digits and hyphens.", truncate(prefix), minLen, maxLen)
	}
	return nil
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 126 || r < 33 {
			return false
		}
	}
	return true
}

func checkPort(p params) (string, *apiError) {
	v, e := p.required("Port")
	if e != nil {
		return "", e
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < endpointPortMin || n > endpointPortMax {
		return "", newErr(400, "InvalidPort.Malformed", "The specified port %q is not valid: %d to %d.", truncate(v), endpointPortMin, endpointPortMax)
	}
	return strconv.Itoa(n), nil
}

// sslEndpointBusy refuses changing or releasing the endpoint SSL is on for (assumption EP3).
func sslEndpointBusy(in *instance, name string) *apiError {
	if in.sslOn() && strings.EqualFold(in.Security.SSLEndpoint, name) {
		return newErr(400, "OperationDenied.SSLEnabled", "SSL is enabled for %q: turn SSL off before changing or releasing this endpoint.", truncate(name))
	}
	return nil
}

func (s *Simulator) describeDBInstanceNetInfo(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	items := []any{}
	for _, ep := range in.netEndpoints() {
		items = append(items, map[string]any{
			"ConnectionString": dnsName(in, ep.prefix), "IPAddress": fakeAddress(in.ID, ep.ipType), "IPType": ep.ipType,
			"Port": ep.port, "VPCId": in.VpcID, "VSwitchId": in.VSwitchID, "ConnectionStringType": ep.connectionStringType(),
			"Upgradeable": "Disabled", "ExpiredTime": "", "MaxDelayTime": "", "DistributionType": "", "Availability": "",
			"BabelfishPort": "", "PGBouncerPort": "",
			"SecurityIPGroups":  map[string]any{"securityIPGroup": []any{}},
			"DBInstanceWeights": map[string]any{"DBInstanceWeight": []any{}},
		})
	}
	network := "VPC"
	if in.NetworkType == "Classic" {
		network = "Classic"
	}
	return map[string]any{"InstanceNetworkType": network, "SecurityIPMode": "normal",
		"DBInstanceNetInfos": map[string]any{"DBInstanceNetInfo": items}}, nil
}

// fakeAddress is a stable made-up IP address of an endpoint: 172.16.x.y inside, 47.96.x.y outside.
func fakeAddress(id, ipType string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id + ipType))
	sum := h.Sum32()
	first := "172.16"
	if ipType == "Public" {
		first = "47.96"
	}
	return fmt.Sprintf("%s.%d.%d", first, sum>>8&0xff, sum&0xfe+1)
}

func (s *Simulator) modifyDBInstanceConnectionString(c *call) (map[string]any, *apiError) {
	in, ep, e := s.currentEndpoint(c, "ModifyDBInstanceConnectionString")
	if e != nil {
		return nil, e
	}
	prefix, e := c.p.required("ConnectionStringPrefix")
	if e != nil {
		return nil, e
	}
	if e := checkPrefix(prefix, modifyPrefixMin, modifyPrefixMax); e != nil {
		return nil, e
	}
	port, e := checkPort(c.p)
	if e != nil {
		return nil, e
	}
	if holder := s.prefixHolder(in, prefix); holder != "" || (!strings.EqualFold(prefix, ep.prefix) && in.hasPrefix(prefix)) {
		return nil, newErr(400, "DnsConflict", "Dns is conflict with other custins: %q is taken.", truncate(prefix))
	}
	if e := sslEndpointBusy(in, dnsName(in, ep.prefix)); e != nil {
		return nil, e
	}
	if ep.ipType == "Public" {
		in.Public = &publicEndpoint{Prefix: strings.ToLower(prefix), Port: port}
	} else {
		in.InternalPrefix, in.Port = strings.ToLower(prefix), port
	}
	c.dirty = true
	return map[string]any{}, nil
}

// hasPrefix is whether one of the instance's endpoints has the prefix.
func (in *instance) hasPrefix(prefix string) bool {
	for _, ep := range in.netEndpoints() {
		if strings.EqualFold(ep.prefix, prefix) {
			return true
		}
	}
	return false
}

func (s *Simulator) allocateInstancePublicConnection(c *call) (map[string]any, *apiError) {
	in, e := s.endpointTarget(c, "AllocateInstancePublicConnection")
	if e != nil {
		return nil, e
	}
	prefix, e := c.p.required("ConnectionStringPrefix")
	if e != nil {
		return nil, e
	}
	if e := checkPrefix(prefix, allocPrefixMin, allocPrefixMax); e != nil {
		return nil, e
	}
	port, e := checkPort(c.p)
	if e != nil {
		return nil, e
	}
	if in.Public != nil {
		return nil, newErr(400, "NetTypeExists", "The instance %s already has a public endpoint.", in.ID)
	}
	if s.prefixHolder(in, prefix) != "" || in.hasPrefix(prefix) {
		return nil, newErr(400, "OtherEndpoint.Exist", "Other endpoint exist: %q is taken.", truncate(prefix))
	}
	in.Public = &publicEndpoint{Prefix: strings.ToLower(prefix), Port: port}
	c.dirty = true
	return map[string]any{"DbInstanceName": in.ID, "ConnectionString": dnsName(in, prefix)}, nil
}

func (s *Simulator) releaseInstancePublicConnection(c *call) (map[string]any, *apiError) {
	in, ep, e := s.currentEndpoint(c, "ReleaseInstancePublicConnection")
	if e != nil {
		return nil, e
	}
	switch {
	case ep.ipType != "Public":
		return nil, newErr(400, "AtLeastOneNetTypeExists", "Current DB instance net type does not support this operation: %s keeps its internal endpoint.", in.ID)
	}
	if e := sslEndpointBusy(in, dnsName(in, ep.prefix)); e != nil {
		return nil, e
	}
	in.Public = nil
	c.dirty = true
	return map[string]any{}, nil
}

// resolveEndpoint maps a connection string and port the API handed out to the instance it reaches.
func (s *Simulator) resolveEndpoint(address string) (*instance, bool) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, false
	}
	for _, in := range s.state.Instances {
		if ep, ok := in.endpointOf(host); ok && ep.port == port {
			return in, true
		}
	}
	return nil, false
}
