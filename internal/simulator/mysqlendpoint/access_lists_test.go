package mysqlendpoint_test

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Issue 42 §3: the endpoint admits a client from any IP array or linked whitelist template of the
// instance and refuses one outside them all (1130), with a real MySQL client from the loopback.
func TestLoginFollowsIPListsAndTemplates(t *testing.T) {
	f := newSimFixture(t)
	ctx := context.Background()
	created, err := f.api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{
		ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c",
		DBInstanceStorage: 20, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-test", VSwitchID: "vsw-test", SecurityIPList: "10.0.0.1",
	})
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	f.clock.advance(createDuration)
	mustDo(t, "CreateAccount", f.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: id, AccountName: "app_user", AccountPassword: "Passw0rd-2026"}))
	f.clock.advance(accountDuration)
	login := func(what string, allowed bool) {
		t.Helper()
		conn, err := f.dial(t, id, "app_user", "Passw0rd-2026", "")
		if !allowed {
			wantMySQLError(t, what, err, erHostNotAllowed)
			return
		}
		mustDo(t, what, err)
		_ = conn.Close()
	}
	login("loopback outside every list", false)
	mustDo(t, "ModifyWhitelistTemplate", f.api.ModifyWhitelistTemplate(ctx, &rdsapi.ModifyWhitelistTemplateRequest{TemplateName: "office", IPWhitelist: "127.0.0.0/8"}))
	templates, err := rdsapi.ListWhitelistTemplates(ctx, f.api, "office", false)
	if err != nil || len(templates) != 1 {
		t.Fatalf("templates %v, %v", templates, err)
	}
	tid := int64(templates[0].TemplateID)
	login("a template not linked", false)
	mustDo(t, "Attach", f.api.AttachWhitelistTemplateToInstance(ctx, tid, id))
	login("loopback in a linked template", true)
	mustDo(t, "Detach", f.api.DetachWhitelistTemplateToInstance(ctx, tid, id))
	login("the template detached", false)
	mustDo(t, "ModifySecurityIps", f.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1", DBInstanceIPArrayName: "office"}))
	login("loopback in a named list", true)
	mustDo(t, "remove the list", f.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1", DBInstanceIPArrayName: "office", ModifyMode: "Delete"}))
	login("the named list removed", false)
}
