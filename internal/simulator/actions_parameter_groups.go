package simulator

import (
	"crypto/rand"
	"encoding/json"
	"regexp"
	"sort"
	"time"
)

// Parameter groups (README "Parameter groups"): templates of parameter values kept by the user
// and applied to instances with ModifyParameter's ParameterGroupId. A group holds exactly the
// parameters it was given; ModifyParameterGroup merges (ModifyMode=Collectivity, the default) or
// replaces them (Individual).

// paramGroup is one parameter group.
type paramGroup struct {
	ID              string            `json:"id"`
	Name            string            `json:"name"`
	Description     string            `json:"description,omitempty"`
	EngineVersion   string            `json:"engine_version"`
	Params          map[string]string `json:"params"`
	ResourceGroupID string            `json:"resource_group_id,omitempty"`
	Created         time.Time         `json:"created"`
	Updated         time.Time         `json:"updated"`
}

// paramGroupName is the documented name rule: 8-64 characters, letters, digits, periods and
// underscores, starting with a letter.
var paramGroupName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._]{7,63}$`)

func errParamGroupNotFound(id string) *apiError {
	return newErr(404, "ParamGroupsNotExist", "The parameter group %q does not exist in this region.", truncate(id))
}

// groupParams reads and checks a group's Parameters against the version's template.
func groupParams(p params, version string) (map[string]string, *apiError) {
	raw, e := p.required("Parameters")
	if e != nil {
		return nil, e
	}
	var wanted map[string]string
	if err := json.Unmarshal([]byte(raw), &wanted); err != nil || len(wanted) == 0 {
		return nil, newErr(400, "InvalidParameters.Format", "Parameters must be a non-empty JSON object of string values, such as {\"back_log\":\"3000\"}.")
	}
	return validateParams(version, wanted)
}

func checkGroupName(name string) *apiError {
	if !paramGroupName.MatchString(name) {
		return errInvalid("ParameterGroupName", "%q: 8 to 64 letters, digits, periods or underscores, starting with a letter", truncate(name))
	}
	return nil
}

func (s *Simulator) createParameterGroup(c *call) (map[string]any, *apiError) {
	p := c.p
	if e := s.checkRegion(p); e != nil {
		return nil, e
	}
	name, e := p.required("ParameterGroupName")
	if e != nil {
		return nil, e
	}
	engine, e := p.required("Engine")
	if e != nil {
		return nil, e
	}
	version, e := p.required("EngineVersion")
	if e != nil {
		return nil, e
	}
	if e := checkGroupName(name); e != nil {
		return nil, e
	}
	if _, e := templateFor(engine, version); e != nil {
		return nil, e
	}
	values, e := groupParams(p, version)
	if e != nil {
		return nil, e
	}
	c.dirty = true
	g := &paramGroup{ID: s.newGroupID(), Name: name, Description: p.get("ParameterGroupDesc"), EngineVersion: version,
		Params: values, ResourceGroupID: p.get("ResourceGroupId"), Created: c.now, Updated: c.now}
	if s.state.ParamGroups == nil {
		s.state.ParamGroups = map[string]*paramGroup{}
	}
	s.state.ParamGroups[g.ID] = g
	return map[string]any{"ParameterGroupId": g.ID}, nil
}

func (s *Simulator) lookupGroup(p params) (*paramGroup, *apiError) {
	if e := s.checkRegion(p); e != nil {
		return nil, e
	}
	id, e := p.required("ParameterGroupId")
	if e != nil {
		return nil, e
	}
	g, ok := s.state.ParamGroups[id]
	if !ok {
		return nil, errParamGroupNotFound(id)
	}
	return g, nil
}

func (s *Simulator) modifyParameterGroup(c *call) (map[string]any, *apiError) {
	g, e := s.lookupGroup(c.p)
	if e != nil {
		return nil, e
	}
	mode, e := c.p.oneOf("ModifyMode", "Collectivity", "Collectivity", "Individual")
	if e != nil {
		return nil, e
	}
	values, e := groupParams(c.p, g.EngineVersion)
	if e != nil {
		return nil, e
	}
	name := c.p.get("ParameterGroupName")
	if name != "" {
		if e := checkGroupName(name); e != nil {
			return nil, e
		}
		g.Name = name
	}
	if c.p.has("ParameterGroupDesc") {
		g.Description = c.p.get("ParameterGroupDesc")
	}
	if mode == "Collectivity" {
		for k, v := range g.Params {
			if _, sent := values[k]; !sent {
				values[k] = v
			}
		}
	}
	g.Params, g.Updated, c.dirty = values, c.now, true
	return map[string]any{"ParameterGroupId": g.ID}, nil
}

// forceRestart tells whether applying the group restarts an instance.
func (g *paramGroup) forceRestart() bool {
	for name := range g.Params {
		if t, ok := templateParam(g.EngineVersion, name); ok && t.restart {
			return true
		}
	}
	return false
}

// answer is one group as DescribeParameterGroup and DescribeParameterGroups answer it; the
// parameters only with detail (DescribeParameterGroups' EnableDetail).
func (g *paramGroup) answer(detail bool) map[string]any {
	details := []map[string]any{}
	for _, name := range sortedKeys(g.Params) {
		if detail {
			details = append(details, map[string]any{"ParamName": name, "ParamValue": g.Params[name]})
		}
	}
	restart := 0
	if g.forceRestart() {
		restart = 1
	}
	return map[string]any{
		"ParameterGroupId": g.ID, "ParameterGroupName": g.Name, "ParameterGroupDesc": g.Description, "Engine": "mysql",
		"EngineVersion": g.EngineVersion, "ForceRestart": restart, "ParameterGroupType": 1, "ParamCounts": len(g.Params),
		"CreateTime": g.Created.UTC().Format(time.RFC3339), "UpdateTime": g.Updated.UTC().Format(time.RFC3339),
		"ParamDetail": map[string]any{"ParameterDetail": details},
	}
}

// describeParameterGroups lists the region's groups, oldest first; ResourceGroupId narrows the
// list, EnableDetail adds each group's parameters.
func (s *Simulator) describeParameterGroups(c *call) (map[string]any, *apiError) {
	if e := s.checkRegion(c.p); e != nil {
		return nil, e
	}
	detail := c.p.get("EnableDetail") == "true"
	rg := c.p.get("ResourceGroupId")
	groups := []map[string]any{}
	for _, g := range s.groupsByAge() {
		if rg == "" || g.ResourceGroupID == rg {
			groups = append(groups, g.answer(detail))
		}
	}
	return map[string]any{"ParameterGroups": map[string]any{"ParameterGroup": groups}, "SignalForOptimizeParams": false}, nil
}

func (s *Simulator) groupsByAge() []*paramGroup {
	out := make([]*paramGroup, 0, len(s.state.ParamGroups))
	for _, id := range sortedKeys(s.state.ParamGroups) {
		out = append(out, s.state.ParamGroups[id])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

func (s *Simulator) describeParameterGroup(c *call) (map[string]any, *apiError) {
	g, e := s.lookupGroup(c.p)
	if e != nil {
		return nil, e
	}
	related := []map[string]any{}
	for _, id := range sortedKeys(s.state.Instances) {
		if in := s.state.Instances[id]; in.ParamGroupID == g.ID {
			related = append(related, map[string]any{"DBInstanceName": id, "AppliedTime": in.ParamGroupApplied.UTC().Format(time.RFC3339)})
		}
	}
	return map[string]any{
		"ParamGroup":         map[string]any{"ParameterGroup": []map[string]any{g.answer(true)}},
		"RelatedCustinsInfo": map[string]any{"RelatedCustinsInfo": related},
	}, nil
}

// deleteParameterGroup deletes a group; the instances it was applied to keep their values.
func (s *Simulator) deleteParameterGroup(c *call) (map[string]any, *apiError) {
	g, e := s.lookupGroup(c.p)
	if e != nil {
		return nil, e
	}
	for _, in := range s.state.Instances {
		if in.ParamGroupID == g.ID {
			in.ParamGroupID = ""
		}
	}
	delete(s.state.ParamGroups, g.ID)
	c.dirty = true
	return map[string]any{}, nil
}

func (s *Simulator) newGroupID() string {
	for {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
		}
		if id := "rpg-" + string(b); s.state.ParamGroups[id] == nil {
			return id
		}
	}
}

// wantedParameters is what a ModifyParameter applies: the group's parameters when it names
// ParameterGroupId (the group must be of the instance's version), else its Parameters.
func (s *Simulator) wantedParameters(p params, in *instance) (map[string]string, string, *apiError) {
	if id := p.get("ParameterGroupId"); id != "" {
		g, ok := s.state.ParamGroups[id]
		if !ok {
			return nil, "", errParamGroupNotFound(id)
		}
		if g.EngineVersion != in.EngineVersion || !in.isMySQL() {
			return nil, "", errInvalid("ParameterGroupId", "%s is a group of MySQL %s; %s runs %s %s", g.ID, g.EngineVersion, in.ID, in.Engine, in.EngineVersion)
		}
		return g.Params, g.ID, nil
	}
	raw, e := p.required("Parameters")
	if e != nil {
		return nil, "", e
	}
	var wanted map[string]string
	if err := json.Unmarshal([]byte(raw), &wanted); err != nil || len(wanted) == 0 {
		return nil, "", newErr(400, "InvalidParameters.Format", "Parameters must be a non-empty JSON object of string values, such as {\"sync_binlog\":\"1\"}.")
	}
	return wanted, "", nil
}

// createParamGroup is CreateDBInstance's DBParamGroupId: nil when absent; a group of the
// instance's engine version.
func (s *Simulator) createParamGroup(p params, version string) (*paramGroup, *apiError) {
	id := p.get("DBParamGroupId")
	if id == "" {
		return nil, nil
	}
	g, ok := s.state.ParamGroups[id]
	if !ok {
		return nil, errParamGroupNotFound(id)
	}
	if g.EngineVersion != version {
		return nil, errInvalid("DBParamGroupId", "%s is a group of MySQL %s, not %s", g.ID, g.EngineVersion, version)
	}
	return g, nil
}

// applyAtCreate starts the instance with the group's values running (no restart: the instance
// is initialised with them).
func (g *paramGroup) applyAtCreate(in *instance, now time.Time) {
	if g == nil {
		return
	}
	in.ParamRunning = map[string]string{}
	for k, v := range g.Params {
		in.ParamRunning[k] = v
	}
	in.ParamGroupID, in.ParamGroupApplied = g.ID, now
}
