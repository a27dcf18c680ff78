package rdsservice

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Parameter rules. The provider manages only the parameters named in `parameters`; the facts come
// from the cloud's template (DescribeParameterTemplates) and the instance's running values
// (DescribeParameters), and everything below is pure.
//
//   - P1 a name must exist in the template of the instance's engine version (typos get the
//     closest names);
//   - P2 a parameter the cloud does not let users change is refused, except innodb_doublewrite
//     (P4);
//   - P3 a value must be inside the template's range or set (CheckingCode), or, where the
//     default is a memory formula, {DBInstanceClassMemory*X/Y} with X/Y at most 8/10;
//   - P4 innodb_doublewrite is set by the cloud from 16K atomic write (OFF while it is on, ON
//     while it is off): a value that agrees with the planned atomic_write_16k is accepted and
//     never sent, a value that contradicts it is refused;
//   - P5 a change to a parameter whose template says ForceRestart restarts the instance; it is
//     named in the restart warning, and it shares the restart the same apply causes anyway (a
//     spec change, a toggle after creation); a restart for any reason also applies the values
//     already waiting for one, and the warning says so;
//   - P6 removing a key from `parameters` stops managing it: the cloud keeps its value, nothing
//     is sent and nothing restarts;
//   - P7 a managed parameter whose configured value runs while another value waits for a restart
//     (set outside Terraform) gets its value sent again, which withdraws the waiting one without
//     a restart.
//
// The messages are rows of the rule table (ruletable.go, RuleParam*).

// DoublewriteParameter is the InnoDB parameter that 16K atomic write switches off.
const DoublewriteParameter = "innodb_doublewrite"

// ParameterSpec is one parameter of a template.
type ParameterSpec struct {
	Name string
	// Default is a literal or a memory formula such as {DBInstanceClassMemory*3/4}.
	Default string
	// Allowed is the CheckingCode: "[min-max]" or "[a|b|c]".
	Allowed     string
	Description string
	Modifiable  bool
	Restart     bool
}

// ParameterTemplate is the template of one engine version, by parameter name.
type ParameterTemplate struct {
	Engine        string
	EngineVersion string
	Parameters    map[string]ParameterSpec
}

// TemplateFromAPI converts a DescribeParameterTemplates answer.
func TemplateFromAPI(engine, version string, resp *rdsapi.DescribeParameterTemplatesResponse) ParameterTemplate {
	t := ParameterTemplate{Engine: engine, EngineVersion: version, Parameters: map[string]ParameterSpec{}}
	for _, r := range resp.Parameters.TemplateRecord {
		name := strings.TrimSpace(r.ParameterName)
		if name == "" {
			continue
		}
		t.Parameters[name] = ParameterSpec{
			Name: name, Default: r.ParameterValue, Allowed: strings.TrimSpace(r.CheckingCode),
			Description: r.ParameterDescription, Modifiable: bool(r.ForceModify), Restart: bool(r.ForceRestart),
		}
	}
	return t
}

// Restarts tells whether a change of the parameter takes effect only after a restart (P5).
func (t ParameterTemplate) Restarts(name string) bool { return t.Parameters[name].Restart }

// Names lists the template's parameter names, sorted.
func (t ParameterTemplate) Names() []string {
	names := make([]string, 0, len(t.Parameters))
	for name := range t.Parameters {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func (t ParameterTemplate) label() string {
	return strings.TrimSpace(t.Engine + " " + t.EngineVersion)
}

// parameterAttribute is the rule table attribute of one entry of `parameters`.
func parameterAttribute(name string) string { return AttrParameters + "." + name }

// CheckParameters applies P1 to P4 to the configured map; each problem points at its entry
// ("parameters.<name>"). Values that are not known yet are skipped (unknown names them);
// atomicWrite is the planned flag, unknown when not known at plan.
func CheckParameters(want map[string]string, unknown map[string]bool, t ParameterTemplate, atomicWrite Val[bool]) []Problem {
	var problems []Problem
	add := func(name string, p Problem) { problems = append(problems, p.At(parameterAttribute(name))) }
	for _, name := range sortedKeys(want) {
		value := want[name]
		spec, ok := t.Parameters[name]
		switch {
		case !ok:
			add(name, problem(RuleParamUnknown, name, name, t.label(), unknownParameterHint(name, t)))
		case unknown[name]:
			continue
		case name == DoublewriteParameter:
			if p := checkDoublewrite(value, atomicWrite); p != nil {
				add(name, *p)
			}
		case !spec.Modifiable:
			add(name, problem(RuleParamNotModifiable, value, name, t.label(), spec.Default))
		case !ParameterValueAllowed(spec, value):
			add(name, problem(RuleParamValue, value, name, value, t.label(), describeAllowed(spec), strconv.Quote(spec.Default)))
		}
	}
	return problems
}

// checkDoublewrite is P4.
func checkDoublewrite(value string, atomicWrite Val[bool]) *Problem {
	v := strings.ToUpper(strings.TrimSpace(value))
	var p Problem
	switch {
	case v != "ON" && v != "OFF":
		def := `"ON" while atomic_write_16k is off, "OFF" while it is on`
		if atomicWrite.IsKnown() {
			def = strconv.Quote(DoublewriteFor(atomicWrite.Value())) + " with atomic_write_16k = " + strconv.FormatBool(atomicWrite.Value())
		}
		p = problem(RuleParamValue, value, DoublewriteParameter, value, "MySQL", "allowed values are ON, OFF, and the value follows atomic_write_16k", def)
	case !atomicWrite.IsKnown():
		p = problem(RuleParamDoublewriteUndecided, value, value)
	case v == DoublewriteFor(atomicWrite.Value()):
		return nil
	default:
		p = problem(RuleParamDoublewriteContradicts, value, value, atomicWrite.Value(), DoublewriteFor(atomicWrite.Value()), v == "OFF")
	}
	return &p
}

// renamedParameters are MySQL parameters that a later version renamed (MySQL 8.0 release notes:
// tx_isolation and tx_read_only were removed in favour of transaction_isolation and
// transaction_read_only), so a name from an older version points at its successor.
var renamedParameters = map[string]string{
	"tx_isolation": "transaction_isolation",
	"tx_read_only": "transaction_read_only",
}

// unknownParameterHint suggests what the user can set instead of an unknown name: its successor
// after a rename, else the closest names users may change.
func unknownParameterHint(name string, t ParameterTemplate) string {
	if successor, ok := renamedParameters[strings.ToLower(name)]; ok {
		if spec, ok := t.Parameters[successor]; ok && spec.Modifiable {
			return fmt.Sprintf("%s %s names it %s: set parameters[%q] instead.", t.Engine, t.EngineVersion, successor, successor)
		}
	}
	var settable []string
	for _, n := range t.Names() {
		if t.Parameters[n].Modifiable || n == DoublewriteParameter {
			settable = append(settable, n)
		}
	}
	if closest := ClosestNames(name, settable, 3); len(closest) > 0 {
		return "Did you mean " + strings.Join(closest, ", ") + "?"
	}
	return "Run the rds_parameter_templates data source to list them."
}

// DoublewriteFor is the innodb_doublewrite value the cloud runs for a 16K atomic write setting.
func DoublewriteFor(atomicWrite bool) string {
	if atomicWrite {
		return "OFF"
	}
	return "ON"
}

var memoryFormula = regexp.MustCompile(`^\{DBInstanceClassMemory\*([0-9]+)/([0-9]+)\}$`)

// isFormula tells whether a default is a memory formula, which makes formulas valid values.
func isFormula(v string) bool { return strings.HasPrefix(strings.TrimSpace(v), "{") }

// ParameterValueAllowed is P3.
func ParameterValueAllowed(spec ParameterSpec, value string) bool {
	value = strings.TrimSpace(value)
	if isFormula(spec.Default) {
		if m := memoryFormula.FindStringSubmatch(value); m != nil {
			num, err1 := strconv.ParseInt(m[1], 10, 64)
			den, err2 := strconv.ParseInt(m[2], 10, 64)
			return err1 == nil && err2 == nil && num > 0 && den > 0 && num*10 <= den*8
		}
	}
	if set, ok := allowedSet(spec.Allowed); ok {
		for _, v := range set {
			if strings.EqualFold(v, value) {
				return true
			}
		}
		return false
	}
	lo, hi, ok := allowedRange(spec.Allowed)
	if !ok {
		return true // a CheckingCode this provider does not understand: the cloud decides at apply
	}
	n, ok := number(value)
	if !ok || (lo.IsInt() && hi.IsInt() && !isInteger(value)) {
		return false
	}
	return n.Cmp(lo) >= 0 && n.Cmp(hi) <= 0
}

// allowedSet reads "[a|b|c]" (a one-element set has no "|" and no range dash).
func allowedSet(code string) ([]string, bool) {
	inner, ok := bracketed(code)
	if !ok {
		return nil, false
	}
	if strings.Contains(inner, "|") {
		return strings.Split(inner, "|"), true
	}
	if _, _, isRange := allowedRangeInner(inner); isRange {
		return nil, false
	}
	return []string{inner}, true
}

// allowedRange reads "[min-max]".
func allowedRange(code string) (lo, hi *big.Rat, ok bool) {
	inner, ok := bracketed(code)
	if !ok {
		return nil, nil, false
	}
	return allowedRangeInner(inner)
}

func allowedRangeInner(inner string) (lo, hi *big.Rat, ok bool) {
	a, b, found := strings.Cut(inner, "-")
	if !found {
		return nil, nil, false
	}
	lo, okLo := number(a)
	hi, okHi := number(b)
	return lo, hi, okLo && okHi
}

func bracketed(code string) (string, bool) {
	code = strings.TrimSpace(code)
	if len(code) < 2 || code[0] != '[' || code[len(code)-1] != ']' {
		return "", false
	}
	return code[1 : len(code)-1], true
}

// plainDecimal is how the cloud's CheckingCode writes numbers: digits, an optional sign and
// fraction; no base prefix (0x1000), exponent or fraction bar.
var plainDecimal = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]+)?$`)

// number parses a plain decimal.
func number(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if !plainDecimal.MatchString(s) {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// isInteger tells a whole number as an integer parameter takes it (4000, not 4000.0).
func isInteger(value string) bool { return !strings.Contains(value, ".") }

func describeAllowed(spec ParameterSpec) string {
	var out string
	if set, ok := allowedSet(spec.Allowed); ok {
		out = "allowed values are " + strings.Join(set, ", ")
	} else if lo, hi, ok := allowedRange(spec.Allowed); ok {
		out = "allowed range is " + strings.TrimSpace(spec.Allowed)
		if lo.IsInt() && hi.IsInt() {
			out = "allowed range is the whole numbers " + strings.TrimSpace(spec.Allowed)
		}
	} else {
		out = "allowed values are " + spec.Allowed
	}
	if isFormula(spec.Default) {
		out += ", or {DBInstanceClassMemory*X/Y} with X/Y at most 8/10"
	}
	return out
}

// SameParameterValue compares two values of one parameter as the cloud does: set members ignore
// case, numbers compare by value.
func SameParameterValue(spec ParameterSpec, a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == b {
		return true
	}
	if _, ok := allowedSet(spec.Allowed); ok {
		return strings.EqualFold(a, b)
	}
	x, okA := number(a)
	y, okB := number(b)
	return okA && okB && x.Cmp(y) == 0
}

// ParameterPlan is what an apply does with `parameters`.
type ParameterPlan struct {
	// Send is what ModifyParameter carries (empty: no call).
	Send map[string]string
	// GroupID is the group sent first with ModifyParameter's ParameterGroupId (P8); GroupNames
	// are the names of Send whose values come from it (the group call sets them).
	GroupID    string
	GroupNames []string
	// Online and Restart name the changed parameters by how they take effect, sorted.
	Online  []string
	Restart []string
	// Withdrawn are managed parameters whose running value is the configured one while another
	// value waits for a restart (set outside Terraform): the running value is sent again, which
	// withdraws the waiting one without a restart. They are part of Online.
	Withdrawn []string
}

// NeedsRestart tells whether the change restarts the instance (P5).
func (p ParameterPlan) NeedsRestart() bool { return len(p.Restart) > 0 }

// PlanParameters compares the configured map with the running values of the managed parameters
// (running: what the instance runs now; missing keys run their template default; pending: values
// waiting for a restart) and returns what must be sent. innodb_doublewrite is never sent (P4);
// removed keys are not touched (P6).
func PlanParameters(want, running, pending map[string]string, t ParameterTemplate) ParameterPlan {
	plan := ParameterPlan{Send: map[string]string{}}
	for _, name := range sortedKeys(want) {
		spec, ok := t.Parameters[name]
		if !ok || name == DoublewriteParameter || !spec.Modifiable {
			continue
		}
		current, known := running[name]
		if !known {
			current = spec.Default
		}
		if SameParameterValue(spec, current, want[name]) {
			if waiting, ok := pending[name]; ok && !SameParameterValue(spec, waiting, want[name]) {
				plan.Send[name] = strings.TrimSpace(want[name])
				plan.Online = append(plan.Online, name)
				plan.Withdrawn = append(plan.Withdrawn, name)
			}
			continue
		}
		plan.Send[name] = strings.TrimSpace(want[name])
		if t.Restarts(name) {
			plan.Restart = append(plan.Restart, name)
		} else {
			plan.Online = append(plan.Online, name)
		}
	}
	return plan
}

// ParameterRestartReason is the restart warning's text for P5; "" when nothing restarts. A name
// without a running value runs its template default.
func ParameterRestartReason(plan ParameterPlan, running map[string]string, t ParameterTemplate) string {
	if !plan.NeedsRestart() {
		return ""
	}
	parts := make([]string, 0, len(plan.Restart))
	for _, name := range plan.Restart {
		from, ok := running[name]
		if !ok {
			from = t.Parameters[name].Default
		}
		parts = append(parts, fmt.Sprintf("%s %s -> %s", name, from, plan.Send[name]))
	}
	return parameterRestartReasonPrefix + strings.Join(parts, ", ") + ")"
}

// PendingAppliedReason names parameters already waiting for a restart (set outside Terraform
// without a restart) that any restart of this apply will make run too; "" when there are none.
func PendingAppliedReason(pending map[string]string) string {
	if len(pending) == 0 {
		return ""
	}
	parts := make([]string, 0, len(pending))
	for _, name := range sortedKeys(pending) {
		parts = append(parts, fmt.Sprintf("%s = %s", name, pending[name]))
	}
	return pendingAppliedPrefix + strings.Join(parts, ", ") + ")"
}

// pendingAppliedPrefix starts PendingAppliedReason's line in a task's changes.
const pendingAppliedPrefix = "the restart also applies parameters already waiting for one ("

// ClosestNames returns up to limit names nearest to want by edit distance, nearest first; names
// further than half of want's length are not suggestions.
func ClosestNames(want string, names []string, limit int) []string {
	type scored struct {
		name string
		d    int
	}
	var candidates []scored
	for _, n := range names {
		d := editDistance(strings.ToLower(want), strings.ToLower(n))
		if d <= max(2, len(want)/2) {
			candidates = append(candidates, scored{n, d})
		}
	}
	sort.SliceStable(candidates, func(i, j int) bool {
		if candidates[i].d != candidates[j].d {
			return candidates[i].d < candidates[j].d
		}
		return candidates[i].name < candidates[j].name
	})
	var out []string
	for i := 0; i < len(candidates) && i < limit; i++ {
		out = append(out, candidates[i].name)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// DesiredParameters is `parameters` as configured.
type DesiredParameters struct {
	// Set: the configuration has the map; when false nothing is managed (P6).
	Set bool
	// Unknown: the whole map is known only at apply.
	Unknown bool
	Values  map[string]string
	// UnknownValues are entries whose value is known only at apply; NullValues entries set to null.
	UnknownValues map[string]bool
	NullValues    []string
	// Recorded: the prior state holds exactly this map. When it does not (after an import, or a
	// key added with the value the instance already runs), the apply still updates the state.
	Recorded bool
	// Group is the instance's parameter_group_id and its parameters (P8); nil without one.
	Group *GroupParameters
}

// ParameterFacts are what the cloud says about parameters, fetched by the resource.
type ParameterFacts struct {
	Template ParameterTemplate
	// Running and Pending are the existing instance's running values and the values waiting for a
	// restart; empty for an instance the apply creates (it starts from the template defaults).
	Running, Pending map[string]string
	// ErrorCall and Error describe a failed lookup.
	ErrorCall, Error string
}

// ParameterDecision is the planner's answer for `parameters`.
type ParameterDecision struct {
	ParameterPlan
	// Pending is parameters_pending after the apply, when PendingKnown.
	Pending      map[string]string
	PendingKnown bool
	// SharesRestart: the restart-needing values go out without Forcerestart, before the spec
	// change or the toggle after creation whose one restart applies them too.
	SharesRestart bool
	// GroupValues are parameter_group_values after the apply (P8); GroupValuesKnown is false
	// while the group's parameters are known only at apply.
	GroupValues      map[string]string
	GroupValuesKnown bool
}

// planParameters joins `parameters` to the decision: P1-P4 problems, what is sent, and P5's
// restart, shared with the instance's other restart of the same apply when the apply sends that
// one itself (a spec change, a toggle after creation), or a second restart otherwise.
func planParameters(in PlanInput, d *Decision) {
	dp := in.Desired.Parameters
	if !dp.Set && dp.Group == nil {
		return
	}
	d.Parameters.GroupValues, d.Parameters.GroupValuesKnown = groupValuesAfter(dp)
	if dp.Group != nil && dp.Group.Values == nil && !groupGoesAtCreate(in) {
		mayRestartForParameters(in, d, "the parameters of parameter_group_id (known only at apply)")
	}
	if dp.Unknown {
		mayRestartForParameters(in, d, "parameters (the whole map)")
		return
	}
	for _, name := range dp.NullValues {
		d.add(problem(RuleParamNoValue, "", name).At(parameterAttribute(name)))
	}
	f := in.Facts.Parameters
	if f == nil {
		// Engine or version not known yet: the values are checked at apply.
		if len(dp.Values) > 0 || len(dp.UnknownValues) > 0 {
			mayRestartForParameters(in, d, "which of parameters need a restart (engine and engine_version)")
		}
		return
	}
	if f.Error != "" {
		d.add(problem(RuleParamFactsUnreadable, "", f.ErrorCall, f.Error))
		return
	}
	all := make(map[string]string, len(dp.Values)+len(dp.UnknownValues))
	for name, v := range dp.Values {
		all[name] = v
	}
	for name := range dp.UnknownValues {
		all[name] = ""
	}
	d.add(CheckParameters(all, dp.UnknownValues, f.Template, d.AtomicWrite)...)
	if d.HasErrors() {
		return
	}
	want, _ := withGroup(dp.Values, dp.Group)
	plan := PlanParameters(want, runningWhenSent(in, want, groupRunningAtCreate(in, f.Running), f.Pending, f.Template), f.Pending, f.Template)
	planGroup(in, d, &plan)
	d.Parameters.ParameterPlan = plan
	if names := restartingUnknown(dp.UnknownValues, f.Template); len(names) > 0 {
		mayRestartForParameters(in, d, "the values of "+strings.Join(names, ", "))
	}
	if (len(plan.Send) > 0 || plan.GroupID != "" || (in.Prior != nil && !dp.Recorded)) && d.Action == ActionNoop {
		d.Action = ActionUpdate
		if !d.Status.Is(StatusRunning) {
			// As for any update of an instance that is not Running: known after apply.
			d.Status = Unknown[string]()
		}
	}
	own := planParameterRestart(in, d, plan, f)
	planPendingParameters(in, d, plan, f, own)
}

// planParameterRestart joins P5's restart to the one the apply sends itself, else plans a
// restart of its own (a second one after a read-only instance's restart following its primary).
// It returns the index of the instance's own restart, -1 when there is none.
func planParameterRestart(in PlanInput, d *Decision, plan ParameterPlan, f *ParameterFacts) int {
	own, sent := restartIndexes(d, in.Label)
	if !plan.NeedsRestart() {
		return own
	}
	reason := ParameterRestartReason(plan, f.Running, f.Template)
	switch {
	case sent >= 0:
		d.Restarts[sent].Reasons = append(d.Restarts[sent].Reasons, reason)
		d.Parameters.SharesRestart = true
	case own >= 0:
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, Downtime: downtimeOf(in),
			Reasons: []string{reason, "a second restart: the first one follows its primary and happens before this change is sent"}})
	default:
		reasons := []string{reason}
		if in.Prior == nil {
			reasons = append(reasons, "they are applied by one restart right after creation")
		}
		d.Restarts = append(d.Restarts, Restart{InstanceID: in.Label, Reasons: reasons, Downtime: downtimeOf(in)})
		own = len(d.Restarts) - 1
	}
	if d.RestartAttribute == "" {
		d.RestartAttribute = AttrParameters
	}
	return own
}

// planPendingParameters decides parameters_pending after the apply: a restart applies every
// waiting value; without one, the waiting values the apply does not withdraw stay (warned of).
func planPendingParameters(in PlanInput, d *Decision, plan ParameterPlan, f *ParameterFacts, own int) {
	security := securityRestartsFirst(in) // an SSL or TDE restart goes first and applies them (applyPending)
	if own >= 0 && !security {
		// A waiting value this apply sends again is already named by the restart's reason.
		waiting := map[string]string{}
		for name, v := range f.Pending {
			if _, sent := plan.Send[name]; !sent {
				waiting[name] = v
			}
		}
		if r := PendingAppliedReason(waiting); r != "" {
			d.Restarts[own].Reasons = append(d.Restarts[own].Reasons, r)
		}
	}
	warnWaiting(in, d, f, own >= 0 || security)
	switch {
	case own >= 0 && !security:
		d.Parameters.Pending, d.Parameters.PendingKnown = map[string]string{}, true
	case len(in.Desired.Parameters.UnknownValues) == 0:
		d.Parameters.Pending, d.Parameters.PendingKnown = map[string]string{}, true
		for name, v := range f.Pending {
			if !slices.Contains(plan.Withdrawn, name) {
				d.Parameters.Pending[name] = v
			}
		}
	}
}

// restartingUnknown lists the parameters whose value is known only at apply and whose change
// restarts the instance (a name the template lacks is refused on its own).
func restartingUnknown(unknown map[string]bool, t ParameterTemplate) []string {
	var names []string
	for name := range unknown {
		if spec, ok := t.Parameters[name]; ok && spec.Restart && name != DoublewriteParameter {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// mayRestartForParameters records a restart that parameters known only at apply may cause; with
// prevent_restart the plan refuses it now, since the apply could only fail after other resources
// of the run have changed.
func mayRestartForParameters(in PlanInput, d *Decision, what string) {
	if !in.Desired.PreventRestart {
		d.MayRestart = append(d.MayRestart, AttrParameters)
		return
	}
	d.Guard = GuardPreventRestart
	d.add(problem(RuleMayRestartRefused, "true", in.Label, what))
}

// warnWaiting names the values waiting for a restart (set outside Terraform) that an apply which
// changes the instance without restarting it leaves waiting, and what will apply them.
func warnWaiting(in PlanInput, d *Decision, f *ParameterFacts, restarts bool) {
	if restarts || in.Prior == nil || d.Action == ActionNoop || d.HasErrors() {
		return
	}
	var parts []string
	for _, name := range sortedKeys(f.Pending) {
		if slices.Contains(d.Parameters.Withdrawn, name) {
			continue
		}
		part := fmt.Sprintf("%s = %s", name, f.Pending[name])
		if running, ok := f.Running[name]; ok {
			part += fmt.Sprintf(" (runs %s)", running)
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return
	}
	what := "a change that restarts it, or RestartDBInstance"
	if in.Desired.ApplyRestarts == ApplyRestartsInWindow {
		what = "a change that restarts it, which apply_restarts = \"in_maintenance_window\" makes in the window, or RestartDBInstance"
	}
	d.add(problem(RuleParamWaiting, "", in.Label, strings.Join(parts, ", "), what))
}

// restartIndexes finds the planned instance's first restart (own) and the restart the apply
// causes by sending something itself (sent: a spec change or a toggle after creation, not the
// cloud's restart of a read-only instance following its primary); -1 when there is none.
func restartIndexes(d *Decision, label string) (own, sent int) {
	own, sent = -1, -1
	for i, r := range d.Restarts {
		if r.InstanceID != label {
			continue
		}
		followRestart := d.FollowsPrimary && own < 0
		if own < 0 {
			own = i
		}
		if !followRestart && (!d.Order.Empty() || d.ToggleAfterCreate != nil) {
			sent = i
		}
	}
	return own, sent
}
