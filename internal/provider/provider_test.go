package provider

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// testAccProtoV6ProviderFactories runs the provider in-process for terraform-plugin-testing.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"rds": providerserver.NewProtocol6WithError(New("test")()),
}

// Short simulator durations keep the acceptance suite fast while still exercising the status
// machine (Creating, DBInstanceClassChanging, Deleting, the flag lag).
func testSimOptions() simulator.Options {
	return simulator.Options{
		CreateDuration:  300 * time.Millisecond,
		RestartDuration: 300 * time.Millisecond,
		DeleteDuration:  200 * time.Millisecond,
		FlagLag:         100 * time.Millisecond,
	}
}

// testEnv is one simulator on loopback plus an API client and provider data pointed at it.
type testEnv struct {
	sim  *simulator.Simulator
	srv  *httptest.Server
	api  rdsapi.API
	data *ProviderData
}

func newTestEnv(t *testing.T, opts simulator.Options) *testEnv {
	t.Helper()
	sim, srv := simulator.NewTestServer(t, opts)
	return newTestEnvOn(t, opts, sim, srv, 3)
}

// newTestEnvOn builds the env's API client and provider data for sim (started with opts, whose
// keys it uses) served by srv.
func newTestEnvOn(t *testing.T, opts simulator.Options, sim *simulator.Simulator, srv *httptest.Server, maxRetries int) *testEnv {
	t.Helper()
	id, secret := opts.AccessKeyID, opts.AccessKeySecret
	if id == "" {
		id, secret = simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret
	}
	cred, _, err := buildCredential(settings{accessKey: id, secretKey: secret})
	if err != nil {
		t.Fatalf("credential: %v", err)
	}
	client, err := rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: srv.URL, Credentials: cred, MaxRetries: maxRetries})
	if err != nil {
		t.Fatalf("rdsapi.New: %v", err)
	}
	return &testEnv{
		sim: sim, srv: srv, api: client,
		data: &ProviderData{API: client, Region: simulator.DefaultRegion, Waiter: &rdsservice.Waiter{
			API: client, Clock: rdsservice.RealClock{}, MinInterval: 50 * time.Millisecond, MaxInterval: 200 * time.Millisecond,
		}},
	}
}

// providerBlock configures the provider for the env's simulator.
// requiredProviders names the provider at the address the acceptance tests serve it under
// (TF_ACC_PROVIDER_NAMESPACE, openrds in make test): a step that imports runs terraform init on
// its own configuration, without the testing framework's provider address.
func requiredProviders() string {
	namespace := os.Getenv("TF_ACC_PROVIDER_NAMESPACE")
	if namespace == "" {
		namespace = "hashicorp"
	}
	return fmt.Sprintf("terraform {\n  required_providers {\n    rds = { source = %q }\n  }\n}\n", namespace+"/rds")
}

func (e *testEnv) providerBlock() string {
	return fmt.Sprintf(`
provider "rds" {
  endpoint   = %q
  region     = %q
  access_key = %q
  secret_key = %q
}
`, e.srv.URL, simulator.DefaultRegion, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret)
}

var mutatingActions = []string{
	"CreateDBInstance", "CreateReadOnlyDBInstance", "CloneDBInstance", "ModifyDBInstanceSpec",
	"ModifyDBInstanceDescription", "ModifySecurityIps", "ModifyDBInstanceDeletionProtection",
	"RestartDBInstance", "DeleteDBInstance", "ModifyDBInstanceMaintainTime", "ModifyParameter",
	"ModifyDBInstanceSSL", "ModifyDBInstanceTDE",
	"TransformDBInstancePayType", "ModifyInstanceAutoRenewalAttribute", "ModifyBackupPolicy",
	"CreateParameterGroup", "ModifyParameterGroup", "DeleteParameterGroup",
	"ModifyDBInstanceConnectionString", "AllocateInstancePublicConnection", "ReleaseInstancePublicConnection",
	"ModifyDBProxy", "ModifyDBProxyInstance", "ModifyDBProxyEndpoint", "ModifyDbProxyInstanceSsl",
}

// mutations counts the mutating requests the simulator received.
func (e *testEnv) mutations() int {
	n := 0
	st := e.sim.Stats()
	for _, a := range mutatingActions {
		n += st.Requests[a]
	}
	return n
}

func (e *testEnv) restarts(id string) int { return e.sim.Stats().Restarts[id] }

func (e *testEnv) requests(action string) int { return e.sim.Stats().Requests[action] }

func TestProviderSchemaAndMetadata(t *testing.T) {
	t.Parallel()
	p := New("1.2.3")()
	var meta provider.MetadataResponse
	p.Metadata(context.Background(), provider.MetadataRequest{}, &meta)
	if meta.TypeName != "rds" || meta.Version != "1.2.3" {
		t.Fatalf("metadata = %+v", meta)
	}
	var s provider.SchemaResponse
	p.Schema(context.Background(), provider.SchemaRequest{}, &s)
	if s.Diagnostics.HasError() {
		t.Fatalf("schema: %v", s.Diagnostics)
	}
	for _, name := range []string{"secret_key", "security_token"} {
		if !s.Schema.Attributes[name].IsSensitive() {
			t.Errorf("%s must be sensitive", name)
		}
	}
}

func configureProvider(t *testing.T, values map[string]tftypes.Value) provider.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	p := New("test")()
	var s provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &s)
	typ := s.Schema.Type().TerraformType(ctx).(tftypes.Object)
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		all[name] = tftypes.NewValue(at, nil)
	}
	for k, v := range values {
		all[k] = v
	}
	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{Config: tfsdk.Config{Schema: s.Schema, Raw: tftypes.NewValue(typ, all)}}, &resp)
	return resp
}

// clearCredentialEnv makes the test independent of the developer's environment and CLI profile.
func clearCredentialEnv(t *testing.T) {
	for _, names := range [][]string{envAccessKey, envSecretKey, envSecurityToken, envRegion, envProfile, envEndpoint} {
		for _, n := range names {
			t.Setenv(n, "")
		}
	}
	t.Setenv("ALIBABA_CLOUD_CONFIG_FILE", filepath.Join(t.TempDir(), "missing.json"))
	t.Setenv("HOME", t.TempDir())
}

func TestProviderConfigureMissingCredentials(t *testing.T) {
	clearCredentialEnv(t)
	resp := configureProvider(t, nil)
	if !resp.Diagnostics.HasError() {
		t.Fatal("expected an error without credentials")
	}
	detail := resp.Diagnostics.Errors()[0].Detail()
	for _, want := range []string{"access_key", "secret_key", "ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET", "ALICLOUD_ACCESS_KEY"} {
		if !strings.Contains(detail, want) {
			t.Errorf("error detail does not name %s: %s", want, detail)
		}
	}
	if resp.ResourceData != nil {
		t.Error("no provider data may be handed out on error")
	}
}

func TestProviderConfigureHalfKeys(t *testing.T) {
	clearCredentialEnv(t)
	resp := configureProvider(t, map[string]tftypes.Value{"access_key": tftypes.NewValue(tftypes.String, "id")})
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "secret is not") {
		t.Fatalf("expected a missing-secret error, got %v", resp.Diagnostics)
	}
}

func TestProviderConfigureUnknownDefers(t *testing.T) {
	clearCredentialEnv(t)
	resp := configureProvider(t, map[string]tftypes.Value{"access_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})
	if resp.Diagnostics.HasError() || resp.ResourceData != nil {
		t.Fatalf("unknown configuration must defer without error, got %v", resp.Diagnostics)
	}
}

func TestProviderConfigureFromEnv(t *testing.T) {
	clearCredentialEnv(t)
	t.Setenv("ALICLOUD_ACCESS_KEY", "old-id")
	t.Setenv("ALICLOUD_SECRET_KEY", "old-secret")
	t.Setenv("ALIBABA_CLOUD_SECURITY_TOKEN", "token")
	t.Setenv("ALIBABA_CLOUD_REGION", "cn-shanghai")
	t.Setenv("ALIBABA_CLOUD_RDS_ENDPOINT", "http://127.0.0.1:1")
	resp := configureProvider(t, nil)
	if resp.Diagnostics.HasError() {
		t.Fatalf("configure: %v", resp.Diagnostics)
	}
	data, ok := resp.ResourceData.(*ProviderData)
	if !ok || data.Region != "cn-shanghai" || data.API == nil || data.Waiter == nil {
		t.Fatalf("provider data = %#v", resp.ResourceData)
	}
}

func TestProviderConfigureCLIProfile(t *testing.T) {
	clearCredentialEnv(t)
	file := filepath.Join(t.TempDir(), "config.json")
	cfg := `{"current":"dev","profiles":[{"name":"dev","mode":"AK","access_key_id":"pid","access_key_secret":"psecret","region_id":"cn-beijing"}]}`
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ALIBABA_CLOUD_CONFIG_FILE", file)
	resp := configureProvider(t, map[string]tftypes.Value{"endpoint": tftypes.NewValue(tftypes.String, "http://127.0.0.1:1")})
	if resp.Diagnostics.HasError() {
		t.Fatalf("configure with the CLI's current profile: %v", resp.Diagnostics)
	}
	resp = configureProvider(t, map[string]tftypes.Value{"profile": tftypes.NewValue(tftypes.String, "nope")})
	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "nope") {
		t.Fatalf("a missing profile must be a configure error naming it, got %v", resp.Diagnostics)
	}
}
