package provider

// `moved` from the alicloud provider end to end: a Terraform 1.8+ CLI, the real
// aliyun/terraform-provider-alicloud binary (built by `make alicloud-provider`, installed from a
// filesystem mirror) and this provider, served in-process, against the simulator. The working
// directory starts with a state file the alicloud provider would have written (the realistic raw
// states of moved_alicloud_states_test.go, checked here attribute by attribute against the real
// binary's schema) and a configuration with `moved` blocks. `make test-modern` builds the binary
// and runs this; elsewhere it skips.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"text/template"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

const (
	rdsProviderAddress = "registry.terraform.io/openrds/rds"
	movedLegacyAccount = "legacy_user"
	movedLegacySecret  = "Legacy-Secret-4q8z"
)

// alicloudStateMove is one alicloud resource of the state file and the rds resource it moves to.
type alicloudStateMove struct {
	source, name, template, target string
	facts                          map[string]any
}

// alicloudMoves are the six resources of the state: both alicloud type names of the account move.
func (c *movedCloud) alicloudMoves(t *testing.T) []alicloudStateMove {
	account := func(name, secret, description string) map[string]any {
		return map[string]any{"InstanceID": movedPrimary, "Name": name, "Description": description, "Type": "Normal", "Password": secret}
	}
	return []alicloudStateMove{
		{"alicloud_db_instance", "main", "db_instance", "rds_instance", c.instanceFacts(t, movedPrimary)},
		{"alicloud_db_readonly_instance", "replica", "db_readonly_instance", "rds_readonly_instance", c.instanceFacts(t, movedReadonly)},
		{"alicloud_rds_account", "app", "rds_account", "rds_account", account(movedAccount, movedSecret, "orders service")},
		{"alicloud_db_account", "legacy", "rds_account", "rds_account", account(movedLegacyAccount, movedLegacySecret, "legacy")},
		{"alicloud_db_database", "orders", "db_database", "rds_database",
			map[string]any{"InstanceID": movedPrimary, "Name": movedDatabase, "CharacterSet": "utf8mb4", "Description": "orders"}},
		{"alicloud_db_account_privilege", "app", "db_account_privilege", "rds_account_privilege",
			map[string]any{"InstanceID": movedPrimary, "Account": movedAccount, "Privilege": movedPrivilege, "DBNames": jsonOf(t, []string{movedDatabase})}},
	}
}

// alicloudStateFile is a Terraform state (format 4) holding moves' resources under the alicloud
// provider, as `terraform apply` with the alicloud provider writes it, without the attributes of
// leave (source type -> names).
func alicloudStateFile(t *testing.T, moves []alicloudStateMove, leave map[string][]string) []byte {
	t.Helper()
	type instance struct {
		SchemaVersion       int             `json:"schema_version"`
		Attributes          json.RawMessage `json:"attributes"`
		SensitiveAttributes []any           `json:"sensitive_attributes"`
	}
	type res struct {
		Mode      string     `json:"mode"`
		Type      string     `json:"type"`
		Name      string     `json:"name"`
		Provider  string     `json:"provider"`
		Instances []instance `json:"instances"`
	}
	resources := []res{}
	for _, m := range moves {
		var attributes map[string]json.RawMessage
		if err := json.Unmarshal(renderAlicloudState(t, m.template, m.facts), &attributes); err != nil {
			t.Fatal(err)
		}
		for _, name := range leave[m.source] {
			delete(attributes, name)
		}
		resources = append(resources, res{Mode: "managed", Type: m.source, Name: m.name,
			Provider:  fmt.Sprintf("provider[%q]", alicloudProvider),
			Instances: []instance{{Attributes: []byte(jsonOf(t, attributes)), SensitiveAttributes: []any{}}}})
	}
	return []byte(jsonOf(t, map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 7, "lineage": "5e0c3c9e-8a1d-4b8e-9d3c-alicloud0001",
		"outputs": map[string]any{}, "resources": resources, "check_results": nil,
	}))
}

// movedConfig is what a user writes after the move: the rds resources, with the values the cloud
// has, the database's description changed (the one real difference the plan must show), and one
// moved block per alicloud resource.
const movedConfig = `terraform {
  required_providers {
    rds = { source = "openrds/rds" }
{{- if .KeepAlicloud }}
    alicloud = { source = "aliyun/alicloud" }
{{- end }}
  }
}
provider "rds" {
  endpoint   = "{{.Endpoint}}"
  region     = "{{.Region}}"
  access_key = "{{.AccessKey}}"
  secret_key = "{{.SecretKey}}"
}
resource "rds_instance" "main" {
  engine               = "MySQL"
  engine_version       = "8.0"
  instance_type        = "{{.Main.Class}}"
  storage              = {{.Main.Storage}}
  storage_type         = "{{.Main.StorageType}}"
  category             = "{{.Main.Category}}"
  zone_id              = "{{.Main.Zone}}"
  vpc_id               = "{{.Main.VPC}}"
  vswitch_id           = "{{.Main.VSwitch}}"
  security_ips         = ["127.0.0.1"]
  maintenance_window   = "{{.Main.MaintainTime}}"
  released_keep_policy = "Lastest"
  parameters           = { {{.IOCap}} = "{{.Main.IOCapacity}}" }
  tags                 = { Environment = "production", Team = "orders" }
  sql_audit            = { enabled = true, retention_days = 30, hot_retention_days = 7 }
}
resource "rds_readonly_instance" "replica" {
  master_instance_id = rds_instance.main.id
  engine_version     = "8.0"
  instance_type      = "{{.Replica.Class}}"
  storage            = {{.Replica.Storage}}
  storage_type       = "{{.Replica.StorageType}}"
  zone_id            = "{{.Replica.Zone}}"
  vswitch_id         = "{{.Replica.VSwitch}}"
  parameters         = { {{.IOCap}} = "{{.Replica.IOCapacity}}" }
  tags               = { Environment = "production", Team = "orders" }
}
resource "rds_account" "app" {
  instance_id = rds_instance.main.id
  name        = "{{.Account}}"
  description = "orders service"
}
resource "rds_account" "legacy" {
  instance_id = rds_instance.main.id
  name        = "{{.Legacy}}"
  description = "legacy"
}
resource "rds_database" "orders" {
  instance_id   = rds_instance.main.id
  name          = "{{.Database}}"
  character_set = "utf8mb4"
  description   = "orders, moved from alicloud"
}
resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.main.id
  account_name = rds_account.app.name
  privilege    = "{{.Privilege}}"
  db_names     = [rds_database.orders.name]
}
{{- range .Moves }}
moved {
  from = {{.From}}
  to   = {{.To}}
}
{{- end }}
`

// tfWorkdir is a working directory run by the CLI under test, with this provider reattached.
type tfWorkdir struct {
	t        *testing.T
	dir, bin string
	env      []string
}

func (w *tfWorkdir) writeState(state []byte) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "terraform.tfstate"), state, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *tfWorkdir) run(args ...string) (string, error) {
	cmd := exec.Command(w.bin, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w *tfWorkdir) mustRun(args ...string) string {
	w.t.Helper()
	out, err := w.run(args...)
	if err != nil {
		w.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// serveForCLI serves this provider in-process for a Terraform CLI and returns the value of
// TF_REATTACH_PROVIDERS naming it, as terraform-plugin-testing does for its own runs.
func serveForCLI(t *testing.T) string {
	t.Helper()
	t.Setenv("TF_LOG_SDK", "OFF") // the in-process provider's trace logs would bury a failure's message
	ctx, cancel := context.WithCancel(context.Background())
	configs, closed := make(chan *plugin.ReattachConfig, 1), make(chan struct{})
	server := providerserver.NewProtocol6(New("test")())
	go func() {
		if err := tf6server.Serve(rdsProviderAddress, server, tf6server.WithDebug(ctx, configs, closed),
			tf6server.WithoutLogStderrOverride()); err != nil {
			t.Errorf("serving the provider: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); <-closed })
	config := <-configs
	return jsonOf(t, map[string]any{rdsProviderAddress: map[string]any{
		"Protocol": string(config.Protocol), "ProtocolVersion": config.ProtocolVersion, "Pid": config.Pid, "Test": true,
		"Addr": map[string]string{"Network": config.Addr.Network(), "String": config.Addr.String()},
	}})
}

// newMoveWorkdir writes the alicloud state, a CLI configuration installing the alicloud provider
// from mirror only, and runs terraform init.
func newMoveWorkdir(t *testing.T, bin, mirror string, state []byte) *tfWorkdir {
	t.Helper()
	dir := t.TempDir()
	cliConfig := fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = [%q]
  }
}
`, mirror, alicloudProvider)
	for name, body := range map[string][]byte{"terraform.tfstate": state, "cli.tfrc": []byte(cliConfig)} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + filepath.Join(dir, "cli.tfrc"), "TF_REATTACH_PROVIDERS=" + serveForCLI(t),
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	return &tfWorkdir{t: t, dir: dir, bin: bin, env: env}
}

// writeMovedConfig writes main.tf for moves; keepAlicloud keeps the alicloud provider in
// required_providers (a configuration that still uses it for other resources).
func (w *tfWorkdir) writeMovedConfig(c *movedCloud, moves []alicloudStateMove, keepAlicloud bool) {
	w.t.Helper()
	type move struct{ From, To string }
	blocks := []move{}
	for _, m := range moves {
		blocks = append(blocks, move{m.source + "." + m.name, m.target + "." + m.name})
	}
	var out bytes.Buffer
	err := template.Must(template.New("main.tf").Option("missingkey=error").Parse(movedConfig)).Execute(&out, map[string]any{
		"KeepAlicloud": keepAlicloud, "Endpoint": c.w.h.url, "Region": simulator.DefaultRegion,
		"AccessKey": simulator.DefaultAccessKeyID, "SecretKey": simulator.DefaultAccessKeySecret,
		"Main": moves[0].facts, "Replica": moves[1].facts, "IOCap": movedIOCap, "Account": movedAccount,
		"Legacy": movedLegacyAccount, "Database": movedDatabase, "Privilege": movedPrivilege, "Moves": blocks,
	})
	if err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), out.Bytes(), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// The state file moves into every rds type through the CLI and the real alicloud provider: the
// first plan moves all six resources and changes only the database description the configuration
// changed; after the apply the plan is empty, the state holds no password, and the alicloud
// provider is no longer needed.
func TestAccModernMoveFromAlicloudBinary(t *testing.T) {
	bin, mirror := os.Getenv("TF_ACC_TERRAFORM_PATH"), os.Getenv("ALICLOUD_PROVIDER_MIRROR")
	if os.Getenv("TF_ACC") == "" || bin == "" || mirror == "" {
		t.Skip("needs TF_ACC, TF_ACC_TERRAFORM_PATH (Terraform 1.8+) and ALICLOUD_PROVIDER_MIRROR (make alicloud-provider); make test-modern sets them")
	}
	c := newMovedCloud(t)
	if err := c.api.CreateAccount(context.Background(), &rdsapi.CreateAccountRequest{DBInstanceID: movedPrimary,
		AccountName: movedLegacyAccount, AccountPassword: movedLegacySecret, AccountDescription: "legacy"}); err != nil {
		t.Fatal(err)
	}
	moves := c.alicloudMoves(t)
	w := newMoveWorkdir(t, bin, mirror, alicloudStateFile(t, moves, nil))
	w.writeMovedConfig(c, moves, true)
	w.mustRun("init", "-input=false", "-no-color")
	// The state the built release writes: without the attributes added after it.
	w.writeState(alicloudStateFile(t, moves, assertStatesMatchAlicloudSchema(t, w, moves)))

	w.mustRun("plan", "-input=false", "-no-color", "-out=move.tfplan")
	changes := planChanges(t, w, "move.tfplan")
	for _, m := range moves {
		to := m.target + "." + m.name
		got, ok := changes[to]
		want := "no-op"
		if to == "rds_database.orders" {
			want = "update"
		}
		if !ok || got.previous != m.source+"."+m.name || got.actions != want {
			t.Errorf("plan for %s: %+v (found %v), want %s moved from %s.%s", to, got, ok, want, m.source, m.name)
		}
	}
	if len(changes) != len(moves) {
		t.Errorf("the move plan has %d resource changes, want %d: %+v", len(changes), len(moves), changes)
	}
	w.mustRun("apply", "-input=false", "-no-color", "move.tfplan")

	// The state no longer names the alicloud provider: it can leave the configuration.
	w.writeMovedConfig(c, moves, false)
	w.mustRun("init", "-input=false", "-no-color")
	if out, err := w.run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Errorf("plan after the move: %v, want no changes\n%s", err, out)
	}
	state := w.mustRun("state", "pull")
	for _, secret := range []string{movedSecret, movedLegacySecret, "migrate-ssl-secret", "migrate-tde-secret"} {
		if strings.Contains(state, secret) {
			t.Errorf("the state after the move holds the alicloud state's secret %q", secret)
		}
	}
	if strings.Contains(state, alicloudProvider) {
		t.Errorf("the state after the move still names %s", alicloudProvider)
	}
}

type plannedChange struct{ previous, actions string }

// planChanges reads a saved plan's resource changes: address -> previous address and actions.
func planChanges(t *testing.T, w *tfWorkdir, planFile string) map[string]plannedChange {
	t.Helper()
	var plan struct {
		ResourceChanges []struct {
			Address         string `json:"address"`
			PreviousAddress string `json:"previous_address"`
			Change          struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json", planFile)), &plan); err != nil {
		t.Fatal(err)
	}
	changes := map[string]plannedChange{}
	for _, rc := range plan.ResourceChanges {
		changes[rc.Address] = plannedChange{rc.PreviousAddress, strings.Join(rc.Change.Actions, ",")}
	}
	return changes
}

// alicloudAddedLater are the attributes of the state templates (alicloud at 81c43b672, after
// v1.289.0) that the release `make alicloud-provider` builds (v1.286.0) does not have yet.
var alicloudAddedLater = map[string][]string{"alicloud_db_instance": {"force_delete"}}

// assertStatesMatchAlicloudSchema fails when a raw state of the move tests leaves out an attribute
// or block of the real alicloud provider's schema, or holds one the schema does not have (but for
// alicloudAddedLater). It returns the attributes the built release does not have, per type.
func assertStatesMatchAlicloudSchema(t *testing.T, w *tfWorkdir, moves []alicloudStateMove) map[string][]string {
	t.Helper()
	var schemas struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]struct {
				Block struct {
					Attributes map[string]json.RawMessage `json:"attributes"`
					BlockTypes map[string]json.RawMessage `json:"block_types"`
				} `json:"block"`
			} `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("providers", "schema", "-json")), &schemas); err != nil {
		t.Fatal(err)
	}
	resources := schemas.ProviderSchemas[alicloudProvider].ResourceSchemas
	leave := map[string][]string{}
	for _, m := range moves {
		schema, ok := resources[m.source]
		if !ok {
			t.Errorf("the alicloud provider has no resource %s", m.source)
			continue
		}
		want := map[string]bool{}
		for name := range schema.Block.Attributes {
			want[name] = true
		}
		for name := range schema.Block.BlockTypes {
			want[name] = true
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(renderAlicloudState(t, m.template, m.facts), &raw); err != nil {
			t.Fatal(err)
		}
		missing, extra := keyDifference(want, raw)
		if later := alicloudAddedLater[m.source]; len(extra) > 0 && strings.Join(extra, ",") == strings.Join(later, ",") {
			leave[m.source], extra = extra, nil
		}
		if len(missing)+len(extra) > 0 {
			t.Errorf("the %s state (template %s) lacks %v and has %v, which the alicloud schema does not", m.source, m.template, missing, extra)
		}
	}
	return leave
}

// keyDifference lists the names of want not in got, and those of got not in want, sorted.
func keyDifference(want map[string]bool, got map[string]json.RawMessage) (missing, extra []string) {
	for name := range want {
		if _, ok := got[name]; !ok {
			missing = append(missing, name)
		}
	}
	for name := range got {
		if !want[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}
