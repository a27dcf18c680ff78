package rdsservice

import (
	"fmt"
	"slices"
	"strings"
)

// SSL and TDE of an instance (issue 26 §3-4): the rules (rows of ruletable.go), the restarts the
// plan names, and the operations the executor runs. The cloud facts are cited in the simulator
// README, "SSL and TDE".

// Attributes of rds_instance these rules point at.
const (
	AttrSSLEnabled = "ssl_enabled"
	AttrTDEEnabled = "tde_enabled"
	AttrTDEKey     = "tde_encryption_key"
)

// Rule ids of SSL and TDE.
const (
	RuleSSLEdition     RuleID = "ssl-edition"
	RuleSSLNotDeferred RuleID = "ssl-not-deferred"
	RuleTDEOneWay      RuleID = "tde-one-way"
	RuleTDEEdition     RuleID = "tde-edition"
	RuleTDEVersion     RuleID = "tde-engine-version"
	RuleTDENotDeferred RuleID = "tde-not-deferred"
	RuleTDEKeyFixed    RuleID = "tde-key-fixed"
	RuleTDEKeyAlone    RuleID = "tde-key-without-tde"
)

// Operation kinds of SSL and TDE.
const (
	OpModifySSL = "ModifyDBInstanceSSL"
	OpModifyTDE = "ModifyDBInstanceTDE"
)

// DesiredSecurity is ssl_enabled and tde_enabled as configured (null: not managed) with the
// customer key and role TDE is turned on with.
type DesiredSecurity struct {
	SSL, TDE        Val[bool]
	TDEKey, TDERole string
}

// SecurityFacts is the instance's SSL and TDE now (as the last refresh, or a read at plan, saw
// them), and the key and role TDE was turned on with as the state records them ("" when unknown:
// the API does not show them).
type SecurityFacts struct {
	SSL, TDE        bool
	TDEKey, TDERole string
}

// SecurityDecision is what the apply sends: nil is nothing.
type SecurityDecision struct {
	SSL *bool
	TDE bool
}

// Restarts reports whether the apply sends a security operation: each restarts the instance.
func (s SecurityDecision) Restarts() bool { return s.SSL != nil || s.TDE }

// securityRestartsNow: the apply restarts the instance for SSL or TDE, which cannot wait for the
// window: a change of either, or SSL turned off and on again around an endpoint change (endpoint_ssl.go).
func securityRestartsNow(d Decision) bool {
	return slices.ContainsFunc(d.Restarts, func(r Restart) bool { return r.Op == OpModifySSL || r.Op == OpModifyTDE })
}

// applyPending: the first security restart of an existing instance applies the parameter values
// waiting for a restart, as any restart does; its reasons say so and parameters_pending loses them.
func applyPending(in PlanInput, d *Decision, restart *Restart) {
	f := in.Facts.Parameters
	if in.Prior == nil || f == nil || d.Security.Restarts() {
		return
	}
	waiting := map[string]string{}
	for name, v := range f.Pending {
		if !slices.Contains(d.Parameters.Withdrawn, name) && d.Parameters.Pending[name] == v {
			waiting[name] = v
			delete(d.Parameters.Pending, name)
		}
	}
	if r := PendingAppliedReason(waiting); r != "" {
		restart.Reasons = append(restart.Reasons, r)
	}
}

// CheckSecurityConfig is what the configuration alone decides: a TDE key or role only goes with
// tde_enabled = true (otherwise nothing would send it). Unknown values are skipped.
func CheckSecurityConfig(tde Val[bool], key, role Val[string]) []Problem {
	if tde.Is(true) || tde.IsUnknown() {
		return nil
	}
	for _, v := range []struct {
		attr string
		val  Val[string]
	}{{AttrTDEKey, key}, {"tde_role_arn", role}} {
		if v.val.IsKnown() && v.val.Value() != "" {
			return []Problem{problem(RuleTDEKeyAlone, v.val.Value(), v.attr).At(v.attr)}
		}
	}
	return nil
}

// planSecurity checks the rules and names the restarts of ModifyDBInstanceSSL and
// ModifyDBInstanceTDE. Neither action has an EffectiveTime, so deferToWindow leaves their
// restarts (Restart.Op) out: they happen during the apply.
func planSecurity(in PlanInput, d *Decision) {
	want, now := in.Desired.Security, SecurityFacts{}
	if in.Prior != nil {
		now = in.Facts.Security
	}
	version, category := editionOf(in)
	if want.SSL.IsKnown() && want.SSL.Value() != now.SSL {
		on := want.SSL.Value()
		if on && version != "" && category != "" && !sslOffered(version, category) {
			d.add(problem(RuleSSLEdition, "true", version, category))
		}
		addSecurityRestart(in, d, OpModifySSL, AttrSSLEnabled, fmt.Sprintf("ssl_enabled changes from %t to %t", now.SSL, on))
		d.Security.SSL = &on // after: the first security restart applies the waiting parameters
	}
	switch {
	case want.TDE.Is(false) && now.TDE:
		d.add(problem(RuleTDEOneWay, "false", in.Label))
	case want.TDE.Is(true) && now.TDE && keyChanged(now, want):
		d.add(problem(RuleTDEKeyFixed, want.TDEKey, in.Label, now.TDEKey, want.TDEKey, now.TDERole, want.TDERole))
	case want.TDE.Is(true) && !now.TDE:
		d.add(tdeProblems(version, category)...)
		d.add(tdeMinorProblems(in, *d)...)
		addSecurityRestart(in, d, OpModifyTDE, AttrTDEEnabled, "tde_enabled changes from false to true (assumed restart: Alibaba does not document one)")
		d.Security.TDE = true
	}
}

// keyChanged: the configured key or role differs from the one TDE was turned on with (when known).
func keyChanged(now SecurityFacts, want DesiredSecurity) bool {
	return (now.TDEKey != "" && want.TDEKey != now.TDEKey) || (now.TDERole != "" && want.TDERole != now.TDERole)
}

// addSecurityRestart names the restart of one security operation; apply_restarts =
// "in_maintenance_window" cannot defer it, which the plan says.
func addSecurityRestart(in PlanInput, d *Decision, op, attr, reason string) {
	_, category := editionOf(in)
	if in.Prior != nil {
		d.Action = maxAction(d.Action, ActionUpdateWithRestart)
		if in.Desired.ApplyRestarts == ApplyRestartsInWindow {
			rule := map[string]RuleID{OpModifySSL: RuleSSLNotDeferred, OpModifyTDE: RuleTDENotDeferred}[op]
			d.add(problem(rule, "", in.Label))
		}
	}
	if switchover(category) {
		reason += " (with a switchover to the standby)"
	}
	restart := Restart{InstanceID: in.Label, Reasons: []string{reason}, Downtime: ExpectedDowntime(category, false), Op: op}
	applyPending(in, d, &restart)
	d.Restarts = append(d.Restarts, restart)
	if d.RestartAttribute == "" {
		d.RestartAttribute = attr
	}
}

// editionOf is the engine version and category the rules check: the instance's, or the
// configured ones of a new instance ("" when not known at plan).
func editionOf(in PlanInput) (version, category string) {
	if in.Prior != nil {
		return in.Prior.EngineVersion, in.Prior.Category
	}
	return in.Desired.EngineVersion.Or(""), in.Desired.Category.Or("")
}

func switchover(category string) bool {
	return strings.EqualFold(category, "HighAvailability") || strings.EqualFold(category, "cluster")
}

// sslOffered: High-availability on MySQL 5.6, 5.7 and 8.0; Basic and Cluster on 5.7 and 8.0.
func sslOffered(version, category string) bool {
	switch version {
	case "5.7", "8.0":
		return true
	case "5.6":
		return strings.EqualFold(category, "HighAvailability")
	}
	return false
}

// tdeProblems: High-availability or Cluster, MySQL 5.6, 5.7 or 8.0. (5.6 also needs minor
// version 20191015 or later, which the cloud checks: the provider does not read minor versions.)
func tdeProblems(version, category string) []Problem {
	var out []Problem
	if version != "" && !slices.Contains([]string{"5.6", "5.7", "8.0"}, version) {
		out = append(out, problem(RuleTDEVersion, "true", version))
	}
	if category != "" && !switchover(category) {
		out = append(out, problem(RuleTDEEdition, "true", category))
	}
	return out
}
