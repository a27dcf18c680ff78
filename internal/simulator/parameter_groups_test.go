package simulator

import "testing"

// groupParams reads DescribeParameterGroup's parameters, ForceRestart and related instances.
func (e *env) group(id string) (params map[string]string, restart float64, related []string) {
	e.t.Helper()
	body := e.c.ok("DescribeParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": id})
	g := body["ParamGroup"].(map[string]any)["ParameterGroup"].([]any)[0].(map[string]any)
	params = map[string]string{}
	for _, d := range g["ParamDetail"].(map[string]any)["ParameterDetail"].([]any) {
		m := d.(map[string]any)
		params[m["ParamName"].(string)] = m["ParamValue"].(string)
	}
	for _, r := range body["RelatedCustinsInfo"].(map[string]any)["RelatedCustinsInfo"].([]any) {
		related = append(related, r.(map[string]any)["DBInstanceName"].(string))
	}
	return params, g["ForceRestart"].(float64), related
}

func TestParameterGroupLifecycle(t *testing.T) {
	e := newEnv(t)
	create := map[string]string{"RegionId": DefaultRegion, "ParameterGroupName": "fleet_default", "Engine": "mysql", "EngineVersion": "8.0",
		"Parameters": `{"wait_timeout":"3600","back_log":"4000"}`}
	id := e.c.ok("CreateParameterGroup", create)["ParameterGroupId"].(string)
	params, restart, _ := e.group(id)
	if params["wait_timeout"] != "3600" || params["back_log"] != "4000" || len(params) != 2 || restart != 1 {
		t.Fatalf("created group: %v restart %v", params, restart)
	}
	// Collectivity (the default) merges; Individual replaces, so a parameter left out is removed.
	e.c.ok("ModifyParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": id, "Parameters": `{"sync_binlog":"1000"}`})
	if params, _, _ = e.group(id); len(params) != 3 {
		t.Fatalf("Collectivity: %v", params)
	}
	e.c.ok("ModifyParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": id, "ModifyMode": "Individual", "Parameters": `{"wait_timeout":"7200"}`})
	if params, restart, _ = e.group(id); len(params) != 1 || params["wait_timeout"] != "7200" || restart != 0 {
		t.Fatalf("Individual: %v restart %v", params, restart)
	}
	// Applying the group to an instance sets its values and relates the instance.
	inst := e.create(nil)
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": inst, "ParameterGroupId": id})
	if running, _ := e.params(inst); running["wait_timeout"] != "7200" {
		t.Fatalf("applied group: wait_timeout %q", running["wait_timeout"])
	}
	if _, _, related := e.group(id); len(related) != 1 || related[0] != inst {
		t.Fatalf("related instances %v", related)
	}
	// An instance created with the group runs its values from the start, without a restart.
	created := e.create(map[string]string{"DBParamGroupId": id})
	if running, _ := e.params(created); running["wait_timeout"] != "7200" || e.sim.Stats().Restarts[created] != 0 {
		t.Fatalf("created with the group: wait_timeout %q, %d restarts", running["wait_timeout"], e.sim.Stats().Restarts[created])
	}
	e.c.ok("DeleteParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": id})
	e.c.fails("DescribeParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": id}, 404, "ParamGroupsNotExist")
	e.c.fails("ModifyParameter", map[string]string{"DBInstanceId": inst, "ParameterGroupId": id}, 404, "ParamGroupsNotExist")
}

func TestParameterGroupRefusals(t *testing.T) {
	e := newEnv(t)
	base := func(k, v string) map[string]string {
		p := map[string]string{"RegionId": DefaultRegion, "ParameterGroupName": "fleet_default", "Engine": "mysql", "EngineVersion": "8.0",
			"Parameters": `{"wait_timeout":"3600"}`}
		p[k] = v
		return p
	}
	e.c.fails("CreateParameterGroup", base("ParameterGroupName", "short"), 400, "InvalidParameter")
	e.c.fails("CreateParameterGroup", base("ParameterGroupName", "9starts_with_digit"), 400, "InvalidParameter")
	e.c.fails("CreateParameterGroup", base("Parameters", `{"no_such_parameter":"1"}`), 400, "InvalidParameter")
	e.c.fails("CreateParameterGroup", base("Parameters", `{"wait_timeout":"0"}`), 400, "InvalidParameter")
	e.c.fails("CreateParameterGroup", base("Parameters", ""), 400, "MissingParameter")
	e.c.fails("CreateParameterGroup", base("EngineVersion", "5.6"), 400, "InvalidParameter")
	e.c.fails("CreateParameterGroup", base("RegionId", "cn-nowhere"), 400, "InvalidRegionId.NotFound")
	id := e.c.ok("CreateParameterGroup", base("EngineVersion", "5.7"))["ParameterGroupId"].(string)
	e.c.fails("ModifyParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": id, "ModifyMode": "Replace", "Parameters": `{"wait_timeout":"1"}`}, 400, "InvalidParameter")
	e.c.fails("DeleteParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupId": "rpg-none"}, 404, "ParamGroupsNotExist")
	// A group of another version is not applied to an 8.0 instance.
	inst := e.create(nil)
	e.c.fails("ModifyParameter", map[string]string{"DBInstanceId": inst, "ParameterGroupId": id}, 400, "InvalidParameter")
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"DBParamGroupId": id}), 400, "InvalidParameter")
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"DBParamGroupId": "rpg-none"}), 404, "ParamGroupsNotExist")
}
