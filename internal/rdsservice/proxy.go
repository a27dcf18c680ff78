package rdsservice

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// rds_db_proxy's rules (rows of the rule table; cloud facts P1-P5 in internal/simulator/README.md,
// "Database proxy"):
//
//   - X1 the primary is of the High-availability or Cluster edition, and a High-availability
//     instance runs at least the minor version ModifyDBProxy names for its major version (P1), in
//     a zone that offers the proxy (P9, proxy_zone.go);
//   - X2 instance_num is 1-16 (P2: the current API reference; older revisions said 1-60);
//   - X3 a read weight is a multiple of 100 up to 10,000 (P3);
//   - X4 a weight names "primary" or a read-only instance of this primary (an id known only at
//     apply is checked by the cloud);
//   - X5 read_only_weights and read_only_distribution = "Standard" exclude each other;
//   - X6 max_delay_seconds is 0-3600 (P3);
//   - X8 max_prepared_stmt_count is equal on the primary and its read-only instances (issue 44;
//     the proxy moves a session's statements between them);
//   - X9 with apply_changes = "in_maintenance_window", the plan says which changes wait for
//     the primary's window, and when (proxy_window.go);
//   - X7 a change that interrupts the endpoint's connections (read_write_mode, instance_type) is
//     named; prevent_restart refuses it.

// Rule ids of rds_db_proxy.
const (
	RuleProxyEdition        RuleID = "proxy-edition"
	RuleProxyMinorVersion   RuleID = "proxy-minor-version"
	RuleProxyInstanceNum    RuleID = "proxy-instance-num"
	RuleProxyWeight         RuleID = "proxy-weight"
	RuleProxyWeightKey      RuleID = "proxy-weight-key"
	RuleProxyDistribution   RuleID = "proxy-weights-and-standard"
	RuleProxyMaxDelay       RuleID = "proxy-max-delay"
	RuleProxyInterrupts     RuleID = "proxy-interrupts-connections"
	RuleProxyInterruptsStop RuleID = "proxy-interrupts-prevented"
	RuleProxyPreparedStmt   RuleID = "proxy-prepared-stmt-count"
)

// PreparedStmtParameter is X8's parameter.
const PreparedStmtParameter = "max_prepared_stmt_count"

// Attributes of rds_db_proxy the rules point at.
const (
	AttrProxyInstanceNum  = "instance_num"
	AttrProxyWeights      = "read_only_weights"
	AttrProxyDistribution = "read_only_distribution"
	AttrProxyMaxDelay     = "max_delay_seconds"
	AttrProxyMode         = "read_write_mode"
	AttrProxyType         = "instance_type"
)

// ProxyPrimaryKey is the read_only_weights key of the primary instance.
const ProxyPrimaryKey = "primary"

// Limits (P2, P3, issue 44).
const (
	ProxyMaxInstances = 16
	ProxyWeightStep   = 100
	ProxyMaxWeight    = 10000
	ProxyMaxDelay     = 3600
)

// proxyMinMinor is X1's minimum minor version of a High-availability instance (P1).
var proxyMinMinor = map[string]string{"8.0": "rds_20190915", "5.7": "rds_20190925", "5.6": "rds_20200229"}

// ProxyFeatures are the default endpoint's features.
type ProxyFeatures struct {
	ReadWriteSplitting, ConnectionPersist, TransactionSplit, CausalConsistentRead bool
}

// ProxySpec is a proxy as configured, or as the cloud has it.
type ProxySpec struct {
	InstanceType  string
	InstanceNum   int64
	VSwitchID     string
	Persistent    bool
	SSL           bool
	ReadWriteMode string
	Features      ProxyFeatures
	// Weights maps "primary" or a read-only instance id to its weight; nil with Standard.
	Weights  map[string]int64
	Standard bool
	MaxDelay int64
	// Starting: the proxy reads back started but not Running yet (a Startup in flight, or one
	// an interrupted apply left: X12).
	Starting bool
	// Description is an rds_db_proxy_endpoint's (DbEndpointAliases); "" for the default endpoint.
	Description string
}

// ProxyPrimary is what the plan knows of the primary: read from the cloud, Known false when it
// could not be (an instance created in the same run).
type ProxyPrimary struct {
	Known                       bool
	ID, Category, EngineVersion string
	MinorVersion                string
	// Zone is the primary's zone (ZoneId), which must offer the proxy (proxy_zone.go).
	Zone        string
	ReadOnlyIDs []string
	// PreparedStmt is X8's max_prepared_stmt_count of the primary and each read-only instance
	// read (an instance left out could not be read).
	PreparedStmt map[string]string
}

// ProxyRequest is what rds_db_proxy's plan or apply asks for.
type ProxyRequest struct {
	InstanceID string
	Desired    ProxySpec
	Primary    ProxyPrimary
	// UnknownWeightKeys: some keys of read_only_weights are known only at apply.
	UnknownWeightKeys bool
	PreventRestart    bool
	Delete            bool
	// InWindow: apply_changes = "in_maintenance_window" (proxy_window.go); Window is the
	// primary's maintenance window (nil: not readable) and Now the cloud's clock.
	InWindow bool
	Window   *MaintenanceWindow
	Now      time.Time
	// Endpoint is the rds_db_proxy_endpoint this request is of (proxy_endpoint.go); nil: the
	// proxy with its default endpoint.
	Endpoint *ProxyEndpointTarget
}

// CheckProxy applies X1-X6 to a configured proxy, every problem at once.
func CheckProxy(req ProxyRequest) []Problem {
	d := req.Desired
	problems := append(checkProxyPrimary(req.Primary), checkProxyZone(req.Primary)...)
	if d.InstanceNum < 1 || d.InstanceNum > ProxyMaxInstances {
		problems = append(problems, Raise(RuleProxyInstanceNum, itoa(d.InstanceNum), d.InstanceNum))
	}
	return append(problems, CheckProxyEndpoint(d, req.Primary)...)
}

// CheckProxyEndpoint applies X3-X6 to an endpoint's settings (the default endpoint's, or an
// rds_db_proxy_endpoint's), every problem at once.
func CheckProxyEndpoint(d ProxySpec, primary ProxyPrimary) []Problem {
	var problems []Problem
	if d.Standard && len(d.Weights) > 0 {
		problems = append(problems, Raise(RuleProxyDistribution, ""))
	}
	for _, key := range slices.Sorted(maps.Keys(d.Weights)) {
		w := d.Weights[key]
		if w < 0 || w > ProxyMaxWeight || w%ProxyWeightStep != 0 {
			problems = append(problems, Raise(RuleProxyWeight, itoa(w), key, w))
		}
		if key != ProxyPrimaryKey && primary.Known && !slices.Contains(primary.ReadOnlyIDs, key) {
			problems = append(problems, Raise(RuleProxyWeightKey, key, key, primary.ID))
		}
	}
	if d.MaxDelay < 0 || d.MaxDelay > ProxyMaxDelay {
		problems = append(problems, Raise(RuleProxyMaxDelay, itoa(d.MaxDelay), d.MaxDelay))
	}
	return problems
}

func checkProxyPrimary(p ProxyPrimary) []Problem {
	switch {
	case !p.Known:
		return nil
	case !strings.EqualFold(p.Category, "HighAvailability") && !strings.EqualFold(p.Category, "cluster"):
		return []Problem{Raise(RuleProxyEdition, p.Category, p.ID, p.Category)}
	}
	for _, ro := range p.ReadOnlyIDs {
		mine, theirs, ok := p.PreparedStmt[p.ID], p.PreparedStmt[ro], p.PreparedStmt[ro] != ""
		if ok && mine != "" && mine != theirs {
			return []Problem{Raise(RuleProxyPreparedStmt, theirs, p.ID, mine, ro, theirs)}
		}
	}
	least, ok := proxyMinMinor[p.EngineVersion]
	if ok && strings.EqualFold(p.Category, "HighAvailability") && p.MinorVersion != "" && p.MinorVersion < least {
		return []Problem{Raise(RuleProxyMinorVersion, p.MinorVersion, p.ID, p.MinorVersion, p.EngineVersion, least)}
	}
	return nil
}

// ProxyInterruptions are X7's changes from current to desired, as the attributes that change.
func ProxyInterruptions(current, desired ProxySpec) []string {
	var out []string
	if current.ReadWriteMode != desired.ReadWriteMode {
		out = append(out, AttrProxyMode)
	}
	if current.InstanceType != desired.InstanceType {
		out = append(out, AttrProxyType)
	}
	return out
}

// ProxyFromAPI reads the proxy and its default endpoint as DescribeDBProxy,
// DescribeDBProxyEndpoint and GetDbProxyInstanceSsl answer them; the primary's weight is keyed
// "primary".
func ProxyFromAPI(primaryID string, px *rdsapi.DBProxy, ep *rdsapi.DBProxyEndpoint, ssl *rdsapi.DBProxySSL) ProxySpec {
	spec := ProxyEndpointFromAPI(primaryID, ep)
	spec.InstanceType, spec.InstanceNum, spec.Persistent = px.InstanceType, px.InstanceNum, px.PersistentConnections
	spec.Starting = px.Status != rdsapi.StatusRunning
	for _, a := range px.Endpoints {
		if a.EndpointID == ep.EndpointID {
			spec.VSwitchID = a.VSwitchID
		}
	}
	spec.SSL = slices.Contains(ssl.Endpoints, ep.EndpointID)
	spec.Description = "" // the default endpoint's description is not rds_db_proxy's
	return spec
}

// ProxyEndpointFromAPI reads one endpoint's settings as DescribeDBProxyEndpoint answers them
// (the proxy's own attributes left zero); the primary's weight is keyed "primary".
func ProxyEndpointFromAPI(primaryID string, ep *rdsapi.DBProxyEndpoint) ProxySpec {
	spec := ProxySpec{Description: ep.Aliases, ReadWriteMode: ep.ReadWriteMode, MaxDelay: ep.MaxDelaySeconds, Standard: ep.DistributionType == rdsapi.ProxyDistributionStandard,
		Features: ProxyFeatures{ReadWriteSplitting: ep.Features[rdsapi.ProxyFeatureReadWriteSplitting] == 1,
			ConnectionPersist: ep.Features[rdsapi.ProxyFeatureConnectionPersist] == 1, TransactionSplit: ep.Features[rdsapi.ProxyFeatureTransactionSplit] == 1,
			CausalConsistentRead: ep.Features[rdsapi.ProxyFeatureCausalConsistRead] > 0}}
	if !spec.Standard {
		spec.Weights = map[string]int64{}
		for id, w := range ep.Weights {
			if id == primaryID {
				id = ProxyPrimaryKey
			}
			spec.Weights[id] = w
		}
	}
	return spec
}

// endpointChanged tells whether ModifyDBProxyEndpoint must be sent.
func endpointChanged(current, desired ProxySpec) bool {
	return current.Description != desired.Description || current.ReadWriteMode != desired.ReadWriteMode || current.Features != desired.Features || current.MaxDelay != desired.MaxDelay ||
		current.Standard != desired.Standard || (!desired.Standard && !maps.Equal(current.Weights, desired.Weights))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
