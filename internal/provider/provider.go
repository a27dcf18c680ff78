// Package provider is the rds Terraform provider on terraform-plugin-framework: schemas, the
// mapping between Terraform values and rdsservice's types, and the calls to plan and execute.
// The planner, the rule table and the replacement table in rdsservice decide, and this package
// turns their decision into diagnostics and state: an instance's plan is converted into
// rdsservice.AttrValues and its planned values back, by attribute name (attr_codec.go).
//
// Entry points:
//   - [New] returns the provider factory (main.go serves it; the acceptance tests use it too).
//     [RDSProvider.Configure] resolves credentials, region and endpoint (provider.go) and hands
//     [ProviderData] (the rdsapi client, the waiter, per-run caches) to every resource.
//   - Resources: rds_instance (instance_resource.go; its schema, model and ModifyPlan in
//     instance_schema.go, instance_model.go, instance_modifyplan.go), rds_readonly_instance
//     (readonly_instance_resource.go); both share one ModifyPlan (modifyplan.go): one call to
//     rdsservice.PlanInstance, its rdsservice.PlannedAttrs written back; rds_account, rds_database and
//     rds_account_privilege (account_resource.go, database_resource.go, account_privilege_resource.go: one
//     skeleton, access_resource.go, whose applies run rdsservice.PlanAccess and ExecuteAccess through
//     access_apply.go).
//   - Data sources: rds_instance and rds_instances (instance_data_source.go,
//     instances_data_source.go), rds_accounts and rds_databases (one implementation,
//     access_list_data_source.go), rds_parameter_templates.
//   - Backups: rds_backup (backup_resource.go, with its create journal in backup_journal.go),
//     rds_backup_policy (backup_policy_resource.go), the rds_backups data source.
//   - Actions (Terraform 1.14+): rds_restart, rds_switchover, rds_backup_now and rds_apply_pending
//     ([RDSProvider.Actions], actions.go); list resources for `terraform query`
//     ([RDSProvider.ListResources], list_resources.go); `moved` from alicloud (moved_alicloud.go).
//   - In each resource, ValidateConfig and ModifyPlan build rdsservice's input and show its
//     decision (addProblems turns rule-table problems into diagnostics); Create, Update and
//     Delete run the operations through rdsservice. Which changes replace a resource is
//     rdsservice's replacement table: the schemas' RequiresReplace modifiers are built from it
//     and ModifyPlan sets the conditional ones (replacement.go).
//
// Diagnostics: the summary is a short sentence-case title ("Invalid import id", "RDS instance
// not found"); the detail names the attribute, the value and the fix. Rule-table rows follow
// the same style, so a message reads the same wherever it is raised.
package provider

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/aliyun/credentials-go/credentials/providers"
	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
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
	// Bounds of max_retries and max_requests_per_second, stated in their descriptions.
	minMaxRetries, maxMaxRetries               = 0, 100
	minRequestsPerSecond, maxRequestsPerSecond = 0.1, 10000.0
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
	// clock is what the client signs requests with and the waiter waits on: one clock, so that a
	// wait moves the signing time with it (rdsapi.Config.Now); nil: the real one.
	clock rdsservice.Clock
}

// ProviderData is what resources receive from Configure. Resources depend only on the API
// interface, so tests can hand them any implementation.
type ProviderData struct {
	API    rdsapi.API
	Region string
	Waiter *rdsservice.Waiter
	// Journal records the creates in flight in this working directory (issue 29; nil: none).
	Journal *rdsservice.CreateJournal
	// classes caches DescribeAvailableClasses, DescribeAvailableZones and ListClasses for plan-time
	// class checks and the discovery data sources (rdsservice/catalogue.go).
	classes rdsservice.Catalogue
	// parameterTemplates caches DescribeParameterTemplates for plan-time parameter checks.
	parameterTemplates rdsservice.TemplateCache
	// plans is what this run's plans decided so far, for the plans that follow (rdsservice.Ledger).
	plans rdsservice.Ledger
	// tasks are the region's spec changes waiting for a maintenance window (pending_change.go).
	tasks regionTasks
	// unknownSettings names the provider settings not known at plan (built from another resource's
	// attribute). Set only on the data sources' copy, whose API is then nil; requireConfigured
	// reports them.
	unknownSettings []string
	// observe, when set, sees each decision the planner hands ModifyPlan: the plan-versus-apply
	// oracle reads planned restarts, guards and rule ids from it rather than from message text.
	observe func(rdsservice.Decision)
	// defaultTags is default_tags; tagReads batches the tag reads of concurrent refreshes (tags.go).
	defaultTags providerDefaultTags
	tagReads    rdsservice.TagReader
}

// decided passes dec to the observer, if any.
func (d *ProviderData) decided(dec rdsservice.Decision) {
	if d != nil && d.observe != nil {
		d.observe(dec)
	}
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
			"default_tags": defaultTagsAttribute(),
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
			"max_retries": schema.NumberAttribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Retries of one API call on throttling, server errors and connection "+
					"failures: a whole number from %d to %d (default %d); one call, all its attempts included, gets at most %s. "+
					"Creates, which carry a `ClientToken`, are resent with the same token beyond this until the resource's "+
					"`timeouts.create`. Waits for the instance are bounded by the resource's `timeouts`.",
					minMaxRetries, maxMaxRetries, defaultMaxRetries, rdsapi.DefaultCallTimeout),
				// A Number, not an Int64: the framework cannot convert 2.5 to an Int64 and reports it as a
				// provider bug; this validator names the attribute and the value instead.
				Validators: []validator.Number{wholeNumberBetween{lo: minMaxRetries, hi: maxMaxRetries, fallback: defaultMaxRetries}},
			},
			"max_requests_per_second": schema.Float64Attribute{
				Optional: true,
				MarkdownDescription: "Ceiling on the calls per second of each RDS API action from this provider, from " +
					fmt.Sprint(minRequestsPerSecond) + " to " + fmt.Sprint(maxRequestsPerSecond) + " (fractions allowed). Alibaba " +
					"Cloud limits each action per account and region; unset, the provider paces every action at the " +
					"rate the cloud lets through, lowering it on a throttling answer and raising it again after quiet " +
					"seconds. Set it to leave quota to other users of the account; below it the provider still adapts.",
				Validators: []validator.Float64{float64validator.Between(minRequestsPerSecond, maxRequestsPerSecond)},
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
	MaxRetries    types.Number `tfsdk:"max_retries"`

	MaxRequestsPerSecond types.Float64 `tfsdk:"max_requests_per_second"`
	DefaultTags          types.Map     `tfsdk:"default_tags"`
}

// Configure builds the credential and the API client and hands them to resources.
func (p *RDSProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if pending := settingsNotYetKnown(cfg); len(pending) > 0 {
		tflog.Debug(ctx, "provider configuration not yet known; deferring client set-up", map[string]any{"attributes": pending})
		// Data sources are read during plan and can only fail: they get the names to report. Resources
		// get nothing, so their plan checks wait for the apply, which configures the provider again.
		resp.DataSourceData = &ProviderData{unknownSettings: pending}
		return
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

	clock := p.clock
	if clock == nil {
		clock = rdsservice.RealClock{}
	}
	ccfg := clientConfig(settings, cred, cfg, p.userAgent(req.TerraformVersion))
	ccfg.Now = clock.Now
	client, err := rdsapi.New(ccfg)
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
			Clock:       clock,
			MinInterval: waiterMinInterval,
			MaxInterval: waiterMaxInterval,
		},
		Journal: openJournal(),
	}
	data.defaultTags = defaultTagsOf(ctx, cfg.DefaultTags, &resp.Diagnostics)
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData, resp.ActionData = data, data // list resources (list_resources.go), actions (actions.go)
}

// settingsNotYetKnown names the provider settings not known yet. Values computed from other
// resources are not known during validate/plan of a fresh configuration; the framework calls
// Configure again at apply time with them.
func settingsNotYetKnown(cfg providerModel) []string {
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
	var pending []string
	for _, u := range unknown {
		if u.unknown {
			pending = append(pending, u.name)
		}
	}
	return pending
}

// userAgent names this provider's version and, when known, Terraform's.
func (p *RDSProvider) userAgent(terraformVersion string) string {
	userAgent := "terraform-provider-rds/" + p.version
	if terraformVersion != "" {
		userAgent += " terraform/" + terraformVersion
	}
	return userAgent
}

// clientConfig is the API client's configuration from the resolved settings.
func clientConfig(settings settings, cred credentials.Credential, cfg providerModel, userAgent string) rdsapi.Config {
	return rdsapi.Config{
		RegionID:         settings.region,
		Endpoint:         settings.endpoint,
		Insecure:         settings.insecure,
		Credentials:      cred,
		CredentialSource: settings.credentialSource(),
		MaxRetries:       settings.maxRetries,
		UserAgent:        userAgent,
		// One pacer per client: every resource of this provider process shares it.
		MaxRequestsPerSecond: cfg.MaxRequestsPerSecond.ValueFloat64(),
	}
}

// Resources lists the provider's resources.
func (p *RDSProvider) Resources(_ context.Context) []func() resource.Resource {
	return withIdentity( // identity.go
		NewInstanceResource, NewReadonlyInstanceResource,
		NewAccountResource, NewDatabaseResource, NewAccountPrivilegeResource,
		NewBackupPolicyResource, NewBackupResource, NewParameterGroupResource, NewDBProxyResource, NewDBProxyEndpointResource,
		NewWhitelistTemplateResource,
	)
}

// DataSources lists the provider's data sources.
func (p *RDSProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewInstanceDataSource, NewInstancesDataSource,
		NewAccountsDataSource, NewDatabasesDataSource, NewParameterTemplatesDataSource, NewParameterGroupsDataSource, NewZonesDataSource, NewInstanceClassesDataSource,
		NewBackupsDataSource,
		NewCrossRegionBackupsDataSource,
	}
}

// settings is the provider configuration after environment fallbacks.
type settings struct {
	region, accessKey, secretKey, securityToken, profile, endpoint string
	insecure                                                       bool
	maxRetries                                                     int
	// profileExplicit says the profile came from the attribute or ALIBABA_CLOUD_PROFILE.
	profileExplicit bool
	// Where each credential setting came from, for errors that refuse the credentials.
	accessKeyFrom, secretKeyFrom, securityTokenFrom, profileFrom string
}

// usesStaticKeys says buildCredential takes the AccessKey pair rather than a CLI profile.
func (s settings) usesStaticKeys() bool {
	return s.accessKey != "" && s.secretKey != "" && !s.profileExplicit
}

// credentialSource names where the credentials buildCredential picks come from, so that an
// answer refusing them points at the setting to fix.
func (s settings) credentialSource() string {
	if s.usesStaticKeys() {
		source := fmt.Sprintf("%s (AccessKey ID) and %s (secret)", s.accessKeyFrom, s.secretKeyFrom)
		if s.securityToken != "" {
			source += ", with " + s.securityTokenFrom + " (STS token)"
		}
		return source
	}
	if s.profileExplicit {
		return fmt.Sprintf("the Alibaba Cloud CLI profile %q (named by %s) in %s", s.profile, s.profileFrom, cliProfileFile())
	}
	return "the current profile of the Alibaba Cloud CLI in " + cliProfileFile()
}

// cliProfileFile is the CLI's configuration file: ALIBABA_CLOUD_CONFIG_FILE, else ~/.aliyun/config.json.
func cliProfileFile() string {
	if file := os.Getenv("ALIBABA_CLOUD_CONFIG_FILE"); file != "" {
		return file
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".aliyun", "config.json")
	}
	return ""
}

func stringOr(v types.String, getenv func(string) string, names []string) string {
	value, _ := stringFrom(v, "", getenv, names)
	return value
}

// stringFrom is stringOr that also says where the value came from: the attribute, or the
// environment variable that set it ("" when unset).
func stringFrom(v types.String, attribute string, getenv func(string) string, names []string) (value, from string) {
	if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
		return v.ValueString(), "`" + attribute + "` in the provider block"
	}
	for _, n := range names {
		if value := strings.TrimSpace(getenv(n)); value != "" {
			return value, "the environment variable " + n
		}
	}
	return "", ""
}

func resolveSettings(cfg providerModel, getenv func(string) string) settings {
	s := settings{
		region:     stringOr(cfg.Region, getenv, envRegion),
		endpoint:   stringOr(cfg.Endpoint, getenv, envEndpoint),
		insecure:   cfg.Insecure.ValueBool(),
		maxRetries: defaultMaxRetries,
	}
	s.accessKey, s.accessKeyFrom = stringFrom(cfg.AccessKey, "access_key", getenv, envAccessKey)
	s.secretKey, s.secretKeyFrom = stringFrom(cfg.SecretKey, "secret_key", getenv, envSecretKey)
	s.securityToken, s.securityTokenFrom = stringFrom(cfg.SecurityToken, "security_token", getenv, envSecurityToken)
	s.profile, s.profileFrom = stringFrom(cfg.Profile, "profile", getenv, envProfile)
	s.profileExplicit = s.profile != ""
	if s.region == "" {
		s.region = defaultRegion
	}
	if isKnown(cfg.MaxRetries) {
		n, _ := cfg.MaxRetries.ValueBigFloat().Int64() // whole and bounded: wholeNumberBetween checked it
		s.maxRetries = int(n)
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
	case s.usesStaticKeys():
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
		return nil, "secret_key", fmt.Errorf("an AccessKey ID is set (by %s) but its secret is not. %s", s.accessKeyFrom, credentialHelp)
	case s.accessKey == "" && s.secretKey != "" && !s.profileExplicit:
		return nil, "access_key", fmt.Errorf("an AccessKey secret is set (by %s) but its ID is not. %s", s.secretKeyFrom, credentialHelp)
	}

	// CLI profile: explicitly named, or the CLI's current profile when a config file exists.
	file := cliProfileFile()
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

// wholeNumberBetween accepts whole numbers in [lo, hi]: what max_retries takes (fallback is its
// default, offered as the fix).
type wholeNumberBetween struct{ lo, hi, fallback int64 }

func (v wholeNumberBetween) Description(context.Context) string {
	return fmt.Sprintf("a whole number from %d to %d", v.lo, v.hi)
}

func (v wholeNumberBetween) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v wholeNumberBetween) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if !isKnown(req.ConfigValue) {
		return
	}
	f := req.ConfigValue.ValueBigFloat()
	n, accuracy := f.Int64()
	addProblemsAt(&resp.Diagnostics, req.Path, rdsservice.CheckWholeNumber(req.Path.String(), f.Text('g', -1), accuracy == big.Exact, n, v.lo, v.hi, v.fallback))
}
