package simulator

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aliyun/credentials-go/credentials"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TestCassettesConformance replays the request of every cassette under testdata/cassettes (the
// answers derived from Alibaba's API reference examples in reference/, and whatever a maintainer
// recorded from the real cloud with RDS_RECORD_CASSETTES) against a simulator holding one of each
// object, and compares the answers' shapes: a field the cassette has and the simulator's answer
// lacks, or one of another JSON type, fails unless the cassette lists it in known_differences
// with the reason; fields only the simulator has and differing values are reported in the log.
// Every action internal/rdsapi sends has a reference cassette.
func TestCassettesConformance(t *testing.T) {
	files, _ := filepath.Glob("testdata/cassettes/*/*.json")
	for _, action := range clientActions(t) {
		if _, err := os.Stat(filepath.Join("testdata/cassettes/reference", action+".json")); err != nil {
			t.Errorf("%s: sent by internal/rdsapi, without a reference cassette (%v)", action, err)
		}
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) { checkCassette(t, loadCassette(t, file)) })
	}
}

// checkCassette replays the cassette's request on a new fixture and reports the differences of
// the answers: a failing one unless the cassette names it, the others in the log.
func checkCassette(t *testing.T, cs rdsapi.Cassette) {
	t.Helper()
	fx := newFixture(t)
	got := fx.e.c.call(cs.Action, fx.bind(cs))
	if got.status != cs.Status {
		t.Fatalf("%s: HTTP %d, the cassette %d: %s", cs.Action, got.status, cs.Status, got.raw)
	}
	var want any
	if err := json.Unmarshal(cs.Answer, &want); err != nil {
		t.Fatal(err)
	}
	var sim any
	_ = json.Unmarshal([]byte(got.raw), &sim)
	diffs := answerDiffs("", want, sim)
	for _, d := range diffs {
		reason, known := cs.KnownDifferences[d.path]
		switch {
		case known:
			t.Logf("known difference %s (%s): %s", d.path, d.what, reason)
		case d.fails:
			t.Errorf("%s %s: %s", cs.Action, d.path, d.what)
		default:
			t.Logf("%s: %s", d.path, d.what)
		}
	}
	for path := range cs.KnownDifferences {
		if !slices.ContainsFunc(diffs, func(d answerDiff) bool { return d.path == path && d.fails }) {
			t.Errorf("known_differences lists %s, which no longer differs: remove it", path)
		}
	}
}

func loadCassette(t *testing.T, file string) rdsapi.Cassette {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cs rdsapi.Cassette
	if err := json.Unmarshal(raw, &cs); err != nil || cs.Action == "" || cs.Source == "" || cs.Status == 0 {
		t.Fatalf("%s: not a cassette (action, source and status are required): %v", file, err)
	}
	return cs
}

// answerDiff is one difference between a cassette's answer and the simulator's; fails: a field
// missing from the simulator's answer or of another JSON type.
type answerDiff struct {
	path, what string
	fails      bool
}

// answerDiffs compares the shapes of two JSON values: objects key by key, arrays by their first
// elements (a cassette's example list is one of a kind), scalars by kind and then value.
func answerDiffs(path string, want, got any) []answerDiff {
	if kind(want) != kind(got) {
		return []answerDiff{{path, fmt.Sprintf("the cassette has %s, the simulator %s", kind(want), kind(got)), true}}
	}
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		var out []answerDiff
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := g[k]; !ok {
				out = append(out, answerDiff{join(path, k), "missing from the simulator's answer", true})
				continue
			}
			out = append(out, answerDiffs(join(path, k), w[k], g[k])...)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, answerDiff{join(path, k), "only in the simulator's answer", false})
			}
		}
		return out
	case []any:
		g := got.([]any)
		switch {
		case len(w) == 0:
			return nil
		case len(g) == 0:
			return []answerDiff{{path + "[]", "the simulator's list is empty", true}}
		}
		return answerDiffs(path+"[]", w[0], g[0])
	}
	if show(want) != show(got) && path != "RequestId" {
		return []answerDiff{{path, fmt.Sprintf("value %s, the simulator %s", show(want), show(got)), false}}
	}
	return nil
}

// show prints a JSON scalar as JSON does (numbers without an exponent).
func show(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// fixture is a simulator with one object of each kind the cassettes' requests name: a primary with
// an account, a database, a grant, a backup set old enough to delete, a scheduled task, TDE and a tag;
// a subscription instance ("fixture": "prepaid"), a MySQL 5.7 one ("mysql57") and a released
// instance whose backup set is kept.
type fixture struct {
	e                         *env
	primary, prepaid, mysql57 string
	backupID, backupJobID     string
	connection, slave         string
	// group is a parameter group of the primary's version, applied to it.
	group string
	// proxyEndpoint is the default endpoint of the primary's database proxy.
	proxyEndpoint string
	// public is the primary's public endpoint.
	public string
	// template is a whitelist template linked to the primary.
	template string
	// crossBackup is a copy of the primary's backup set in cn-shanghai.
	crossBackup string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := newEnv(t)
	fx := &fixture{e: e, primary: e.create(map[string]string{"OptimizedWrites": "none", "TargetMinorVersion": "rds_20230630"})}
	fx.prepaid = e.create(map[string]string{"PayType": "Prepaid", "Period": "Month", "UsedTime": "1", "VSwitchId": "vsw-2"})
	fx.mysql57 = e.create(map[string]string{"EngineVersion": "5.7", "VSwitchId": "vsw-3"})
	id := fx.primary
	e.c.ok("CreateAccount", map[string]string{"DBInstanceId": id, "AccountName": "fixture_app", "AccountPassword": "Fixture-pass-1234"})
	e.c.ok("CreateDatabase", map[string]string{"DBInstanceId": id, "DBName": "fixture_db", "CharacterSetName": "utf8mb4"})
	e.c.ok("GrantAccountPrivilege", map[string]string{"DBInstanceId": id, "AccountName": "fixture_app", "DBName": "fixture_db", "AccountPrivilege": "ReadWrite"})
	e.c.ok("TagResources", map[string]string{"ResourceType": "INSTANCE", "ResourceId.1": id, "Tag.1.Key": "team", "Tag.1.Value": "db"})
	e.c.ok("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": id, "TDEStatus": "Enabled"})
	e.settle()
	e.c.ok("ModifyInstanceAutoRenewalAttribute", map[string]string{"DBInstanceId": fx.prepaid, "AutoRenew": "True", "Duration": "1"})
	e.c.ok("ModifyBackupPolicy", map[string]string{"DBInstanceId": id, "PreferredBackupTime": "02:00Z-03:00Z",
		"PreferredBackupPeriod": "Monday,Thursday", "BackupRetentionPeriod": "14"})
	e.c.ok("ModifyDBInstanceAutoUpgradeMinorVersion", map[string]string{"DBInstanceId": id, "AutoUpgradeMinorVersion": "Manual"})
	e.c.ok("ModifyDasInstanceConfig", map[string]string{"DBInstanceId": id, "StorageAutoScale": "Enable", "StorageThreshold": "30", "StorageUpperBound": "500"})
	e.c.ok("ModifySqlLogConfig", map[string]string{"InstanceId": id, "Enable": "true", "Retention": "30", "HotRetention": "7"})
	e.c.ok("ModifyInstanceCrossBackupPolicy", map[string]string{"DBInstanceId": id, "BackupEnabled": "1", "CrossBackupRegion": "cn-shanghai", "Retention": "30"})
	e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})
	released := e.create(map[string]string{"VSwitchId": "vsw-4"})
	e.c.ok("CreateBackup", map[string]string{"DBInstanceId": released})
	e.settle()
	// A released instance that keeps its set (DescribeDetachedBackups).
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": released, "ReleasedKeepPolicy": "Lastest"})
	e.clock.Add(deleteD)
	sets := e.c.ok("DescribeBackups", map[string]string{"DBInstanceId": id, "BackupMode": "Manual"})["Items"].(map[string]any)["Backup"].([]any)
	fx.backupID = sets[0].(map[string]any)["BackupId"].(string)
	fx.crossBackup = itoa(e.sim.state.CrossBackups[0].ID)
	// The set outlives the 7-day log retention, so DeleteBackup may delete it; a second job is recent.
	e.sim.AdvanceClock(8 * 24 * time.Hour)
	fx.backupJobID = e.c.ok("CreateBackup", map[string]string{"DBInstanceId": id})["BackupJobId"].(string)
	e.settle()
	if a := e.deferSpec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c"}); a.status != 200 {
		t.Fatal(a.raw)
	}
	fx.group = e.c.ok("CreateParameterGroup", map[string]string{"RegionId": DefaultRegion, "ParameterGroupName": "fixture_group",
		"Engine": "mysql", "EngineVersion": "8.0", "Parameters": `{"back_log":"3000","wait_timeout":"86400"}`})["ParameterGroupId"].(string)
	e.c.ok("ModifyParameter", map[string]string{"DBInstanceId": id, "ParameterGroupId": fx.group})
	fx.public = e.c.ok("AllocateInstancePublicConnection", map[string]string{"DBInstanceId": id, "ConnectionStringPrefix": id + "o",
		"Port": "3306"})["ConnectionString"].(string)
	e.c.ok("ModifyWhitelistTemplate", map[string]string{"TemplateName": "fixture_template", "IpWhitelist": "10.1.0.0/16"})
	fx.template = "1" // the simulator numbers templates from 1
	e.c.ok("AttachWhitelistTemplateToInstance", map[string]string{"TemplateId": fx.template, "InsName": id})
	fx.connection = e.attr(id)["ConnectionString"].(string)
	fx.slave = nodesOf(e.sim.state.Instances[id]).Slave
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup"})
	fx.proxyEndpoint = e.sim.state.Instances[id].Proxy.Endpoints[0].ID
	e.settle()
	e.c.ok("ModifyDbProxyInstanceSsl", map[string]string{"DbInstanceId": id, "DbProxyEndpointId": fx.proxyEndpoint, "DbProxySslEnabled": "1"})
	return fx
}

// bind points a cassette's request at the fixture's objects: instance, backup, account, database,
// endpoint and node ids, and times around the fixture's clock.
func (fx *fixture) bind(cs rdsapi.Cassette) map[string]string {
	p := map[string]string{}
	instance := map[string]string{"": fx.primary, "prepaid": fx.prepaid, "mysql57": fx.mysql57}[cs.Fixture]
	now := fx.e.sim.cloudNow()
	for k, v := range cs.Request {
		switch {
		case k == "DBInstanceId" || k == "InstanceId" || k == "DbInstanceId" || k == "InsName" || strings.HasPrefix(k, "ResourceId."):
			v = instance
		case k == "RegionId" && cs.Action == "CreateDdrInstance":
			v = "cn-shanghai" // the destination, where the fixture's copy is held
		case k == "RegionId" || k == "SourceRegion":
			v = DefaultRegion
		case k == "SourceDBInstanceName":
			v = instance
		case k == "BackupSetId":
			v = fx.crossBackup
		case k == "BackupId":
			v = fx.backupID
		case k == "BackupJobId":
			v = fx.backupJobID
		case k == "AccountName" && cs.Action != "CreateAccount":
			v = "fixture_app"
		case k == "DBName" && cs.Action != "CreateDatabase":
			v = "fixture_db"
		case v == "<scrubbed>": // a recorded secret
			v = "Fixture-pass-5678"
		case k == "ConnectionString":
			v = fx.connection
		case k == "CurrentConnectionString" && cs.Action == "ReleaseInstancePublicConnection":
			v = fx.public
		case k == "CurrentConnectionString":
			v = fx.connection
		case k == "NodeId":
			v = fx.slave
		case k == "ParameterGroupId":
			v = fx.group
		case k == "DBProxyEndpointId" || k == "DbProxyEndpointId":
			v = fx.proxyEndpoint
		case k == "TemplateId":
			v = fx.template
		case k == "FromStartTime":
			v = now.Add(-24 * time.Hour).Format(timestampLayout)
		case k == "ToStartTime":
			v = now.Add(24 * time.Hour).Format(timestampLayout)
		case k == "SwitchTime":
			v = now.Add(time.Hour).Format(timestampLayout)
		case k == "VPCId":
			v = "vpc-1"
		case cs.Action == "DescribeCrossRegionBackups" && k == "StartTime":
			v = now.Add(-30 * 24 * time.Hour).Format(crossTimeLayout)
		case cs.Action == "DescribeCrossRegionBackups" && k == "EndTime":
			v = now.Format(crossTimeLayout)
		}
		p[k] = v
	}
	return p
}

// TestRecordedCassettesReplay: what the client's recording mode writes is what the conformance
// test reads. A run of the real client against a simulator is recorded, then each cassette is
// replayed on a fixture like a recorded real-cloud run would be, and differs in no failing field.
func TestRecordedCassettesReplay(t *testing.T) {
	sim, err := New(Options{}) // zero durations: instant transitions
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	cred, err := credentials.NewCredential(new(credentials.Config).SetType("access_key").SetAccessKeyId(DefaultAccessKeyID).SetAccessKeySecret(DefaultAccessKeySecret))
	if err != nil {
		t.Fatal(err)
	}
	c, err := rdsapi.New(rdsapi.Config{RegionID: DefaultRegion, Endpoint: srv.URL, Credentials: cred, RecordDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0",
		DBInstanceClass: "mysql.x4.medium.2c", DBInstanceStorage: 100, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-1", VSwitchID: "vsw-1", SecurityIPList: "10.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	if _, err := c.DescribeDBInstanceAttribute(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "recorded", AccountPassword: "Recorded-pass-1234"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeBackupPolicy(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeHistoryTasks(ctx, &rdsapi.DescribeHistoryTasksRequest{InstanceID: id}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 5 {
		t.Fatalf("%d cassettes recorded, want 5: %v", len(files), files)
	}
	for _, file := range files {
		cs := loadCassette(t, file)
		if cs.Request["AccountPassword"] == "Recorded-pass-1234" {
			t.Fatalf("%s keeps the password", file)
		}
		t.Run(cs.Action, func(t *testing.T) { checkCassette(t, cs) })
	}
}
