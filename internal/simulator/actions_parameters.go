package simulator

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Parameters of an instance: template defaults, overridden by what ModifyParameter set. A value
// that needs a restart is configured at once but runs only from the next restart of the instance,
// whatever restarts it (ModifyParameter with Forcerestart, RestartDBInstance, a spec change).

// runningParam is the value in effect. innodb_doublewrite follows 16K atomic write: the cloud
// switches it off while the flag is on.
func (in *instance) runningParam(t paramTemplate) string {
	if t.name == "innodb_doublewrite" {
		if in.Optimized {
			return "OFF"
		}
		return "ON"
	}
	if v, ok := in.ParamRunning[t.name]; ok {
		return v
	}
	return t.def
}

// configuredParam is the value set, running or waiting for a restart.
func (in *instance) configuredParam(t paramTemplate) string {
	if v, ok := in.ParamConfig[t.name]; ok {
		return v
	}
	return in.runningParam(t)
}

// applyPendingParams makes every configured value a running one; called when a restart starts.
func (in *instance) applyPendingParams() {
	for name, v := range in.ParamConfig {
		if in.ParamRunning == nil {
			in.ParamRunning = map[string]string{}
		}
		in.ParamRunning[name] = v
	}
	in.ParamConfig = nil
}

// describeParameterTemplates answers the default template of an engine and version.
func (s *Simulator) describeParameterTemplates(c *call) (map[string]any, *apiError) {
	engine, e := c.p.required("Engine")
	if e != nil {
		return nil, e
	}
	version, e := c.p.required("EngineVersion")
	if e != nil {
		return nil, e
	}
	if _, e := c.p.oneOf("Category", "HighAvailability", "Basic", "HighAvailability", "cluster", "AlwaysOn", "Finance", "serverless_basic"); e != nil {
		return nil, e
	}
	template, e := templateFor(engine, version)
	if e != nil {
		return nil, e
	}
	records := make([]map[string]any, 0, len(template))
	for _, t := range template {
		records = append(records, map[string]any{
			"ParameterName":        t.name,
			"ParameterValue":       t.def,
			"CheckingCode":         t.check,
			"ForceModify":          strconv.FormatBool(t.modifiable),
			"ForceRestart":         strconv.FormatBool(t.restart),
			"ParameterDescription": t.desc,
		})
	}
	return map[string]any{
		"Engine": "MySQL", "EngineVersion": version, "ParameterCount": strconv.Itoa(len(records)),
		"Parameters": map[string]any{"TemplateRecord": records},
	}, nil
}

func templateFor(engine, version string) ([]paramTemplate, *apiError) {
	if !strings.EqualFold(engine, "MySQL") {
		return nil, errInvalid("Engine", "%q: the simulator models parameter templates for MySQL only", truncate(engine))
	}
	template := mysqlTemplate(version)
	if template == nil {
		return nil, errInvalid("EngineVersion", "%q: the simulator has MySQL parameter templates for %s", truncate(version), strings.Join(templateVersions, ", "))
	}
	return template, nil
}

// describeParameters answers the running parameters and, under ConfigParameters, the ones set
// but waiting for a restart.
func (s *Simulator) describeParameters(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	running, config := []map[string]any{}, []map[string]any{}
	if in.isMySQL() {
		for _, t := range mysqlTemplate(in.EngineVersion) {
			item := func(v string) map[string]any {
				return map[string]any{"ParameterName": t.name, "ParameterValue": v, "ParameterDescription": t.desc}
			}
			running = append(running, item(in.runningParam(t)))
			if configured := in.configuredParam(t); configured != in.runningParam(t) {
				config = append(config, item(configured))
			}
		}
	}
	return map[string]any{
		"Engine": in.Engine, "EngineVersion": in.EngineVersion,
		"RunningParameters": map[string]any{"DBInstanceParameter": running},
		"ConfigParameters":  map[string]any{"DBInstanceParameter": config},
	}, nil
}

// modifyParameter sets parameters. Every name and value is checked first; one bad parameter
// refuses the whole request with nothing changed. Values that apply online run at once; values
// that need a restart run after one: at once with Forcerestart=true (one restart for the whole
// request), in the maintenance window with Forcerestart=true and SwitchTimeMode=MaintainTime
// (a task of the task centre), otherwise from the next restart.
func (s *Simulator) modifyParameter(c *call) (map[string]any, *apiError) {
	p := c.p
	in, e := s.lookup(p)
	if e != nil {
		return nil, e
	}
	wanted, group, e := s.wantedParameters(p, in)
	if e != nil {
		return nil, e
	}
	force, e := p.boolean("Forcerestart")
	if e != nil {
		return nil, e
	}
	// Immediately (the default) or the maintenance window; ScheduleTime (a given SwitchTime) is not modelled (Q3).
	mode, e := p.oneOf("SwitchTimeMode", "Immediately", "Immediately", "MaintainTime")
	if e != nil {
		return nil, e
	}
	if !in.isMySQL() {
		return nil, errInvalid("Parameters", "the simulator models parameters for MySQL only, not %s", in.Engine)
	}
	values, e := validateParams(in.EngineVersion, wanted)
	if e != nil {
		return nil, e
	}
	if in.Status != statusRunning {
		return nil, errBusy(in.ID, in.Status)
	}
	c.dirty = true
	if group != "" {
		in.ParamGroupID, in.ParamGroupApplied = group, c.now
	}
	restartNeeded := false
	waiting := map[string]string{}
	for _, name := range sortedKeys(values) {
		t, _ := templateParam(in.EngineVersion, name)
		v := values[name]
		if !t.restart {
			if in.ParamRunning == nil {
				in.ParamRunning = map[string]string{}
			}
			in.ParamRunning[name] = v
			delete(in.ParamConfig, name)
			continue
		}
		if v == in.runningParam(t) {
			delete(in.ParamConfig, name) // back to the running value: nothing waits any more
			continue
		}
		if in.ParamConfig == nil {
			in.ParamConfig = map[string]string{}
		}
		in.ParamConfig[name] = v
		waiting[name] = v
		restartNeeded = true
	}
	if force && isWindowSpec(mode) {
		// The restart that applies them happens in the maintenance window (README "Parameters").
		s.scheduleParameterRestart(in, c.now, waiting)
		return map[string]any{}, nil
	}
	if force && restartNeeded {
		s.startRestart(in, statusRebooting, c.now, in.Optimized)
	}
	// A value withdrawn, replaced or applied here leaves the window's parameter task.
	s.pruneParameterTask(in)
	return map[string]any{}, nil
}

// validateParams checks every parameter against the template and returns the values in their
// canonical spelling. The message lists every bad parameter as [name:value,...], as the cloud's
// does.
func validateParams(version string, wanted map[string]string) (map[string]string, *apiError) {
	out := map[string]string{}
	var unknown, locked, invalid []string
	for _, name := range sortedKeys(wanted) {
		v := strings.TrimSpace(wanted[name])
		t, ok := templateParam(version, name)
		switch {
		case !ok:
			unknown = append(unknown, name)
		case !t.modifiable:
			locked = append(locked, name)
		default:
			canonical, valid := checkValue(t, v)
			if !valid {
				invalid = append(invalid, name+":"+truncate(v))
				continue
			}
			out[name] = canonical
		}
	}
	switch {
	case len(unknown) > 0:
		return nil, newErr(400, "InvalidParameter", "Specified parameter does not exist in the template of MySQL %s.[%s]", version, strings.Join(unknown, ","))
	case len(locked) > 0:
		return nil, newErr(400, "InvalidParameter", "Specified parameter cannot be modified.[%s]", strings.Join(locked, ","))
	case len(invalid) > 0:
		return nil, newErr(400, "InvalidParameter", "Specified parameter is not valid.[%s]", strings.Join(invalid, ","))
	}
	return out, nil
}

var memoryFormula = regexp.MustCompile(`^\{DBInstanceClassMemory\*([0-9]+)/([0-9]+)\}$`)

// checkValue tells whether v is allowed by the parameter's CheckingCode and returns its canonical
// spelling (set members as the template writes them).
func checkValue(t paramTemplate, v string) (string, bool) {
	if t.formula {
		if m := memoryFormula.FindStringSubmatch(v); m != nil {
			num, _ := strconv.ParseInt(m[1], 10, 64)
			den, _ := strconv.ParseInt(m[2], 10, 64)
			// At most 8/10 of the instance memory, and more than nothing.
			return v, num > 0 && den > 0 && num*10 <= den*8
		}
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(t.check, "["), "]")
	if strings.Contains(inner, "|") || !strings.Contains(inner, "-") {
		for _, allowed := range strings.Split(inner, "|") {
			if strings.EqualFold(v, allowed) {
				return allowed, true
			}
		}
		return "", false
	}
	lo, hi, _ := strings.Cut(inner, "-")
	value, ok := new(big.Rat).SetString(v)
	if !ok || strings.ContainsAny(v, "/eE") {
		return "", false
	}
	lowest, _ := new(big.Rat).SetString(lo)
	highest, _ := new(big.Rat).SetString(hi)
	if !strings.Contains(lo+hi, ".") && !value.IsInt() {
		return "", false // an integer parameter takes no fraction
	}
	return v, value.Cmp(lowest) >= 0 && value.Cmp(highest) <= 0
}
