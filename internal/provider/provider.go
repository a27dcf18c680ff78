// Package provider implements the rds Terraform provider: provider configuration (credentials,
// region, endpoint) and the rds_instance resource.
package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/aliyun/credentials-go/credentials/providers"
	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Environment variables the provider reads when an attribute is not set, in order of preference.
var (
	envAccessKey     = []string{"ALIBABA_CLOUD_ACCESS_KEY_ID", "ALICLOUD_ACCESS_KEY"}
	envSecretKey     = []string{"ALIBABA_CLOUD_ACCESS_KEY_SECRET", "ALICLOUD_SECRET_KEY"}
	envSecurityToken = []string{"ALIBABA_CLOUD_SECURITY_TOKEN", "ALICLOUD_SECURITY_TOKEN"}
	envRegion        = []string{"ALIBABA_CLOUD_REGION", "ALICLOUD_REGION"}
	envProfile       = []string{"ALIBABA_CLOUD_PROFILE"}
	envEndpoint      = []string{"ALIBABA_CLOUD_RDS_ENDPOINT"}
)

const (
	defaultRegion     = "cn-hangzhou"
	defaultMaxRetries = 5
	// Poll bounds for every wait; the deadline comes from the resource's timeouts.
	waiterMinInterval = 500 * time.Millisecond
	waiterMaxInterval = 15 * time.Second
)

var _ provider.Provider = (*RDSProvider)(nil)

// New returns the provider factory that providerserver.Serve and the acceptance tests use.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &RDSProvider{version: version}
	}
}

// RDSProvider is the rds provider.
type RDSProvider struct {
	version string
}

// ProviderData is what resources receive from Configure. Resources depend only on the API
// interface, so tests can hand them any implementation.
type ProviderData struct {
	API    rdsapi.API
	Region string
	Waiter *rdsservice.Waiter
	// classes caches DescribeAvailableClasses for plan-time class checks.
	classes classCatalogue
	// parameterTemplates caches DescribeParameterTemplates for plan-time parameter checks.
	parameterTemplates parameterTemplateCache
	// plans remembers the primaries' planned atomic_write_16k of this run (read-only plans use it).
	plans plannedPrimaries
}

// Metadata returns the provider type name.
func (p *RDSProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "rds"
	resp.Version = p.version
}

// Schema defines the provider configuration.
func (p *RDSProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages ApsaraDB RDS (Alibaba Cloud) instances, including 16K atomic write, with " +
			"plan-time eligibility checks and restart warnings.\n\n" +
			"Credentials are taken, in order, from `access_key`/`secret_key` (plus `security_token` for STS), " +
			"the environment variables `ALIBABA_CLOUD_ACCESS_KEY_ID`/`ALIBABA_CLOUD_ACCESS_KEY_SECRET` " +
			"(`ALIBABA_CLOUD_SECURITY_TOKEN`) or the older `ALICLOUD_ACCESS_KEY`/`ALICLOUD_SECRET_KEY` " +
			"(`ALICLOUD_SECURITY_TOKEN`), and finally an Alibaba Cloud CLI profile in `~/.aliyun/config.json`.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Region of the instances, e.g. `cn-hangzhou`. Falls back to `ALIBABA_CLOUD_REGION`, " +
					"then `ALICLOUD_REGION`, then `" + defaultRegion + "`. A region RDS does not offer is a configuration " +
					"error that lists the valid ones (`DescribeRegions`).",
			},
			"access_key": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "AccessKey ID. Falls back to `ALIBABA_CLOUD_ACCESS_KEY_ID`, then `ALICLOUD_ACCESS_KEY`. " +
					"Set it together with `secret_key`.",
			},
			"secret_key": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "AccessKey secret. Falls back to `ALIBABA_CLOUD_ACCESS_KEY_SECRET`, then " +
					"`ALICLOUD_SECRET_KEY`.",
			},
			"security_token": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "STS security token for temporary credentials. Falls back to " +
					"`ALIBABA_CLOUD_SECURITY_TOKEN`, then `ALICLOUD_SECURITY_TOKEN`.",
			},
			"profile": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Name of an Alibaba Cloud CLI profile in `~/.aliyun/config.json` (or the file named by " +
					"`ALIBABA_CLOUD_CONFIG_FILE`). Used when set, or when no keys are given. Falls back to " +
					"`ALIBABA_CLOUD_PROFILE`, then the CLI's current profile.",
			},
			"endpoint": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Override of the RDS API endpoint: a host, `https://host[:port]`, or " +
					"`http://127.0.0.1:port` for a local simulator. Falls back to `ALIBABA_CLOUD_RDS_ENDPOINT`; by " +
					"default the regional endpoint is used.",
			},
			"insecure": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Allow a plain-http `endpoint` on a host other than loopback. Only for test " +
					"set-ups; never with real credentials.",
			},
			"max_retries": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Retries of one API call on throttling, server errors and connection "+
					"failures (default %d); one call, all its attempts included, gets at most %s. Creates, which carry a "+
					"`ClientToken`, are resent with the same token beyond this until the resource's `timeouts.create`. Waits "+
					"for the instance are bounded by the resource's `timeouts`.", defaultMaxRetries, rdsapi.DefaultCallTimeout),
				Validators: []validator.Int64{int64validator.Between(0, 100)},
			},
			"max_requests_per_second": schema.Float64Attribute{
				Optional: true,
				MarkdownDescription: "Ceiling on the calls per second of each RDS API action from this provider. Alibaba " +
					"Cloud limits each action per account and region; unset, the provider paces every action at the " +
					"rate the cloud lets through, lowering it on a throttling answer and raising it again after quiet " +
					"seconds. Set it to leave quota to other users of the account; below it the provider still adapts.",
				Validators: []validator.Float64{float64validator.Between(0.1, 10000)},
			},
		},
	}
}

// providerModel maps the provider configuration.
type providerModel struct {
	Region        types.String `tfsdk:"region"`
	AccessKey     types.String `tfsdk:"access_key"`
	SecretKey     types.String `tfsdk:"secret_key"`
	SecurityToken types.String `tfsdk:"security_token"`
	Profile       types.String `tfsdk:"profile"`
	Endpoint      types.String `tfsdk:"endpoint"`
	Insecure      types.Bool   `tfsdk:"insecure"`
	MaxRetries    types.Int64  `tfsdk:"max_retries"`

	MaxRequestsPerSecond types.Float64 `tfsdk:"max_requests_per_second"`
}

// Configure builds the credential and the API client and hands them to resources.
func (p *RDSProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	// Values computed from other resources are not known during validate/plan of a fresh
	// configuration; the framework calls Configure again at apply time with them.
	unknown := []struct {
		name    string
		unknown bool
	}{
		{"region", cfg.Region.IsUnknown()}, {"access_key", cfg.AccessKey.IsUnknown()},
		{"secret_key", cfg.SecretKey.IsUnknown()}, {"security_token", cfg.SecurityToken.IsUnknown()},
		{"profile", cfg.Profile.IsUnknown()}, {"endpoint", cfg.Endpoint.IsUnknown()},
		{"insecure", cfg.Insecure.IsUnknown()}, {"max_retries", cfg.MaxRetries.IsUnknown()},
		{"max_requests_per_second", cfg.MaxRequestsPerSecond.IsUnknown()},
	}
	for _, u := range unknown {
		if u.unknown {
			tflog.Debug(ctx, "provider configuration not yet known; deferring client set-up", map[string]any{"attribute": u.name})
			return
		}
	}

	settings := resolveSettings(cfg, os.Getenv)
	cred, diagPath, err := buildCredential(settings)
	if err != nil {
		if diagPath == "" {
			resp.Diagnostics.AddError("Missing or unusable RDS credentials", err.Error())
		} else {
			resp.Diagnostics.AddAttributeError(path.Root(diagPath), "Missing or unusable RDS credentials", err.Error())
		}
		return
	}

	userAgent := "terraform-provider-rds/" + p.version
	if req.TerraformVersion != "" {
		userAgent += " terraform/" + req.TerraformVersion
	}
	client, err := rdsapi.New(rdsapi.Config{
		RegionID:    settings.region,
		Endpoint:    settings.endpoint,
		Insecure:    settings.insecure,
		Credentials: cred,
		MaxRetries:  settings.maxRetries,
		UserAgent:   userAgent,
		// One pacer per client: every resource of this provider process shares it.
		MaxRequestsPerSecond: cfg.MaxRequestsPerSecond.ValueFloat64(),
	})
	if err != nil {
		resp.Diagnostics.AddError("Invalid RDS provider configuration", err.Error())
		return
	}
	if err := checkRegion(ctx, settings, cred, client); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("region"), "Unknown RDS region", err.Error())
		return
	}

	data := &ProviderData{
		API:    client,
		Region: settings.region,
		Waiter: &rdsservice.Waiter{
			API:         client,
			Clock:       rdsservice.RealClock{},
			MinInterval: waiterMinInterval,
			MaxInterval: waiterMaxInterval,
		},
	}
	resp.ResourceData = data
	resp.DataSourceData = data
}

// Resources lists the provider's resources.
func (p *RDSProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewInstanceResource, NewReadonlyInstanceResource,
		NewAccountResource, NewDatabaseResource, NewAccountPrivilegeResource,
		NewBackupPolicyResource, NewBackupResource,
	}
}

// DataSources lists the provider's data sources.
func (p *RDSProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewInstanceDataSource, NewInstancesDataSource,
		NewAccountsDataSource, NewDatabasesDataSource, NewParameterTemplatesDataSource,
		NewBackupsDataSource,
	}
}

// settings is the provider configuration after environment fallbacks.
type settings struct {
	region, accessKey, secretKey, securityToken, profile, endpoint string
	insecure                                                       bool
	maxRetries                                                     int
	// profileExplicit says the profile came from the attribute or ALIBABA_CLOUD_PROFILE.
	profileExplicit bool
}

func firstEnv(getenv func(string) string, names []string) string {
	for _, n := range names {
		if v := strings.TrimSpace(getenv(n)); v != "" {
			return v
		}
	}
	return ""
}

func stringOr(v types.String, getenv func(string) string, names []string) string {
	if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
		return v.ValueString()
	}
	return firstEnv(getenv, names)
}

func resolveSettings(cfg providerModel, getenv func(string) string) settings {
	s := settings{
		region:        stringOr(cfg.Region, getenv, envRegion),
		accessKey:     stringOr(cfg.AccessKey, getenv, envAccessKey),
		secretKey:     stringOr(cfg.SecretKey, getenv, envSecretKey),
		securityToken: stringOr(cfg.SecurityToken, getenv, envSecurityToken),
		profile:       stringOr(cfg.Profile, getenv, envProfile),
		endpoint:      stringOr(cfg.Endpoint, getenv, envEndpoint),
		insecure:      cfg.Insecure.ValueBool(),
		maxRetries:    defaultMaxRetries,
	}
	s.profileExplicit = s.profile != ""
	if s.region == "" {
		s.region = defaultRegion
	}
	if !cfg.MaxRetries.IsNull() {
		s.maxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	return s
}

const credentialHelp = "Set them in the provider block (`access_key` and `secret_key`, plus `security_token` for STS " +
	"credentials), or through the environment variables ALIBABA_CLOUD_ACCESS_KEY_ID and " +
	"ALIBABA_CLOUD_ACCESS_KEY_SECRET (ALIBABA_CLOUD_SECURITY_TOKEN for STS; the older ALICLOUD_ACCESS_KEY, " +
	"ALICLOUD_SECRET_KEY and ALICLOUD_SECURITY_TOKEN also work), or name an Alibaba Cloud CLI profile with " +
	"`profile` / ALIBABA_CLOUD_PROFILE."

// buildCredential picks static keys, STS or a CLI profile. It returns the attribute to blame
// ("" for the provider as a whole) with an error.
func buildCredential(s settings) (credentials.Credential, string, error) {
	switch {
	case s.accessKey != "" && s.secretKey != "" && !s.profileExplicit:
		if s.securityToken != "" {
			p, err := providers.NewStaticSTSCredentialsProviderBuilder().
				WithAccessKeyId(s.accessKey).WithAccessKeySecret(s.secretKey).WithSecurityToken(s.securityToken).Build()
			if err != nil {
				return nil, "security_token", fmt.Errorf("building STS credentials: %w", err)
			}
			return credentials.FromCredentialsProvider("sts", p), "", nil
		}
		p, err := providers.NewStaticAKCredentialsProviderBuilder().
			WithAccessKeyId(s.accessKey).WithAccessKeySecret(s.secretKey).Build()
		if err != nil {
			return nil, "access_key", fmt.Errorf("building AccessKey credentials: %w", err)
		}
		return credentials.FromCredentialsProvider("access_key", p), "", nil
	case s.accessKey != "" && s.secretKey == "" && !s.profileExplicit:
		return nil, "secret_key", fmt.Errorf("an AccessKey ID is set but its secret is not. %s", credentialHelp)
	case s.accessKey == "" && s.secretKey != "" && !s.profileExplicit:
		return nil, "access_key", fmt.Errorf("an AccessKey secret is set but its ID is not. %s", credentialHelp)
	}

	// CLI profile: explicitly named, or the CLI's current profile when a config file exists.
	file := os.Getenv("ALIBABA_CLOUD_CONFIG_FILE")
	if file == "" {
		if home, err := os.UserHomeDir(); err == nil {
			file = filepath.Join(home, ".aliyun", "config.json")
		}
	}
	if !s.profileExplicit {
		if _, err := os.Stat(file); file == "" || err != nil {
			return nil, "", fmt.Errorf("no credentials were found. %s", credentialHelp)
		}
	}
	p, err := providers.NewCLIProfileCredentialsProviderBuilder().WithProfileFile(file).WithProfileName(s.profile).Build()
	if err != nil {
		return nil, "profile", fmt.Errorf("reading the Alibaba Cloud CLI profile: %w. %s", err, credentialHelp)
	}
	// Resolve once now so a bad profile is a configure-time error, not an error on the first call.
	if _, err := p.GetCredentials(); err != nil {
		name := s.profile
		if name == "" {
			name = "(current)"
		}
		return nil, "profile", fmt.Errorf("the Alibaba Cloud CLI profile %q in %s gives no credentials: %w. %s", name, file, err, credentialHelp)
	}
	return credentials.FromCredentialsProvider("cli_profile", p), "", nil
}
