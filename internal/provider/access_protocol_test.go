package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Access writes at the plugin protocol (issue 23): the plan is made, the cloud changes behind
// Terraform's back, and the apply's program is planned again before each write, so it sends only
// what still differs and refuses what the change ruled out. Played by the oracle's harness (the
// provider in-process, no terraform binary).

// accessProtocolWorld applies a primary with an account, two databases and a grant on orders, and
// returns the world, the configuration and the primary's id.
func accessProtocolWorld(t *testing.T) (*oracleWorld, []oracleResource, string) {
	t.Helper()
	w := newOracleHarness(t).newWorld()
	base := comboBases["8.0 cloud_essd x86"]
	_, order := comboAccess("created", nil, []oracleResource{{"rds_instance.primary", primaryAttrs(base)}})
	if _, err := w.applyStep(order); err != nil {
		t.Fatal(err)
	}
	return w, order, idOfState(t, w, "rds_instance.primary")
}

func idOfState(t *testing.T, w *oracleWorld, addr string) string {
	t.Helper()
	var id string
	if err := attrOf(w.state[addr], "id").As(&id); err != nil || id == "" {
		t.Fatalf("%s has no id in state: %v", addr, err)
	}
	return id
}

// withAttr is order with one attribute of one resource changed.
func withAttr(order []oracleResource, addr, name string, value any) []oracleResource {
	out := make([]oracleResource, len(order))
	for i, r := range order {
		out[i] = r
		if r.addr == addr {
			out[i].attrs = cloneAttrs(r.attrs)
			out[i].attrs[name] = value
		}
	}
	return out
}

// A database granted outside between the plan and the apply is not granted again: the apply sends
// no GrantAccountPrivilege, and the state and the next plan agree with the configuration.
func TestAccessProtocolGrantMadeOutsideSinceThePlanIsNotSentAgain(t *testing.T) {
	w, order, id := accessProtocolWorld(t)
	after := withAttr(order, "rds_account_privilege.grant", "db_names", []string{"audit", "orders"})
	plan, err := w.planWalk(after)
	if err != nil || plan.errAt != "" {
		t.Fatalf("plan: %v %s", err, plan.errMsg)
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.GrantAccountPrivilege(context.Background(), &rdsapi.GrantAccountPrivilegeRequest{DBInstanceID: id, AccountName: "app_user",
		DBNames: []string{"audit"}, AccountPrivilege: rdsapi.PrivilegeReadWrite}); err != nil {
		t.Fatal(err)
	}
	w.sim.ResetStats()
	res, err := w.applyWalk(after, plan)
	if err != nil || res.errAt != "" || len(res.inconsistent) > 0 {
		t.Fatalf("apply: %v %s %s %v", err, res.errAt, res.errMsg, res.inconsistent)
	}
	if n := w.sim.Stats().Requests["GrantAccountPrivilege"]; n != 0 {
		t.Fatalf("%d GrantAccountPrivilege for a grant made outside since the plan, want none", n)
	}
	again, err := w.planWalk(after)
	if err != nil || again.errAt != "" || again.res["rds_account_privilege.grant"].action != actNoop {
		t.Fatalf("the next plan is not empty: %v %s", err, again.errMsg)
	}
}

// The account deleted outside between the plan and the apply: the password change is refused as
// changed since the plan, and neither a ResetAccountPassword nor a CreateAccount is sent.
func TestAccessProtocolResetRefusedWhenTheAccountWentSinceThePlan(t *testing.T) {
	w, order, id := accessProtocolWorld(t)
	after := withAttr(order, "rds_account.app", "password", "Passw0rd!two")
	plan, err := w.planWalk(after)
	if err != nil || plan.errAt != "" {
		t.Fatalf("plan: %v %s", err, plan.errMsg)
	}
	api, err := w.h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := api.DeleteAccount(context.Background(), id, "app_user"); err != nil {
		t.Fatal(err)
	}
	w.sim.ResetStats()
	res, err := w.applyWalk(after, plan)
	if err != nil {
		t.Fatal(err)
	}
	if res.errAt != "rds_account.app" || !strings.Contains(res.errMsg, "changed outside") || !strings.Contains(res.errMsg, "app_user no longer exists") {
		t.Fatalf("apply: %s: %s; want the account's reset refused as changed since the plan", res.errAt, res.errMsg)
	}
	if st := w.sim.Stats(); st.Requests["ResetAccountPassword"]+st.Requests["CreateAccount"] != 0 {
		t.Fatalf("sent %d ResetAccountPassword and %d CreateAccount after the account went", st.Requests["ResetAccountPassword"], st.Requests["CreateAccount"])
	}
}
