package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Secrets (issue 6): the AccessKey secret and the STS token are sensitive, never in state, never
// in logs at TF_LOG=TRACE, never in error messages; and every credential source (attributes,
// environment, CLI profile) reaches the cloud with the right key. These tests set environment
// variables, so they do not run in parallel.

// secretsEnv is a simulator that accepts exactly one key pair, with the recorder in front.
func secretsEnv(t *testing.T, keyID, secret string) (*testEnv, *faultRecorder) {
	t.Helper()
	return newRecordedEnv(t, simulator.Options{
		AccessKeyID: keyID, AccessKeySecret: secret,
		CreateDuration: 200 * time.Millisecond, RestartDuration: 200 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond,
	})
}

// traceLogging sends Terraform's and the provider's logs, at TRACE, to a file, keeps the test's
// working directories (state, plans) under dir, and returns the log path and the work dir.
func traceLogging(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "terraform-trace.log")
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	t.Setenv("TF_ACC_TEMP_DIR", work)
	t.Setenv("TF_ACC_PERSIST_WORKING_DIR", "1")
	return logPath, work
}

// grepTree reports every file under root (accepted by include) that contains one of needles.
func grepTree(t *testing.T, root string, include func(path string) bool, needles ...string) (files int, hits []string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !include(p) {
			return err
		}
		// Provider binaries and plugin caches are not ours to grep.
		if info, err := d.Info(); err == nil && info.Size() > 32<<20 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, n := range needles {
			if strings.Contains(string(data), n) {
				hits = append(hits, fmt.Sprintf("%s contains %.6s…", p, n))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	return files, hits
}

func isStateFile(p string) bool { return strings.Contains(filepath.Base(p), ".tfstate") }

// checkLogAndState greps the TRACE log and every state file, and asserts the log really holds
// the provider's own TRACE/DEBUG output (or the test proves nothing).
func checkLogAndState(t *testing.T, logPath, work string, needles ...string) {
	t.Helper()
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("reading the TRACE log: %v", err)
	}
	for _, marker := range []string{"[TRACE]", "RDS instance accepted by the cloud", "tf_rpc=ApplyResourceChange"} {
		if !strings.Contains(string(log), marker) {
			t.Errorf("the TRACE log (%d bytes) lacks %q: the test would not see a leak", len(log), marker)
		}
	}
	// terraform-plugin-testing itself logs each step's configuration (the field
	// test_terraform_configuration, one "  |" line per line of HCL); when the test puts the secret
	// in the provider block, that copy is the test's own text, not something the provider or
	// Terraform logged. Everything else must be free of it.
	inConfigDump := false
	for _, line := range strings.Split(string(log), "\n") {
		switch {
		case strings.Contains(line, "test_terraform_configuration="):
			inConfigDump = true
			continue
		case inConfigDump && strings.HasPrefix(line, "  |"):
			continue
		}
		inConfigDump = false
		for _, n := range needles {
			if strings.Contains(line, n) {
				t.Errorf("the TRACE log contains a secret (%.6s…) in: %.400s", n, strings.ReplaceAll(line, n, "<SECRET>"))
			}
		}
	}
	files, hits := grepTree(t, work, isStateFile, needles...)
	if files == 0 {
		t.Errorf("no state file under %s", work)
	}
	for _, h := range hits {
		t.Error(h)
	}
}

func secretsInstance(flag bool) string {
	return fmt.Sprintf(`
resource "rds_instance" "test" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 20
  instance_name    = "secrets"
  atomic_write_16k = %t
}
`, flag)
}

// Credentials in the provider block: a create, a toggle and a destroy at TF_LOG=TRACE leave
// neither the secret nor the STS token in the log or in any state file, though both were used.
func TestAccSecrets_attributesNotInStateOrTraceLog(t *testing.T) {
	keyID, secret, token := "LTAI-"+uuid.NewString()[:8], "sk-"+uuid.NewString(), "st-"+uuid.NewString()
	env, rec := secretsEnv(t, keyID, secret)
	logPath, work := traceLogging(t)
	provider := fmt.Sprintf(`
provider "rds" {
  endpoint       = %q
  access_key     = %q
  secret_key     = %q
  security_token = %q
}
`, env.srv.URL, keyID, secret, token)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps: []resource.TestStep{
			{Config: provider + secretsInstance(false)},
			{Config: provider + secretsInstance(true)},
		},
	})
	if rec.tokens[token] == 0 || rec.keyIDs[keyID] == 0 {
		t.Fatalf("the STS token or the key id never reached the simulator (tokens %d, key ids %v)", rec.tokens[token], rec.keyIDs)
	}
	checkLogAndState(t, logPath, work, secret, token)
}

// Credentials from the environment: then no file Terraform writes may contain them at all (the
// configuration, the plans, the state, the log).
func TestAccSecrets_environmentNowhereOnDisk(t *testing.T) {
	keyID, secret, token := "LTAI-"+uuid.NewString()[:8], "sk-"+uuid.NewString(), "st-"+uuid.NewString()
	env, rec := secretsEnv(t, keyID, secret)
	clearCredentialEnv(t)
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_ID", keyID)
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET", secret)
	t.Setenv("ALIBABA_CLOUD_SECURITY_TOKEN", token)
	logPath, work := traceLogging(t)
	provider := fmt.Sprintf("provider \"rds\" {\n  endpoint = %q\n}\n", env.srv.URL)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkNoInstances(env),
		Steps: []resource.TestStep{
			{Config: provider + secretsInstance(false)},
			{Config: provider + secretsInstance(true)},
		},
	})
	if rec.tokens[token] == 0 {
		t.Fatal("the STS token from the environment never reached the simulator")
	}
	checkLogAndState(t, logPath, work, secret, token)
	files, hits := grepTree(t, work, func(string) bool { return true }, secret, token)
	if files < 3 {
		t.Errorf("only %d files under %s; the working directory was not kept", files, work)
	}
	for _, h := range hits {
		t.Error(h)
	}
}

// A wrong secret fails the apply with the cloud's signature error, and neither the wrong secret
// nor the right one appears in the error Terraform shows.
func TestAccSecrets_wrongSecretErrorShowsNoSecret(t *testing.T) {
	t.Parallel()
	keyID, secret, wrong := "LTAI-"+uuid.NewString()[:8], "sk-"+uuid.NewString(), "sk-wrong-"+uuid.NewString()
	env, _ := secretsEnv(t, keyID, secret)
	var seen []string
	provider := fmt.Sprintf("provider \"rds\" {\n  endpoint = %q\n  access_key = %q\n  secret_key = %q\n}\n", env.srv.URL, keyID, wrong)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		ErrorCheck: func(err error) error {
			seen = append(seen, err.Error())
			if !regexp.MustCompile(`SignatureDoesNotMatch`).MatchString(err.Error()) {
				return err
			}
			return nil // expected: checked below
		},
		Steps: []resource.TestStep{{Config: provider + secretsInstance(false)}},
	})
	if len(seen) == 0 {
		t.Fatal("a wrong secret did not fail the apply")
	}
	for _, msg := range seen {
		if strings.Contains(msg, wrong) || strings.Contains(msg, secret) {
			t.Errorf("the error shows a secret: %s", msg)
		}
	}
	if n := env.mutations(); n != 0 {
		t.Errorf("%d mutating requests were accepted with a wrong secret", n)
	}
}

// ---- credentials chain ----

const listInstances = `
data "rds_instances" "all" {}
`

type cliProfile struct {
	Name            string `json:"name"`
	Mode            string `json:"mode"`
	AccessKeyID     string `json:"access_key_id"`
	AccessKeySecret string `json:"access_key_secret"`
	StsToken        string `json:"sts_token,omitempty"`
	RegionID        string `json:"region_id"`
}

// writeCLIConfig writes ~/.aliyun/config.json under a temporary HOME.
func writeCLIConfig(t *testing.T, current string, profiles ...cliProfile) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ALIBABA_CLOUD_CONFIG_FILE", "")
	data, err := json.Marshal(map[string]any{"current": current, "profiles": profiles})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".aliyun"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".aliyun", "config.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Each credential source reaches the simulator with its key (the simulator accepts only that
// pair), and the STS token when there is one. The provider is configured and calls the API in
// this process, as under Terraform (the provider reads the environment and the CLI profile itself):
// the CLI tests above and below take attributes, ALIBABA_CLOUD_* variables and a profile through
// Terraform, and here each of the eight sources costs no terraform run.
func TestCredentialsChain(t *testing.T) {
	type source struct {
		name string
		// setup configures the environment and returns the provider block's credential attributes.
		setup func(t *testing.T, id, secret, token string) map[string]string
		token bool
	}
	wrongID, wrongSecret := "LTAI-wrong", "sk-wrong"
	sources := []source{
		{name: "attributes", setup: func(t *testing.T, id, secret, _ string) map[string]string {
			t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_ID", wrongID) // attributes win over the environment
			t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET", wrongSecret)
			return map[string]string{"access_key": id, "secret_key": secret}
		}},
		{name: "attributes with STS token", token: true, setup: func(_ *testing.T, id, secret, token string) map[string]string {
			return map[string]string{"access_key": id, "secret_key": secret, "security_token": token}
		}},
		{name: "ALIBABA_CLOUD_* environment", token: true, setup: func(t *testing.T, id, secret, token string) map[string]string {
			t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_ID", id)
			t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET", secret)
			t.Setenv("ALIBABA_CLOUD_SECURITY_TOKEN", token)
			t.Setenv("ALICLOUD_ACCESS_KEY", wrongID) // the newer names win
			t.Setenv("ALICLOUD_SECRET_KEY", wrongSecret)
			return nil
		}},
		{name: "ALICLOUD_* environment", setup: func(t *testing.T, id, secret, _ string) map[string]string {
			t.Setenv("ALICLOUD_ACCESS_KEY", id)
			t.Setenv("ALICLOUD_SECRET_KEY", secret)
			return nil
		}},
		{name: "CLI profile named by the profile attribute", setup: func(t *testing.T, id, secret, _ string) map[string]string {
			writeCLIConfig(t, "other",
				cliProfile{Name: "other", Mode: "AK", AccessKeyID: wrongID, AccessKeySecret: wrongSecret, RegionID: "cn-hangzhou"},
				cliProfile{Name: "dev", Mode: "AK", AccessKeyID: id, AccessKeySecret: secret, RegionID: "cn-hangzhou"})
			return map[string]string{"profile": "dev"}
		}},
		{name: "CLI profile named by ALIBABA_CLOUD_PROFILE", setup: func(t *testing.T, id, secret, _ string) map[string]string {
			writeCLIConfig(t, "other",
				cliProfile{Name: "other", Mode: "AK", AccessKeyID: wrongID, AccessKeySecret: wrongSecret, RegionID: "cn-hangzhou"},
				cliProfile{Name: "dev", Mode: "AK", AccessKeyID: id, AccessKeySecret: secret, RegionID: "cn-hangzhou"})
			t.Setenv("ALIBABA_CLOUD_PROFILE", "dev")
			return nil
		}},
		{name: "CLI current profile", setup: func(t *testing.T, id, secret, _ string) map[string]string {
			writeCLIConfig(t, "dev", cliProfile{Name: "dev", Mode: "AK", AccessKeyID: id, AccessKeySecret: secret, RegionID: "cn-hangzhou"})
			return nil
		}},
		{name: "CLI StsToken profile", token: true, setup: func(t *testing.T, id, secret, token string) map[string]string {
			writeCLIConfig(t, "sts", cliProfile{Name: "sts", Mode: "StsToken", AccessKeyID: id, AccessKeySecret: secret, StsToken: token, RegionID: "cn-hangzhou"})
			return map[string]string{"profile": "sts"}
		}},
	}
	for _, src := range sources {
		t.Run(strings.ReplaceAll(src.name, " ", "_"), func(t *testing.T) {
			id, secret, token := "LTAI-"+uuid.NewString()[:8], "sk-"+uuid.NewString(), "st-"+uuid.NewString()
			env, rec := secretsEnv(t, id, secret)
			clearCredentialEnv(t)
			values := map[string]tftypes.Value{"endpoint": tftypes.NewValue(tftypes.String, env.srv.URL)}
			for name, value := range src.setup(t, id, secret, token) {
				values[name] = tftypes.NewValue(tftypes.String, value)
			}
			resp := configureProvider(t, values)
			data, ok := resp.ResourceData.(*ProviderData)
			if resp.Diagnostics.HasError() || !ok {
				t.Fatalf("configure: %v", resp.Diagnostics)
			}
			if _, err := data.API.DescribeDBInstances(context.Background(), &rdsapi.DescribeDBInstancesRequest{MaxResults: 100}); err != nil {
				t.Fatalf("listing instances: %v", err)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.keyIDs) != 1 || rec.keyIDs[id] == 0 {
				t.Errorf("requests carried key ids %v; want only %s", rec.keyIDs, id)
			}
			if src.token && rec.tokens[token] == 0 {
				t.Errorf("the STS token never reached the simulator (tokens %v)", rec.tokens)
			}
			if !src.token && len(rec.tokens) != 0 {
				t.Errorf("an STS token was sent though none was configured")
			}
		})
	}
}

// A CLI profile with the wrong secret is refused by the simulator: the error names the cloud's
// code and shows no secret.
func TestAccCredentialsChain_wrongProfileSecret(t *testing.T) {
	id, secret, wrong := "LTAI-"+uuid.NewString()[:8], "sk-"+uuid.NewString(), "sk-wrong-"+uuid.NewString()
	env, _ := secretsEnv(t, id, secret)
	clearCredentialEnv(t)
	writeCLIConfig(t, "dev", cliProfile{Name: "dev", Mode: "AK", AccessKeyID: id, AccessKeySecret: wrong, RegionID: "cn-hangzhou"})
	var seen []string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		ErrorCheck: func(err error) error {
			seen = append(seen, err.Error())
			if !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
				return err
			}
			return nil
		},
		Steps: []resource.TestStep{{Config: fmt.Sprintf("provider \"rds\" {\n  endpoint = %q\n  profile = \"dev\"\n}\n", env.srv.URL) + listInstances}},
	})
	if len(seen) == 0 {
		t.Fatal("a wrong profile secret was accepted")
	}
	for _, msg := range seen {
		if strings.Contains(msg, wrong) || strings.Contains(msg, secret) {
			t.Errorf("the error shows a secret: %s", msg)
		}
	}
}
