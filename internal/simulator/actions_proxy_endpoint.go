package simulator

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Proxy endpoints (README "Database proxy"): ModifyDBProxyEndpoint with DbEndpointOperator
// Modify (the default), Create or Delete, and the two Describe actions.

func (px *dbProxy) endpoint(id string) *proxyEndpoint {
	for _, ep := range px.Endpoints {
		if (id == "" && ep.Default) || ep.ID == id {
			return ep
		}
	}
	return nil
}

func errNoProxyEndpoint(id string) *apiError {
	return newErr(404, "InvalidDBProxyEndpoint.NotFound", "The proxy endpoint %q does not exist.", truncate(id))
}

func (s *Simulator) modifyDBProxyEndpoint(c *call) (map[string]any, *apiError) {
	in, px, e := s.proxyOf(c)
	if e != nil {
		return nil, e
	}
	op, e := c.p.oneOf("DbEndpointOperator", "Modify", "Modify", "Create", "Delete")
	if e != nil {
		return nil, e
	}
	if op == "Create" {
		return s.createProxyEndpoint(c, in, px)
	}
	id, e := c.p.required("DBProxyEndpointId")
	if e != nil {
		return nil, e
	}
	ep := px.endpoint(id)
	if ep == nil {
		return nil, errNoProxyEndpoint(id)
	}
	if op == "Delete" {
		if ep.Default {
			return nil, newErr(400, "InvalidDBProxyEndpoint.Default", "The default proxy endpoint %s cannot be deleted; shut the proxy down instead.", id)
		}
		px.Endpoints = slices.DeleteFunc(px.Endpoints, func(x *proxyEndpoint) bool { return x == ep })
		c.dirty = true
		return map[string]any{}, nil
	}
	base := ep
	if ep.Next != nil {
		base = ep.Next // a second change before the window builds on the first
	}
	next, e := s.endpointSettings(c, in, base)
	if e != nil {
		return nil, e
	}
	at, e := effectiveAt(c, in)
	if e != nil {
		return nil, e
	}
	ep.Next, ep.NextAt = next, at
	settleProxy(px, c.now)
	c.dirty = true
	return map[string]any{}, nil
}

func (s *Simulator) createProxyEndpoint(c *call, in *instance, px *dbProxy) (map[string]any, *apiError) {
	if _, e := c.p.required("DbEndpointReadWriteMode"); e != nil {
		return nil, e
	}
	base := &proxyEndpoint{ID: newProxyEndpointID(), Features: map[string]int{"ReadWriteSpliting": 1}, Distribution: "Standard", MaxDelay: proxyDefaultDelay}
	ep, e := s.endpointSettings(c, in, base)
	if e != nil {
		return nil, e
	}
	if ep.Mode == "ReadOnly" && !c.p.has("ReadOnlyInstanceMaxDelayTime") {
		ep.MaxDelay = -1 // the API reference's default for a read-only endpoint: no threshold
	}
	px.Endpoints = append(px.Endpoints, ep)
	c.dirty = true
	return map[string]any{"DBProxyEndpointId": ep.ID}, nil
}

// endpointSettings is base changed by the request's settings, checked.
func (s *Simulator) endpointSettings(c *call, in *instance, base *proxyEndpoint) (*proxyEndpoint, *apiError) {
	ep := *base
	ep.Next, ep.NextAt = nil, time.Time{}
	ep.Features = maps.Clone(base.Features)
	ep.Weights = maps.Clone(base.Weights)
	var e *apiError
	if ep.Mode, e = c.p.oneOf("DbEndpointReadWriteMode", firstSet(base.Mode, "ReadOnly"), "ReadWrite", "ReadOnly"); e != nil {
		return nil, e
	}
	if e = mergeFeatures(c.p.get("ConfigDBProxyFeatures"), ep.Features); e != nil {
		return nil, e
	}
	if base.Mode == "ReadWrite" && ep.Mode == "ReadOnly" {
		ep.Features["TransactionReadSqlRouteOptimizeStatus"] = 0 // the API reference: ReadWrite -> ReadOnly turns it off
	}
	if ep.Aliases = firstSet(c.p.get("DbEndpointAliases"), base.Aliases); c.p.has("ReadOnlyInstanceMaxDelayTime") {
		delay, _, e := c.p.integer("ReadOnlyInstanceMaxDelayTime")
		if e != nil || delay < 0 || delay > proxyMaxDelay {
			return nil, errInvalid("ReadOnlyInstanceMaxDelayTime", "%q is outside 0-%d seconds", truncate(c.p.get("ReadOnlyInstanceMaxDelayTime")), proxyMaxDelay)
		}
		ep.MaxDelay = delay
	}
	if ep.Distribution, e = c.p.oneOf("ReadOnlyInstanceDistributionType", base.Distribution, "Standard", "Custom"); e != nil {
		return nil, e
	}
	if raw := c.p.get("ReadOnlyInstanceWeight"); raw != "" {
		if ep.Weights, e = s.parseWeights(raw, in); e != nil {
			return nil, e
		}
	}
	if ep.Distribution == "Custom" && len(ep.Weights) == 0 {
		return nil, errInvalid("ReadOnlyInstanceWeight", "is required when ReadOnlyInstanceDistributionType is Custom")
	}
	return &ep, nil
}

// mergeFeatures applies "Name:Status;..." to features.
func mergeFeatures(raw string, features map[string]int) *apiError {
	if raw == "" {
		return nil
	}
	for _, item := range strings.Split(raw, ";") {
		name, status, _ := strings.Cut(item, ":")
		highest, known := proxyFeatures[name]
		n, err := strconv.Atoi(status)
		if !known || err != nil || n < 0 || n > highest {
			return errInvalid("ConfigDBProxyFeatures", "%q is not Feature:Status with a known feature and status", truncate(item))
		}
		features[name] = n
	}
	return nil
}

// parseWeights reads {"instance id":"weight"}: the primary or its read-only instances, multiples
// of 100 up to 10,000.
func (s *Simulator) parseWeights(raw string, in *instance) (map[string]int64, *apiError) {
	var object map[string]json.Number
	if err := json.Unmarshal([]byte(raw), &object); err != nil || len(object) == 0 {
		var quoted map[string]string
		if json.Unmarshal([]byte(raw), &quoted) != nil || len(quoted) == 0 {
			return nil, errInvalid("ReadOnlyInstanceWeight", "%q is not a JSON object of instance ids and weights", truncate(raw))
		}
		object = map[string]json.Number{}
		for k, v := range quoted {
			object[k] = json.Number(v)
		}
	}
	out := map[string]int64{}
	for id, v := range object {
		w, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || w < 0 || w > proxyMaxWeight || w%proxyWeightStep != 0 {
			return nil, errInvalid("ReadOnlyInstanceWeight", "weight %q of %s is not a multiple of %d from 0 to %d", truncate(string(v)), truncate(id), proxyWeightStep, proxyMaxWeight)
		}
		if ro, ok := s.state.Instances[id]; id != in.ID && (!ok || ro.MasterID != in.ID) {
			return nil, errInvalid("ReadOnlyInstanceWeight", "%s is neither %s nor one of its read-only instances", truncate(id), in.ID)
		}
		out[id] = w
	}
	return out, nil
}

// readWeights are the weights in effect: Custom's, or Standard's (README: assumption).
func (s *Simulator) readWeights(in *instance, ep *proxyEndpoint) map[string]int64 {
	out := map[string]int64{}
	if ep.Distribution == "Custom" {
		for id, w := range ep.Weights {
			if _, ok := s.state.Instances[id]; ok {
				out[id] = w
			}
		}
		return out
	}
	if ep.Mode == "ReadWrite" {
		out[in.ID] = 0
	}
	for _, ro := range s.state.Instances {
		if ro.MasterID == in.ID {
			out[ro.ID] = proxyStandardShare
		}
	}
	return out
}

func (s *Simulator) describeDBProxy(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	px := in.Proxy
	if px == nil || !px.Started {
		return map[string]any{"DBProxyServiceStatus": "Shutdown", "DBProxyEngineType": "normal",
			"DBProxyConnectStringItems": map[string]any{"DBProxyConnectStringItems": []any{}},
			"DbProxyEndpointItems":      map[string]any{"DbProxyEndpointItems": []any{}}}, nil
	}
	settleProxy(px, c.now)
	var addresses, items []any
	for _, ep := range px.Endpoints {
		host, port := s.proxyAddress(ep, c.now)
		addresses = append(addresses, map[string]any{"DBProxyEndpointId": ep.ID, "DBProxyConnectString": host, "DBProxyConnectStringPort": port,
			"DBProxyConnectStringNetType": "InnerString", "DBProxyConnectStringNetWorkType": "VPC", "DBProxyVpcId": px.VpcID,
			"DBProxyVswitchId": px.VSwitchID, "DBProxyEndpointName": ep.ID})
		items = append(items, map[string]any{"DbProxyEndpointName": ep.ID, "DbProxyEndpointType": endpointType(ep),
			"DbProxyReadWriteMode": ep.Mode, "DbProxyEndpointAliases": ep.Aliases})
	}
	return map[string]any{"DBProxyServiceStatus": "Startup", "DBProxyInstanceStatus": px.Status, "DBProxyEngineType": "normal",
		"DBProxyInstanceType": map[string]string{"common": "3", "exclusive": "2"}[px.Type], "DBProxyInstanceNum": px.Num,
		"DBProxyInstanceName": in.ID, "DBProxyInstanceSize": strconv.FormatInt(px.Num*2, 10),
		"DBProxyPersistentConnectionStatus":  onOff(px.Persistent, "Enabled", "Disabled"),
		"DBProxyInstanceCurrentMinorVersion": "rds_proxy_20240229", "DBProxyInstanceLatestMinorVersion": "rds_proxy_20240229",
		"DBProxyAVZones":            map[string]any{"DBProxyAVZones": []string{in.ZoneID}},
		"DBProxyConnectStringItems": map[string]any{"DBProxyConnectStringItems": addresses},
		"DbProxyEndpointItems":      map[string]any{"DbProxyEndpointItems": items}}, nil
}

func endpointType(ep *proxyEndpoint) string {
	if ep.Default {
		return "Primary"
	}
	return "Custom"
}

func (s *Simulator) describeDBProxyEndpoint(c *call) (map[string]any, *apiError) {
	in, px, e := s.proxyOf(c)
	if e != nil {
		return nil, e
	}
	ep := px.endpoint(c.p.get("DBProxyEndpointId"))
	if ep == nil {
		return nil, errNoProxyEndpoint(c.p.get("DBProxyEndpointId"))
	}
	weights := []map[string]any{}
	effective := s.readWeights(in, ep)
	for _, id := range slices.Sorted(maps.Keys(effective)) {
		weights = append(weights, map[string]any{"DBInstanceId": id, "DBInstanceType": onOff(id == in.ID, "Master", "Readonly"), "Weight": effective[id]})
	}
	body, _ := json.Marshal(weights)
	host, port := s.proxyAddress(ep, c.now)
	features := make([]string, 0, len(ep.Features))
	for _, name := range slices.Sorted(maps.Keys(ep.Features)) {
		features = append(features, name+":"+strconv.Itoa(ep.Features[name]))
	}
	return map[string]any{"DBProxyEndpointId": ep.ID, "DBProxyConnectString": host, "DBProxyConnectStringPort": port,
		"DBProxyConnectStringNetType": "InnerString", "DBProxyEngineType": "normal", "DbProxyEndpointReadWriteMode": ep.Mode,
		"DbProxyEndpointAliases": ep.Aliases, "DBProxyFeatures": strings.Join(features, ";"),
		"ReadOnlyInstanceWeight": string(body), "ReadOnlyInstanceDistributionType": ep.Distribution,
		"ReadOnlyInstanceMaxDelayTime": strconv.FormatInt(ep.MaxDelay, 10), "CausalConsistReadTimeout": "10",
		"EndpointConnectItems": map[string]any{"EndpointConnectItems": []any{map[string]any{"DbProxyEndpointConnectString": host,
			"DbProxyEndpointPort": port, "DbProxyEndpointNetType": "InnerString"}}}}, nil
}
