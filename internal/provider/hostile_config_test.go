package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Hostile configuration (issue 6): every invalid value is refused while planning, with a message
// that names the attribute, repeats the value and says what would be accepted, and nothing
// mutating reaches the cloud.

// words matches each phrase, in order, whatever whitespace or line wrapping Terraform puts
// between its words; anything may come between phrases.
func words(phrases ...string) *regexp.Regexp {
	var parts []string
	for _, p := range phrases {
		var quoted []string
		for _, w := range strings.Fields(p) {
			quoted = append(quoted, regexp.QuoteMeta(w))
		}
		parts = append(parts, strings.Join(quoted, `\s+`))
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, `.*`))
}

// instanceWith renders rds_instance.test with the base attributes, some replaced or added.
func instanceWith(overrides map[string]string) string {
	attrs := map[string]string{
		"engine":         `"MySQL"`,
		"engine_version": `"8.0"`,
		"instance_type":  `"mysql.n2.medium.2c"`,
		"storage":        `20`,
	}
	for k, v := range overrides {
		attrs[k] = v
	}
	var b strings.Builder
	b.WriteString("resource \"rds_instance\" \"test\" {\n")
	for _, k := range sortedKeys(attrs) {
		fmt.Fprintf(&b, "  %s = %s\n", k, attrs[k])
	}
	b.WriteString("}\n")
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

type hostileCase struct {
	name     string
	config   string // resources (the provider block is added unless provider is set)
	provider string // a whole provider block, replacing the env's
	err      *regexp.Regexp
}

func TestAccHostileConfigRejectedAtPlan(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	long := "a" + strings.Repeat("b", 255)
	master := `"rm-doesnotmatter"`
	readOnly := func(attrs string) string {
		return "resource \"rds_readonly_instance\" \"ro\" {\n  master_instance_id = " + master + "\n" + attrs + "}\n"
	}
	provider := func(extra string) string {
		if !strings.Contains(extra, "region") {
			extra += fmt.Sprintf("  region = %q\n", simulator.DefaultRegion)
		}
		return fmt.Sprintf("provider \"rds\" {\n  access_key = %q\n  secret_key = %q\n%s}\n",
			simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, extra)
	}
	cases := []hostileCase{
		// Empty strings.
		{name: "empty engine", config: instanceWith(map[string]string{"engine": `""`}),
			err: words(`Attribute engine value must be one of: ["MySQL" "PostgreSQL"], got: ""`)},
		{name: "empty engine_version", config: instanceWith(map[string]string{"engine_version": `""`}),
			err: words("Attribute engine_version string length must be at least 1, got: 0")},
		{name: "empty instance_type", config: instanceWith(map[string]string{"instance_type": `""`}),
			err: words("Attribute instance_type string length must be at least 1, got: 0")},
		{name: "empty instance_name", config: instanceWith(map[string]string{"instance_name": `""`}),
			err: words("instance_name must be 2 to 255 characters long; got 0.")},
		{name: "empty storage_type", config: instanceWith(map[string]string{"storage_type": `""`}),
			err: words(`Attribute storage_type value must be one of:`, `got: ""`)},
		{name: "empty security IP", config: instanceWith(map[string]string{"security_ips": `[""]`}),
			err: words(`"" is not an IPv4 address or CIDR block; use e.g. 10.0.0.1 or 10.0.0.0/24.`)},
		{name: "empty security_ips", config: instanceWith(map[string]string{"security_ips": `[]`}),
			err: words("Attribute security_ips set must contain at least 1 elements and at most 1000 elements, got: 0")},
		{name: "empty restore source", config: instanceWith(map[string]string{"restore_from": `{ source_instance_id = "", backup_id = "b-1" }`}),
			err: words("Attribute restore_from.source_instance_id string length must be at least 1, got: 0")},
		{name: "restore_from with neither backup nor time", config: instanceWith(map[string]string{"restore_from": `{ source_instance_id = "rm-1", backup_id = "" }`}),
			err: words("Set exactly one of restore_from.backup_id (a backup set id), restore_from.restore_time")},
		{name: "empty master_instance_id", config: strings.Replace(readOnly("  instance_type = \"mysqlro.n2.medium.1c\"\n  storage = 20\n"), master, `""`, 1),
			err: words("Attribute master_instance_id string length must be at least 1, got: 0")},

		// Negative and unaligned sizes.
		{name: "negative storage", config: instanceWith(map[string]string{"storage": `-20`}),
			err: words("Attribute storage value must be at least 20, got: -20")},
		{name: "zero storage", config: instanceWith(map[string]string{"storage": `0`}),
			err: words("Attribute storage value must be at least 20, got: 0")},
		{name: "unaligned storage", config: instanceWith(map[string]string{"storage": `103`}),
			err: words("storage must be a multiple of 5 GB; got 103. Use e.g. 105.")},
		{name: "storage over the class maximum", config: instanceWith(map[string]string{"storage": `32005`}),
			err: words(`instance_type "mysql.n2.medium.2c" with storage_type "cloud_essd" takes 20 to 32000 GB in steps of 5; got 32005.`)},
		{name: "negative read-only storage", config: readOnly("  instance_type = \"mysqlro.n2.medium.1c\"\n  storage = -5\n"),
			err: words("Attribute storage value must be at least 20, got: -5")},
		{name: "negative max_retries", provider: provider("  endpoint = \"" + env.srv.URL + "\"\n  max_retries = -1\n"), config: instanceWith(nil),
			err: words("max_retries = -1: it must be a whole number from 0 to 100")},
		{name: "zero max_requests_per_second", provider: provider("  endpoint = \"" + env.srv.URL + "\"\n  max_requests_per_second = 0\n"), config: instanceWith(nil),
			err: words("Attribute max_requests_per_second value must be between 0.100000 and 10000.000000, got: 0.000000")},

		// Unknown enum values.
		{name: "unknown engine", config: instanceWith(map[string]string{"engine": `"Oracle"`}),
			err: words(`Attribute engine value must be one of: ["MySQL" "PostgreSQL"], got: "Oracle"`)},
		{name: "engine in the wrong case", config: instanceWith(map[string]string{"engine": `"mysql"`}),
			err: words(`Attribute engine value must be one of: ["MySQL"`, `got: "mysql"`)},
		{name: "unknown storage_type", config: instanceWith(map[string]string{"storage_type": `"nvme"`}),
			err: words(`Attribute storage_type value must be one of: ["cloud_essd"`, `got: "nvme"`)},
		{name: "unknown category", config: instanceWith(map[string]string{"category": `"Gold"`}),
			err: words(`Attribute category value must be one of: ["HighAvailability" "Basic" "cluster"], got: "Gold"`)},
		{name: "unknown read-only storage_type", config: readOnly("  instance_type = \"mysqlro.n2.medium.1c\"\n  storage = 20\n  storage_type = \"tape\"\n"),
			err: words(`Attribute storage_type value must be one of:`, `got: "tape"`)},
		{name: "unknown engine_version", config: instanceWith(map[string]string{"engine_version": `"9.9"`}),
			err: words("engine_version", `"9.9"`, "InvalidParameter")},
		{name: "unknown instance_type", config: instanceWith(map[string]string{"instance_type": `"mysql.n2.huge.2c"`}),
			err: words(`instance_type "mysql.n2.huge.2c" is not offered for MySQL 8.0`, "Close matches:")},
		{name: "bad timeouts duration", config: instanceWith(map[string]string{"timeouts": `{ create = "soon" }`}),
			err: words(`"soon"`)},

		// instance_name.
		{name: "over-long instance_name", config: instanceWith(map[string]string{"instance_name": fmt.Sprintf("%q", long)}),
			err: words("instance_name must be 2 to 255 characters long; got 256.")},
		{name: "instance_name starting with a digit", config: instanceWith(map[string]string{"instance_name": `"1db"`}),
			err: words(`instance_name must start with a letter; got "1db".`)},
		{name: "instance_name that is a URL", config: instanceWith(map[string]string{"instance_name": `"HTTPS://db"`}),
			err: words("instance_name must not start with http:// or https://.")},
		{name: "over-long read-only instance_name", config: readOnly("  instance_type = \"mysqlro.n2.medium.1c\"\n  storage = 20\n  instance_name = \"" + long + "\"\n"),
			err: words("instance_name must be 2 to 255 characters long; got 256.")},

		// CIDRs.
		{name: "prefix too long", config: instanceWith(map[string]string{"security_ips": `["10.0.0.0/33"]`}),
			err: words(`"10.0.0.0/33" is not an IPv4 address or CIDR block`)},
		{name: "octet too large", config: instanceWith(map[string]string{"security_ips": `["10.0.0.1", "300.1.1.1"]`}),
			err: words(`"300.1.1.1" is not an IPv4 address or CIDR block`)},
		{name: "IPv6", config: instanceWith(map[string]string{"security_ips": `["::1"]`}),
			err: words(`"::1" is not an IPv4 address or CIDR block`)},
		{name: "IPv4-mapped IPv6", config: instanceWith(map[string]string{"security_ips": `["::ffff:10.0.0.1"]`}),
			err: words(`"::ffff:10.0.0.1" is not an IPv4 address or CIDR block`)},
		{name: "hostname", config: instanceWith(map[string]string{"security_ips": `["db.example.com"]`}),
			err: words(`"db.example.com" is not an IPv4 address or CIDR block`)},
		{name: "padded address", config: instanceWith(map[string]string{"security_ips": `[" 10.0.0.1"]`}),
			err: words(`" 10.0.0.1" is not an IPv4 address or CIDR block`)},
		{name: "list in one element", config: instanceWith(map[string]string{"security_ips": `["10.0.0.1,10.0.0.2"]`}),
			err: words(`"10.0.0.1,10.0.0.2" is not an IPv4 address or CIDR block`)},

		// restore_time.
		{name: "restore_time with a space", config: instanceWith(map[string]string{"restore_from": `{ source_instance_id = "rm-1", restore_time = "2025-06-01 08:00:00" }`}),
			err: words("Attribute restore_from.restore_time must be UTC yyyy-MM-ddTHH:mm:ssZ; got: 2025-06-01 08:00:00.", "Write it as e.g. 2025-06-01T08:00:00Z.")},
		{name: "restore_time with an offset", config: instanceWith(map[string]string{"restore_from": `{ source_instance_id = "rm-1", restore_time = "2025-06-01T08:00:00+08:00" }`}),
			err: words("must be UTC yyyy-MM-ddTHH:mm:ssZ", "got: 2025-06-01T08:00:00+08:00")},
		{name: "restore_time that is not a date", config: instanceWith(map[string]string{"restore_from": `{ source_instance_id = "rm-1", restore_time = "2025-13-45T99:99:99Z" }`}),
			err: words("restore_from.restore_time", "2025-13-45T99:99:99Z")},

		// Provider block: endpoint.
		{name: "endpoint with a path", provider: provider("  endpoint = \"https://rds.example.com/api\"\n"), config: instanceWith(nil),
			err: words(`endpoint "https://rds.example.com/api" must be a host with an optional port, without path or query`)},
		{name: "endpoint with a bad scheme", provider: provider("  endpoint = \"ftp://rds.example.com\"\n"), config: instanceWith(nil),
			err: words(`endpoint "ftp://rds.example.com": scheme must be https or http`)},
		{name: "endpoint that is not a URL", provider: provider("  endpoint = \"https://[::1\"\n"), config: instanceWith(nil),
			err: words("endpoint is not a valid URL", "missing ']' in host")},
		{name: "endpoint with user info", provider: provider("  endpoint = \"https://user:pw@rds.example.com\"\n"), config: instanceWith(nil),
			err: words("endpoint must not contain user information")},
		{name: "plain http on a remote host", provider: provider("  endpoint = \"http://rds.example.com\"\n"), config: instanceWith(nil),
			err: words(`endpoint "http://rds.example.com" uses plain http on a non-loopback host; use https, or set insecure to allow it`)},
		{name: "plain http on a remote host, insecure false", provider: provider("  endpoint = \"http://10.1.2.3:8080\"\n  insecure = false\n"), config: instanceWith(nil),
			err: words(`endpoint "http://10.1.2.3:8080" uses plain http on a non-loopback host`)},
		{name: "malformed region", provider: provider("  endpoint = \"" + env.srv.URL + "\"\n  region = \"CN Hangzhou\"\n"), config: instanceWith(nil),
			err: words(`region "CN Hangzhou" is not a valid region id (like cn-hangzhou)`)},
	}

	var steps []resource.TestStep
	for _, c := range cases {
		prov := c.provider
		if prov == "" {
			prov = env.providerBlock()
		}
		steps = append(steps, resource.TestStep{
			Config:      prov + c.config,
			PlanOnly:    true,
			ExpectError: c.err,
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	if n := env.mutations(); n != 0 {
		t.Errorf("hostile configurations sent %d mutating requests; want 0 (%v)", n, env.sim.Stats().Requests)
	}
}

// http on a remote host is accepted when insecure = true is explicit (for test set-ups), and the
// secret never shows in a configuration error.
func TestProviderConfigureInsecureAndSecretFreeErrors(t *testing.T) {
	clearCredentialEnv(t)
	secret := "hostile-secret-value-0123456789"
	ok := configureProvider(t, map[string]tftypes.Value{
		"endpoint":   tftypes.NewValue(tftypes.String, "http://rds.example.com"),
		"insecure":   tftypes.NewValue(tftypes.Bool, true),
		"access_key": tftypes.NewValue(tftypes.String, "id"),
		"secret_key": tftypes.NewValue(tftypes.String, secret),
	})
	if ok.Diagnostics.HasError() {
		t.Fatalf("insecure = true must allow plain http: %v", ok.Diagnostics)
	}
	for name, values := range map[string]map[string]tftypes.Value{
		"bad endpoint": {"endpoint": tftypes.NewValue(tftypes.String, "http://rds.example.com"),
			"access_key": tftypes.NewValue(tftypes.String, "id"), "secret_key": tftypes.NewValue(tftypes.String, secret)},
		"secret without id": {"secret_key": tftypes.NewValue(tftypes.String, secret)},
		"bad region": {"region": tftypes.NewValue(tftypes.String, "not a region"),
			"access_key": tftypes.NewValue(tftypes.String, "id"), "secret_key": tftypes.NewValue(tftypes.String, secret)},
		"missing profile with keys": {"profile": tftypes.NewValue(tftypes.String, "nope"),
			"access_key": tftypes.NewValue(tftypes.String, "id"), "secret_key": tftypes.NewValue(tftypes.String, secret)},
	} {
		resp := configureProvider(t, values)
		if !resp.Diagnostics.HasError() {
			t.Errorf("%s: expected an error", name)
			continue
		}
		for _, d := range resp.Diagnostics {
			if strings.Contains(d.Summary()+d.Detail(), secret) {
				t.Errorf("%s: the diagnostic shows the secret: %s: %s", name, d.Summary(), d.Detail())
			}
		}
	}
}
