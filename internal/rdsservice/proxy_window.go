package rdsservice

import (
	"maps"
	"strings"
	"time"
)

// rds_db_proxy's apply_changes (issue 44 §1): "in_maintenance_window" sends ModifyDBProxyInstance
// and ModifyDBProxyEndpoint with EffectiveTime=MaintainTime (P2, P3), and the cloud applies them
// at the start of the primary's maintenance window. ModifyDBProxy (persistent connections) and
// ModifyDbProxyInstanceSsl have no EffectiveTime and run at once; a new proxy is configured at
// once. The state holds the target with the attributes that wait and when (scheduled_change,
// scheduled_at); until then a read keeps the target of those attributes, so the next plan is
// empty and says that the change waits (X9).

// RuleProxyChangeWaits is X9's warning.
const RuleProxyChangeWaits RuleID = "proxy-change-waits"

// AttrProxyFeatures is the default endpoint's features attribute.
const AttrProxyFeatures = "features"

// ProxyWaiting is a change of the proxy waiting for the primary's maintenance window.
type ProxyWaiting struct {
	Attributes []string
	// At is the start of the window the change runs in, on the cloud's clock (zero: the window
	// was not readable at plan; the apply reads it).
	At time.Time
	// When says so for a plan message (MaintenanceWindow.When).
	When string
}

// ProxyDeferred are the attributes of a change from current to desired that apply_changes =
// "in_maintenance_window" defers: the proxy's size and the default endpoint's settings.
func ProxyDeferred(current, desired ProxySpec) []string {
	var out []string
	add := func(changed bool, attr string) {
		if changed {
			out = append(out, attr)
		}
	}
	add(current.InstanceType != desired.InstanceType, AttrProxyType)
	add(current.InstanceNum != desired.InstanceNum, AttrProxyInstanceNum)
	add(current.ReadWriteMode != desired.ReadWriteMode, AttrProxyMode)
	add(current.Features != desired.Features, AttrProxyFeatures)
	add(current.MaxDelay != desired.MaxDelay, AttrProxyMaxDelay)
	add(current.Standard != desired.Standard || (!desired.Standard && !maps.Equal(current.Weights, desired.Weights)), AttrProxyWeights)
	return out
}

// scheduleProxy is the change a plan defers to the window; nil when apply_changes is
// "immediately", the proxy is new or nothing deferrable changes.
func scheduleProxy(req ProxyRequest, current *ProxySpec) *ProxyWaiting {
	if !req.InWindow || current == nil {
		return nil
	}
	attrs := ProxyDeferred(*current, req.Desired)
	if len(attrs) == 0 {
		return nil
	}
	return ProxyWaitingIn(attrs, req.Window, req.Now)
}

// ProxyWaitingIn is a change of attrs that waits for window (nil: not readable), seen at now.
func ProxyWaitingIn(attrs []string, window *MaintenanceWindow, now time.Time) *ProxyWaiting {
	w := &ProxyWaiting{Attributes: attrs, When: "in the maintenance window of the primary instance"}
	if window != nil {
		w.At, _ = window.Next(now)
		w.When = window.When(now)
	}
	return w
}

// Problem is X9's warning that w waits, for the proxy of instance.
func (w ProxyWaiting) Problem(instance string) Problem {
	attrs := strings.Join(w.Attributes, ", ")
	return Raise(RuleProxyChangeWaits, attrs, instance, attrs, w.When).At(w.Attributes[0])
}

// ProxyStillWaits tells whether a change recorded as running at at has not run by now.
func ProxyStillWaits(at, now time.Time) bool { return now.Before(at) }

// ProxyAsWaiting is the proxy as the state holds it while a change waits: the cloud's values, but
// target's for what apply_changes = "in_maintenance_window" defers.
func ProxyAsWaiting(cloud, target ProxySpec) ProxySpec {
	out := cloud
	out.InstanceType, out.InstanceNum, out.ReadWriteMode, out.Features = target.InstanceType, target.InstanceNum, target.ReadWriteMode, target.Features
	out.MaxDelay, out.Standard, out.Weights = target.MaxDelay, target.Standard, target.Weights
	return out
}
