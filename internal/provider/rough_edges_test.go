package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Issue 31 §2: messages that point the right way.

// A provider setting built from another resource's attribute is unknown during the first plan: a
// data source read then says so and names the setting, instead of "no API client".
func TestAccProviderSettingUnknownAtPlanIsNamed(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	cfg := fmt.Sprintf(`
resource "terraform_data" "ep" {
  input = %q
}
provider "rds" {
  endpoint   = terraform_data.ep.output
  region     = %q
  access_key = %q
  secret_key = %q
}
data "rds_instance" "probe" {
  id = "rm-probe"
}
`, env.srv.URL, simulator.DefaultRegion, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret)
	expectPlanError(t, cfg, wrapped("Provider setting not known until apply", "`endpoint`", "built from attributes of resources not applied yet"))
}

// max_retries = 2.5 is a validation error naming the attribute, the value and the bounds (the
// framework's Int64 conversion reported it as a provider bug, "%!s(*big.Float=2.5)").
func TestAccProviderMaxRetriesMustBeAWholeNumber(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var cases []planErrorCase
	for _, value := range []string{"2.5", "101", "-1"} {
		cases = append(cases, planErrorCase{"max_retries = " + value, readConfig(env.srv.URL, simulator.DefaultRegion, "  max_retries = "+value+"\n"),
			wrapped("Invalid max_retries", "max_retries = "+value+": it must be a whole number from 0 to 100")})
	}
	expectPlanErrors(t, cases)
	if n := env.requests("DescribeDBInstanceAttribute"); n != 0 {
		t.Errorf("a refused max_retries sent %d requests, want 0", n)
	}
}

// The bounds of max_retries and max_requests_per_second are in their descriptions (the docs).
func TestProviderRetryAndRateBoundsAreDocumented(t *testing.T) {
	resp := schemaOf(t)
	for name, want := range map[string]string{
		"max_retries":             "a whole number from 0 to 100",
		"max_requests_per_second": "from 0.1 to 10000",
	} {
		if got := resp.Attributes[name].GetMarkdownDescription(); !strings.Contains(got, want) {
			t.Errorf("%s: description %q does not state its bounds (%q)", name, got, want)
		}
	}
}

// An https:// endpoint (or one without a scheme) in front of a plain-HTTP server fails at the
// first attempt, with a hint to check the scheme, and nothing reaches the server.
func TestAccEnvironment_schemeMismatch(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	host := strings.TrimPrefix(env.srv.URL, "http://")
	for _, endpoint := range []string{"https://" + host, host} {
		took := expectPlanError(t, readConfig(endpoint, simulator.DefaultRegion, ""),
			wrapped("answers in plain HTTP, not HTTPS", "check the scheme of `endpoint`", "(1 attempt(s))"))
		checkQuick(t, "scheme mismatch", took)
	}
	if n := env.requests("DescribeDBInstanceAttribute"); n != 0 {
		t.Errorf("the simulator got %d requests through a mismatched scheme, want 0", n)
	}
}

// Credentials the cloud refuses: the error names where they came from (here the older
// environment variables), so the user knows which setting to fix.
func TestAccCredentialErrorNamesItsSource(t *testing.T) {
	clearCredentialEnv(t)
	t.Setenv("ALICLOUD_ACCESS_KEY", "revoked-id")
	t.Setenv("ALICLOUD_SECRET_KEY", "revoked-secret")
	env := newTestEnv(t, testSimOptions())
	cfg := fmt.Sprintf(`
provider "rds" {
  endpoint = %q
  region   = %q
}
data "rds_instance" "probe" {
  id = "rm-probe"
}
`, env.srv.URL, simulator.DefaultRegion)
	expectPlanError(t, cfg, wrapped("InvalidAccessKeyId.NotFound", "The credentials in use came from",
		"the environment variable ALICLOUD_ACCESS_KEY (AccessKey ID)", "the environment variable ALICLOUD_SECRET_KEY (secret)"))
}

// Each way of giving credentials is named: the block, the variables, the CLI profile.
func TestCredentialSourceNamesTheSetting(t *testing.T) {
	clearCredentialEnv(t)
	t.Setenv("ALIBABA_CLOUD_CONFIG_FILE", "/tmp/cli.json")
	env := map[string]string{"ALIBABA_CLOUD_ACCESS_KEY_SECRET": "s", "ALIBABA_CLOUD_SECURITY_TOKEN": "t", "ALIBABA_CLOUD_PROFILE": "dev"}
	getenv := func(name string) string { return env[name] }
	block := providerModel{AccessKey: types.StringValue("id")}
	cases := map[string]struct {
		cfg  providerModel
		want []string
	}{
		"keys": {block, []string{"`access_key` in the provider block (AccessKey ID)",
			"the environment variable ALIBABA_CLOUD_ACCESS_KEY_SECRET (secret)", "the environment variable ALIBABA_CLOUD_SECURITY_TOKEN (STS token)"}},
		"profile": {providerModel{}, []string{`CLI profile "dev" (named by the environment variable ALIBABA_CLOUD_PROFILE) in /tmp/cli.json`}},
	}
	for name, c := range cases {
		if name == "keys" {
			env["ALIBABA_CLOUD_PROFILE"] = ""
		} else {
			env["ALIBABA_CLOUD_PROFILE"] = "dev"
		}
		got := resolveSettings(c.cfg, getenv).credentialSource()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not contain %q", name, got, w)
			}
		}
	}
	resp := configureProvider(t, map[string]tftypes.Value{"secret_key": tftypes.NewValue(tftypes.String, "s")})
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "set (by `secret_key` in the provider block)") {
		t.Errorf("a half key pair must name where the half came from, got %v", resp.Diagnostics)
	}
}

func schemaOf(t *testing.T) schema.Schema {
	t.Helper()
	var resp provider.SchemaResponse
	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp.Schema
}

// Issue 31 §1: rds_accounts and rds_databases refuse an empty instance_id at validate (no API
// call), and a missing instance reads "not found" as the rds_instance data source does.
func TestAccAccessListsRefuseEmptyAndMissingInstance(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	var cases []planErrorCase
	for _, ds := range []string{"rds_accounts", "rds_databases"} {
		empty := env.providerBlock() + fmt.Sprintf("data %q \"x\" {\n  instance_id = \"\"\n}\n", ds)
		cases = append(cases, planErrorCase{ds + " empty", empty, wrapped("instance_id", "length must be at least 1")})
		missing := env.providerBlock() + fmt.Sprintf("data %q \"x\" {\n  instance_id = \"rm-missing\"\n}\n", ds)
		cases = append(cases, planErrorCase{ds + " missing", missing, wrapped("RDS instance not found", "No instance rm-missing exists in region "+simulator.DefaultRegion)})
	}
	expectPlanErrors(t, cases)
	st := env.sim.Stats()
	if n := st.Requests["DescribeAccounts"] + st.Requests["DescribeDatabases"]; n != 2 {
		t.Errorf("%d listing calls, want 2 (one per missing instance, none for the empty id)", n)
	}
}

// Issue 31 §1: the rds_instances filters compare the same way for every field: engine and status
// match in any letter case, and a value outside the documented set is a validation error.
func TestInstancesDataSourceFiltersIgnoreCase(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	ctx := context.Background()
	id, err := env.sim.AddInstance(simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c"})
	if err != nil {
		t.Fatal(err)
	}
	for _, filter := range [][2]string{{"mysql", "running"}, {"MySQL", "Running"}, {"MYSQL", "RUNNING"}} {
		state, diags := dsRead(t, env, NewInstancesDataSource(), map[string]tftypes.Value{
			"engine": tftypes.NewValue(tftypes.String, filter[0]), "status": tftypes.NewValue(tftypes.String, filter[1]),
		})
		if diags.HasError() {
			t.Fatalf("%v: %v", filter, diags)
		}
		var m instancesDataModel
		if d := state.Get(ctx, &m); d.HasError() {
			t.Fatal(d)
		}
		if got := fmt.Sprint(m.IDs.Elements()); got != fmt.Sprintf("[%q]", id) {
			t.Errorf("engine = %q, status = %q: ids %s, want [%s]", filter[0], filter[1], got, id)
		}
	}
	for attribute, known := range map[string][]string{"engine": listEngines, "status": listStatuses} {
		var resp validator.StringResponse
		anyCaseOneOf(known).ValidateString(ctx, validator.StringRequest{Path: path.Root(attribute), ConfigValue: types.StringValue("Runnin")}, &resp)
		if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), `= "Runnin" matches no instance`) {
			t.Errorf("%s = \"Runnin\" must be refused naming the value, got %v", attribute, resp.Diagnostics)
		}
	}
}

// Issue 31 §2: importing a grant with an unknown privilege type says which values are expected,
// instead of a "non-existent remote object" after a read.
func TestPrivilegeImportNamesTheExpectedPrivileges(t *testing.T) {
	var rs resource.SchemaResponse
	r := &accountPrivilegeResource{}
	r.Schema(context.Background(), resource.SchemaRequest{}, &rs)
	empty := tfsdk.State{Schema: rs.Schema, Raw: tftypes.NewValue(rs.Schema.Type().TerraformType(context.Background()), nil)}
	for id, want := range map[string]string{
		"rm-bp1example:app_user:Owner":     `The privilege "Owner" in "rm-bp1example:app_user:Owner" is not one of ReadWrite, ReadOnly, DDLOnly, DMLOnly`,
		"rm-bp1example:app_user:readwrite": `The privilege "readwrite"`,
		"rm-bp1example:app_user":           "Expected <instance_id>:<account_name>:<privilege>",
	} {
		resp := resource.ImportStateResponse{State: empty}
		r.ImportState(context.Background(), resource.ImportStateRequest{ID: id}, &resp)
		if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), want) {
			t.Errorf("import %q: want an error containing %q, got %v", id, want, resp.Diagnostics)
		}
	}
	resp := resource.ImportStateResponse{State: empty}
	r.ImportState(context.Background(), resource.ImportStateRequest{ID: "rm-bp1example:app_user:ReadOnly"}, &resp)
	if resp.Diagnostics.HasError() {
		t.Errorf("a well-formed id must import: %v", resp.Diagnostics)
	}
}

// Issue 31 §3: an attribute description that says a change restarts the instance is backed by
// the planner (rdsservice.AlwaysRestarts, the function docs/guides/plan-rules.md is generated
// from). storage said "Changing it restarts the instance" on both resources, while growth on
// cloud disks is online.
func TestRestartClaimsInDescriptionsFollowThePlanner(t *testing.T) {
	claim := regexp.MustCompile(`(?i)changing it restarts the instance`)
	for _, r := range []resource.Resource{NewInstanceResource(), NewReadonlyInstanceResource()} {
		var rs resource.SchemaResponse
		r.Schema(context.Background(), resource.SchemaRequest{}, &rs)
		checked := 0
		for name, a := range rs.Schema.Attributes {
			if !claim.MatchString(a.GetMarkdownDescription()) {
				continue
			}
			checked++
			if !rdsservice.AlwaysRestarts(name) {
				t.Errorf("%T %s: the description says a change restarts the instance; the planner does not always restart it: %q",
					r, name, a.GetMarkdownDescription())
			}
		}
		if checked < 2 {
			t.Errorf("%T: only %d restart claims found; the check has nothing to check", r, checked)
		}
	}
}
