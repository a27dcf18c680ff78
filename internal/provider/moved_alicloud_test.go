package provider

// `moved` from the alicloud provider, at the plugin protocol: MoveResourceState with the raw state
// the alicloud provider writes (moved_alicloud_states_test.go: every attribute of the alicloud
// schema at aliyun/terraform-provider-alicloud 81c43b672, values as the alicloud provider records
// them for the cloud object), then Terraform's refresh and plan against the simulator, which must
// plan no change for the configuration a user writes for the moved resource.

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

const (
	movedPrimary   = "rm-bp1alicloudmove01"
	movedReadonly  = "rr-bp1alicloudmove02"
	movedSecret    = "Alicloud-Secret-9f3k"
	movedIOCap     = "innodb_io_capacity"
	movedAccount   = "app_user"
	movedDatabase  = "orders"
	movedPrivilege = "ReadWrite"
)

// movedCloud is the cloud the moved resources live in: a primary, its read-only instance, an
// account, a database and a grant, created through the API as the alicloud provider would have.
type movedCloud struct {
	w   *oracleWorld
	api rdsapi.API
}

// movedTags are the tags of the alicloud states, kept in the configuration after the move.
var movedTags = map[string]string{"Environment": "production", "Team": "orders"}

func newMovedCloud(t *testing.T) *movedCloud {
	t.Helper()
	h := newOracleHarness(t)
	w := h.newWorld()
	for _, seed := range []simulator.SeedInstance{
		{ID: movedPrimary, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", Storage: 100},
		{ID: movedReadonly, Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", Storage: 100, MasterID: movedPrimary},
	} {
		if _, err := w.sim.AddInstance(seed); err != nil {
			t.Fatal(err)
		}
	}
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: movedPrimary, AccountName: movedAccount,
		AccountPassword: movedSecret, AccountDescription: "orders service"}))
	must(api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: movedPrimary, DBName: movedDatabase,
		CharacterSetName: "utf8mb4", DBDescription: "orders"}))
	must(api.GrantAccountPrivilege(ctx, &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: movedPrimary, AccountName: movedAccount,
		DBNames: []string{movedDatabase}, AccountPrivilege: movedPrivilege}))
	// The alicloud instance state has the SQL collector on, 30 days (moved_alicloud_states_test.go).
	must(api.ModifySqlLogConfig(ctx, movedPrimary, rdsapi.SQLAudit{Enabled: true, Retention: 30, HotRetention: 7}))
	// The alicloud states carry these tags (moved_alicloud_states_test.go): the cloud has them too.
	must(api.TagResources(ctx, &rdsapi.TagResourcesRequest{ResourceIDs: []string{movedPrimary, movedReadonly},
		Tags: []rdsapi.Tag{{Key: "Environment", Value: "production"}, {Key: "Team", Value: "orders"}}}))
	return &movedCloud{w: w, api: api}
}

// instanceFacts are the template values of an alicloud instance state: what the alicloud provider
// reads from the cloud for it.
func (c *movedCloud) instanceFacts(t *testing.T, id string) map[string]any {
	t.Helper()
	ctx := context.Background()
	attr, err := c.api.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	params, err := c.api.DescribeParameters(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ioCap := params.RunningParameters.Values()[movedIOCap]
	if ioCap == "" {
		t.Fatalf("the simulator reports no %s for %s", movedIOCap, id)
	}
	optimized := "none"
	if attr.OptimizedWrites != nil && attr.OptimizedWrites.Enabled {
		optimized = "optimized"
	}
	facts := featureFacts(t, c.api, attr)
	maps.Copy(facts, map[string]any{
		"ID": id, "MasterID": attr.MasterInstanceID, "Class": attr.DBInstanceClass, "Storage": int64(attr.DBInstanceStorage),
		"StorageType": attr.DBInstanceStorageType, "Category": attr.Category, "Zone": attr.ZoneID, "VPC": attr.VpcID,
		"VSwitch": attr.VSwitchID, "Name": attr.DBInstanceDescription, "ConnectionString": attr.ConnectionString,
		"ConnectionPrefix": strings.SplitN(attr.ConnectionString, ".", 2)[0], "Port": string(attr.Port),
		"SecurityIPs": jsonOf(t, strings.Split(attr.SecurityIPList, ",")), "MaintainTime": attr.MaintainTime,
		"DeletionProtection": bool(attr.DeletionProtection), "CreationTime": attr.CreationTime, "OptimizedWrites": optimized,
		"Parameters": jsonOf(t, []map[string]string{{"name": movedIOCap, "value": ioCap}}),
		"IOCapacity": ioCap, "SecurityGroups": "[]", "IPArrayName": "default",
	})
	return facts
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// renderAlicloudState renders the alicloud state template name (moved_alicloud_states_test.go).
func renderAlicloudState(t *testing.T, name string, facts map[string]any) []byte {
	t.Helper()
	text, ok := alicloudStateTemplates[name]
	if !ok {
		t.Fatalf("no alicloud state template %s", name)
	}
	var out bytes.Buffer
	if err := template.Must(template.New(name).Option("missingkey=error").Parse(text)).Execute(&out, facts); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(out.Bytes()) {
		t.Fatalf("%s renders invalid JSON:\n%s", name, out.String())
	}
	return out.Bytes()
}

// move sends MoveResourceState from an alicloud resource to target, as `terraform plan` does for a
// moved block, with a fresh provider.
func (c *movedCloud) move(t *testing.T, provider, source, target string, raw []byte) *tfprotov6.MoveResourceStateResponse {
	t.Helper()
	server, err := c.w.server()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.MoveResourceState(context.Background(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: provider, SourceTypeName: source, SourceSchemaVersion: 0,
		SourceState: &tfprotov6.RawState{JSON: raw}, TargetTypeName: target,
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// planAfterMove refreshes the moved resource and plans config for it, as the plan holding the
// moved block does; it fails unless the plan is empty.
func (c *movedCloud) planAfterMove(t *testing.T, addr string, resp *tfprotov6.MoveResourceStateResponse, config map[string]any) tftypes.Value {
	t.Helper()
	if diagsHaveError(resp.Diagnostics) {
		t.Fatalf("MoveResourceState: %s", diagText(resp.Diagnostics))
	}
	r := oracleResource{addr: addr, attrs: config}
	moved, err := resp.TargetState.Unmarshal(c.w.h.objType(r.typeName()))
	if err != nil {
		t.Fatal(err)
	}
	c.w.state[addr], c.w.priv[addr] = moved, resp.TargetPrivate
	server, err := c.w.server()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.w.refresh(server, []oracleResource{r}); err != nil {
		t.Fatal(err)
	}
	p := c.w.planOne(server, r, c.w.config(r, nil))
	if diagsHaveError(p.diags) || p.action != actNoop {
		t.Fatalf("plan after moving into %s: %s, want no change; diagnostics: %s\nstate: %s\nplanned: %s",
			addr, p.action, diagText(p.diags), c.w.state[addr], p.planned)
	}
	return moved
}

func TestMoveFromAlicloudInstance(t *testing.T) {
	c := newMovedCloud(t)
	facts := c.instanceFacts(t, movedPrimary)
	resp := c.move(t, alicloudProvider, "alicloud_db_instance", "rds_instance", renderAlicloudState(t, "db_instance", facts))
	config := map[string]any{
		"engine": "MySQL", "engine_version": "8.0", "instance_type": facts["Class"], "storage": int(facts["Storage"].(int64)),
		"storage_type": facts["StorageType"], "category": facts["Category"], "zone_id": facts["Zone"], "vpc_id": facts["VPC"],
		"vswitch_id": facts["VSwitch"], "security_ips": []string{"127.0.0.1"}, "maintenance_window": facts["MaintainTime"],
		"released_keep_policy": "Lastest", "parameters": map[string]string{movedIOCap: facts["IOCapacity"].(string)},
		"tags": movedTags, "sql_audit": map[string]any{"enabled": true, "retention_days": 30, "hot_retention_days": 7},
	}
	moved := c.planAfterMove(t, "rds_instance.main", resp, config)
	for name, want := range map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, movedPrimary), "instance_type": tftypes.NewValue(tftypes.String, facts["Class"]),
		"maintenance_window": tftypes.NewValue(tftypes.String, facts["MaintainTime"]),
		"atomic_write_16k":   tftypes.NewValue(tftypes.Bool, facts["OptimizedWrites"] == "optimized"),
	} {
		if got := attrOf(moved, name); !got.Equal(want) {
			t.Errorf("moved state %s = %s, want %s", name, got, want)
		}
	}
	assertNoSecret(t, resp, "migrate-ssl-secret", "migrate-tde-secret")
	if resp.TargetIdentity == nil {
		t.Fatal("the move returned no identity")
	}
	identity, err := resp.TargetIdentity.IdentityData.Unmarshal(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"instance_id": tftypes.String}})
	if err != nil || !attrOf(identity, "instance_id").Equal(tftypes.NewValue(tftypes.String, movedPrimary)) {
		t.Errorf("moved identity = %v (%v), want instance_id %s", identity, err, movedPrimary)
	}
}

func TestMoveFromAlicloudReadonlyInstance(t *testing.T) {
	c := newMovedCloud(t)
	facts := c.instanceFacts(t, movedReadonly)
	resp := c.move(t, alicloudProvider, "alicloud_db_readonly_instance", "rds_readonly_instance", renderAlicloudState(t, "db_readonly_instance", facts))
	config := map[string]any{
		"master_instance_id": movedPrimary, "engine_version": "8.0", "instance_type": facts["Class"],
		"storage": int(facts["Storage"].(int64)), "storage_type": facts["StorageType"], "zone_id": facts["Zone"],
		"vswitch_id": facts["VSwitch"], "parameters": map[string]string{movedIOCap: facts["IOCapacity"].(string)},
		"tags": movedTags,
	}
	moved := c.planAfterMove(t, "rds_readonly_instance.replica", resp, config)
	if got := attrOf(moved, "master_instance_id"); !got.Equal(tftypes.NewValue(tftypes.String, movedPrimary)) {
		t.Errorf("moved master_instance_id = %s, want %s", got, movedPrimary)
	}
}

// Both alicloud type names of the account resource move, and neither copies the password.
func TestMoveFromAlicloudAccount(t *testing.T) {
	for _, source := range []string{"alicloud_db_account", "alicloud_rds_account"} {
		t.Run(source, func(t *testing.T) {
			c := newMovedCloud(t)
			facts := map[string]any{"InstanceID": movedPrimary, "Name": movedAccount, "Description": "orders service",
				"Type": "Normal", "Password": movedSecret}
			resp := c.move(t, alicloudProvider, source, "rds_account", renderAlicloudState(t, "rds_account", facts))
			moved := c.planAfterMove(t, "rds_account.app", resp, map[string]any{
				"instance_id": movedPrimary, "name": movedAccount, "description": "orders service",
			})
			assertNoSecret(t, resp, movedSecret)
			for _, name := range []string{"password", "password_wo", "password_wo_version"} {
				if v := attrOf(moved, name); !v.IsNull() {
					t.Errorf("moved %s = %s, want null (the password is not managed until password_wo is set)", name, v)
				}
			}
			if got := attrOf(moved, "id"); !got.Equal(tftypes.NewValue(tftypes.String, movedPrimary+":"+movedAccount)) {
				t.Errorf("moved id = %s", got)
			}
		})
	}
}

func TestMoveFromAlicloudDatabase(t *testing.T) {
	c := newMovedCloud(t)
	facts := map[string]any{"InstanceID": movedPrimary, "Name": movedDatabase, "CharacterSet": "utf8mb4", "Description": "orders"}
	resp := c.move(t, alicloudProvider, "alicloud_db_database", "rds_database", renderAlicloudState(t, "db_database", facts))
	c.planAfterMove(t, "rds_database.orders", resp, map[string]any{
		"instance_id": movedPrimary, "name": movedDatabase, "character_set": "utf8mb4", "description": "orders",
	})
}

func TestMoveFromAlicloudAccountPrivilege(t *testing.T) {
	c := newMovedCloud(t)
	facts := map[string]any{"InstanceID": movedPrimary, "Account": movedAccount, "Privilege": movedPrivilege,
		"DBNames": jsonOf(t, []string{movedDatabase})}
	resp := c.move(t, alicloudProvider, "alicloud_db_account_privilege", "rds_account_privilege", renderAlicloudState(t, "db_account_privilege", facts))
	c.planAfterMove(t, "rds_account_privilege.app", resp, map[string]any{
		"instance_id": movedPrimary, "account_name": movedAccount, "privilege": movedPrivilege, "db_names": []string{movedDatabase},
	})
}

// assertNoSecret fails when a secret of the source reached the moved state or private state.
func assertNoSecret(t *testing.T, resp *tfprotov6.MoveResourceStateResponse, secrets ...string) {
	t.Helper()
	raw := string(resp.TargetPrivate)
	if resp.TargetState != nil {
		raw += string(resp.TargetState.JSON) + string(resp.TargetState.MsgPack)
	}
	for _, s := range secrets {
		if strings.Contains(raw, s) {
			t.Errorf("the moved state holds the source's secret %q", s)
		}
	}
}

// Sources the provider cannot manage are refused with the reason and the way out, and the move
// writes nothing.
func TestMoveFromAlicloudRefusals(t *testing.T) {
	c := newMovedCloud(t)
	facts := c.instanceFacts(t, movedPrimary)
	instance := renderAlicloudState(t, "db_instance", facts)
	sqlServer := bytes.Replace(instance, []byte(`"engine": "MySQL"`), []byte(`"engine": "SQLServer"`), 1)
	dbOwner := renderAlicloudState(t, "db_account_privilege", map[string]any{"InstanceID": movedPrimary, "Account": movedAccount,
		"Privilege": "DBOwner", "DBNames": `["orders"]`})
	for _, tc := range []struct {
		name, provider, source, target string
		raw                            []byte
		want                           []string
	}{
		{"another provider", "registry.terraform.io/hashicorp/aws", "aws_db_instance", "rds_instance", instance,
			[]string{"only from the alicloud provider", "hashicorp/aws", "import"}},
		{"another engine", alicloudProvider, "alicloud_db_instance", "rds_instance", sqlServer,
			[]string{`engine "SQLServer"`, "MySQL and PostgreSQL", "Keep alicloud_db_instance in the alicloud provider"}},
		{"this provider's read-only instance", "registry.terraform.io/openrds/rds", "rds_readonly_instance", "rds_instance", instance,
			[]string{"Cannot move rds_readonly_instance into rds_instance", "by a moved block or by an import", "keep the resource as rds_readonly_instance"}},
		{"another alicloud type", alicloudProvider, "alicloud_db_readonly_instance", "rds_instance", instance,
			[]string{"only from alicloud_db_instance", "not from alicloud_db_readonly_instance"}},
		{"a SQL Server privilege", alicloudProvider, "alicloud_db_account_privilege", "rds_account_privilege", dbOwner,
			[]string{`privilege "DBOwner"`, "ReadWrite"}},
		{"no id", alicloudProvider, "alicloud_db_instance", "rds_instance", []byte(`{"engine":"MySQL"}`),
			[]string{"has no id", "refresh-only"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := c.w.sim.Stats().Requests
			resp := c.move(t, tc.provider, tc.source, tc.target, tc.raw)
			var text string
			for _, d := range resp.Diagnostics {
				text += d.Summary + ": " + d.Detail + "\n"
			}
			if !diagsHaveError(resp.Diagnostics) {
				t.Fatalf("moving %s into %s: no error", tc.source, tc.target)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("error %q does not say %q", text, w)
				}
			}
			if after := c.w.sim.Stats().Requests; sumWrites(after)-sumWrites(before) != 0 {
				t.Errorf("a refused move sent writes: %v", after)
			}
		})
	}
}

// sumWrites counts the requests that are not reads.
func sumWrites(requests map[string]int) int {
	n := 0
	for action, count := range requests {
		if !strings.HasPrefix(action, "Describe") {
			n += count
		}
	}
	return n
}

// alicloud_rds_db_proxy (its older schema, instance_id and a set of weights) moves into rds_db_proxy
// and the configuration a user writes for it plans no change.
func TestMoveFromAlicloudDBProxy(t *testing.T) {
	c := newMovedCloud(t)
	ctx := context.Background()
	if err := c.api.ModifyDBProxy(ctx, &rdsapi.ModifyDBProxyRequest{DBInstanceID: movedPrimary, Service: rdsapi.ProxyStartup, InstanceNum: 2}); err != nil {
		t.Fatal(err)
	}
	c.w.sim.AdvanceClock(time.Hour) // past the proxy's start
	px, err := c.api.DescribeDBProxy(ctx, movedPrimary)
	if err != nil || len(px.Endpoints) != 1 {
		t.Fatalf("DescribeDBProxy: %+v, %v", px, err)
	}
	delay := int64(10)
	if err := c.api.ModifyDBProxyEndpoint(ctx, &rdsapi.ModifyDBProxyEndpointRequest{DBInstanceID: movedPrimary, EndpointID: px.Endpoints[0].EndpointID,
		DistributionType: rdsapi.ProxyDistributionCustom, Weights: map[string]int64{movedReadonly: 300}, MaxDelaySeconds: &delay, EffectiveTime: "Immediate"}); err != nil {
		t.Fatal(err)
	}
	facts := map[string]any{"InstanceID": movedPrimary, "Num": 2, "VPC": "vpc-1", "VSwitch": px.Endpoints[0].VSwitchID, "EndpointID": px.Endpoints[0].EndpointID,
		"ReadOnly": movedReadonly, "Delay": 10, "ConnectString": px.Endpoints[0].ConnectString}
	resp := c.move(t, alicloudProvider, "alicloud_rds_db_proxy", "rds_db_proxy", renderAlicloudState(t, "rds_db_proxy", facts))
	c.planAfterMove(t, "rds_db_proxy.rw", resp, map[string]any{
		"instance_id": movedPrimary, "read_only_weights": map[string]int{movedReadonly: 300}, "max_delay_seconds": 10,
	})
}
