package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Account passwords (issue 16): password_wo never reaches state, plan JSON, the files Terraform
// writes, or the TRACE log, though the cloud receives it on create and on reset.

// noSecretInPlan fails when the plan's JSON contains a secret.
type noSecretInPlan struct{ secrets []string }

func (c noSecretInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	data, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	for _, s := range c.secrets {
		if strings.Contains(string(data), s) {
			i := strings.Index(string(data), s)
			resp.Error = fmt.Errorf("the plan JSON (%d bytes) contains a password: ...%s", len(data), string(data)[max(0, i-300):i])
		}
	}
}

// noSecretInState fails when the state's JSON contains a secret.
type noSecretInState struct{ secrets []string }

func (c noSecretInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	data, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if !strings.Contains(string(data), "rds_account") {
		resp.Error = fmt.Errorf("the state JSON holds no rds_account: the check would prove nothing")
		return
	}
	for _, s := range c.secrets {
		if strings.Contains(string(data), s) {
			resp.Error = fmt.Errorf("the state JSON contains a password")
		}
	}
}

func TestAccSecrets_accountPasswordNowhere(t *testing.T) {
	requireWriteOnly(t)
	pw1, pw2 := "Aa1-"+uuid.NewString()[:20], "Bb2-"+uuid.NewString()[:20]
	env := newTestEnv(t, accessSimOptions())
	id := env.plantInstance(t, "8.0", "")
	logPath, work := traceLogging(t)
	// As users should: the password comes from an ephemeral variable (here TF_VAR_), so not even the
	// configuration holds it.
	config := func(version int) string {
		return accountConfig(env, id, fmt.Sprintf("  password_wo = var.account_password\n  password_wo_version = %d", version)) + fmt.Sprintf(`
variable "account_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

data "rds_accounts" "all" {
  instance_id = %q
  depends_on  = [rds_account.app]
}
`, id)
	}
	usePassword := func(pw string) func() {
		return func() { t.Setenv("TF_VAR_account_password", pw) } // restored when the test ends
	}
	secrets := []string{pw1, pw2}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkNoAccess(id),
		Steps: []resource.TestStep{
			{
				PreConfig:         usePassword(pw1),
				Config:            config(1),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noSecretInPlan{secrets}}, PostApplyPostRefresh: []plancheck.PlanCheck{noSecretInPlan{secrets}}},
				ConfigStateChecks: []statecheck.StateCheck{noSecretInState{secrets}},
				Check:             env.checkPassword(id, "app_user", pw1),
			},
			{
				PreConfig:         usePassword(pw2),
				Config:            config(2),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noSecretInPlan{secrets}}},
				ConfigStateChecks: []statecheck.StateCheck{noSecretInState{secrets}},
				Check:             env.checkPassword(id, "app_user", pw2),
			},
		},
	})

	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("reading the TRACE log: %v", err)
	}
	// The log must hold the provider's request URLs, or a password in a URL would go unseen.
	for _, marker := range []string{"[TRACE]", "tf_rpc=ApplyResourceChange", "AccountName=app_user"} {
		if !strings.Contains(string(log), marker) {
			t.Errorf("the TRACE log (%d bytes) lacks %q: the test would not see a leak", len(log), marker)
		}
	}
	for _, line := range strings.Split(string(log), "\n") {
		for _, s := range secrets {
			if strings.Contains(line, s) {
				t.Errorf("the TRACE log contains a password in: %.300s", strings.ReplaceAll(line, s, "<PASSWORD>"))
			}
		}
	}
	// Every file under the working directories: configuration, state, plans.
	files, hits := grepTree(t, work, func(string) bool { return true }, secrets...)
	if files < 2 {
		t.Errorf("only %d files under %s; the working directory was not kept", files, work)
	}
	for _, h := range hits {
		t.Error(h)
	}
	if n := env.requests("ResetAccountPassword"); n != 1 {
		t.Errorf("%d ResetAccountPassword requests; the version bump must send exactly one", n)
	}
}
