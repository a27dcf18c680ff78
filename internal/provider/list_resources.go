package provider

// List resources (Terraform 1.14+ `terraform query`): `list "rds_instance" "all" { provider = rds }`
// finds instances, accounts and databases the configuration does not manage yet, and
// `terraform query -generate-config-out=...` writes resource and import blocks for them. The fleet is
// listed through DescribeDBInstances, 100 instances a page, with the filters of the rds_instances data
// source; an item's full resource (asked for by -generate-config-out) is what an import followed by a
// refresh would store, made by the resource's own ImportState and Read, so the generated configuration
// plans exactly as an imported resource does.

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var _ provider.ProviderWithListResources = (*RDSProvider)(nil)

// ListResources lists the provider's list resources.
func (p *RDSProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		func() list.ListResource { return newInstanceLister("rds_instance", "Primary") },
		func() list.ListResource { return newInstanceLister("rds_readonly_instance", "Readonly") },
		func() list.ListResource { return newAccessLister("rds_account") },
		func() list.ListResource { return newAccessLister("rds_database") },
		// Every primary instance has one backup policy, keyed by the instance id.
		func() list.ListResource { return newInstanceLister("rds_backup_policy", "Primary") },
		newGroupLister,    // parameter_group_list.go
		newTemplateLister, // whitelist_template_list.go
		func() list.ListResource { return newProxyLister(proxyKind) },         // db_proxy_list.go
		func() list.ListResource { return newProxyLister(proxyEndpointKind) }, // db_proxy_list.go
	}
}

// lister is the skeleton every list resource shares, as the access data sources share
// accessListDataSource: F is its configuration, items finds the objects it lists.
type lister[F any] struct {
	data     *ProviderData
	typeName string
	schema   listschema.Schema
	items    func(ctx context.Context, data *ProviderData, f F, diags *diag.Diagnostics) []listedItem
}

func (l *lister[F]) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.typeName
}

func (l *lister[F]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = l.schema
}

func (l *lister[F]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, "list "+l.typeName, &resp.Diagnostics)
}

func (l *lister[F]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var f F
	if diags.Append(req.Config.Get(ctx, &f)...); diags.HasError() || !requireConfigured(l.data, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	items := l.items(ctx, l.data, f, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = listResults(ctx, req, l.data, l.typeName, items)
}

// eachPrimary is what itemsOf finds on the instance id names, or on every primary instance of the
// region when id is unset.
func eachPrimary(ctx context.Context, data *ProviderData, id types.String, diags *diag.Diagnostics, itemsOf func(string) []listedItem) []listedItem {
	instances := []string{id.ValueString()}
	if !isKnown(id) {
		instances = nil
		for _, it := range listFleet(ctx, data, instanceFilter{}, "Primary", diags) {
			instances = append(instances, it.DBInstanceID)
		}
	}
	var items []listedItem
	for _, id := range instances {
		if diags.HasError() {
			break
		}
		items = append(items, itemsOf(id)...)
	}
	return items
}

// listedItem is one object found: its import id, its identity's parts and its display name.
type listedItem struct {
	importID, display string
	identity          []string
}

// instanceFilter is the configuration of an instance list, the rds_instances data source's filters.
type instanceFilter struct {
	NameRegex types.String `tfsdk:"name_regex"`
	Engine    types.String `tfsdk:"engine"`
	Status    types.String `tfsdk:"status"`
	VpcID     types.String `tfsdk:"vpc_id"`
}

func instanceFilterAttributes() map[string]listschema.Attribute {
	return map[string]listschema.Attribute{
		"name_regex": listschema.StringAttribute{Optional: true, Validators: []validator.String{regexValidator{}},
			MarkdownDescription: "Regular expression (RE2) the instance description (`instance_name`) must match."},
		"engine": listschema.StringAttribute{Optional: true, Validators: []validator.String{anyCaseOneOf(listEngines)},
			MarkdownDescription: "Only instances of this engine: " + markdownList(listEngines) + " (any letter case)."},
		"status": listschema.StringAttribute{Optional: true, Validators: []validator.String{anyCaseOneOf(listStatuses)},
			MarkdownDescription: "Only instances in this status, e.g. `Running`."},
		"vpc_id": listschema.StringAttribute{Optional: true, MarkdownDescription: "Only instances in this VPC."},
	}
}

// listFleet pages through DescribeDBInstances (100 a page) with the filters, keeping instances
// of instanceType ("Primary" or "Readonly"; "" for both) whose description matches name_regex,
// sorted by id, each once.
func listFleet(ctx context.Context, data *ProviderData, f instanceFilter, instanceType string, diags *diag.Diagnostics) []rdsapi.DBInstanceSummary {
	nameRE := compileNameRegex(f.NameRegex, diags)
	if diags.HasError() {
		return nil
	}
	items, err := rdsservice.ListAllDBInstances(ctx, data.API, &rdsapi.DescribeDBInstancesRequest{
		RegionID: data.Region, DBInstanceType: instanceType,
		Engine:           canonicalSpelling(listEngines, f.Engine.ValueString()),
		DBInstanceStatus: canonicalSpelling(listStatuses, f.Status.ValueString()),
		VPCID:            f.VpcID.ValueString(),
	})
	if err != nil {
		diags.AddError("Error listing RDS instances", err.Error())
		return nil
	}
	byID := map[string]rdsapi.DBInstanceSummary{}
	for _, it := range items {
		byID[it.DBInstanceID] = it
	}
	var out []rdsapi.DBInstanceSummary
	for _, id := range matchedIDs(items, nameRE) {
		if it := byID[id]; instanceType == "" || it.DBInstanceType == "" || it.DBInstanceType == instanceType {
			out = append(out, it)
		}
	}
	return out
}

// newInstanceLister is the list resource of rds_instance, rds_readonly_instance or
// rds_backup_policy: the instances of instanceType ("Primary" or "Readonly").
func newInstanceLister(typeName, instanceType string) *lister[instanceFilter] {
	found := instanceType + " instances"
	if typeName == "rds_backup_policy" {
		found = "the backup policies of the primary instances"
	}
	return &lister[instanceFilter]{typeName: typeName, schema: listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds %s in the provider's region (`DescribeDBInstances`, 100 a page) "+
			"with the filters of the `rds_instances` data source, for `terraform query`.", found),
		Attributes: instanceFilterAttributes(),
	}, items: func(ctx context.Context, data *ProviderData, f instanceFilter, diags *diag.Diagnostics) []listedItem {
		var items []listedItem
		for _, it := range listFleet(ctx, data, f, instanceType, diags) {
			display := it.DBInstanceID
			if it.DBInstanceDescription != "" {
				display += " (" + it.DBInstanceDescription + ")"
			}
			items = append(items, listedItem{importID: it.DBInstanceID, display: display, identity: []string{it.DBInstanceID}})
		}
		return items
	}}
}

// accessFilter is the configuration of an account or database list.
type accessFilter struct {
	InstanceID types.String `tfsdk:"instance_id"`
	NameRegex  types.String `tfsdk:"name_regex"`
}

// newAccessLister is the list resource of rds_account or rds_database.
func newAccessLister(typeName string) *lister[accessFilter] {
	what := accessPlural(typeName)
	return &lister[accessFilter]{typeName: typeName, schema: listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds the %s of one primary instance, or of every primary instance in the region "+
			"(listed 100 a page), for `terraform query`.", what),
		Attributes: map[string]listschema.Attribute{
			"instance_id": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "The instance whose " + what + " to list; every primary instance of the region when unset."},
			"name_regex": listschema.StringAttribute{Optional: true, Validators: []validator.String{regexValidator{}},
				MarkdownDescription: "Regular expression (RE2) the name must match."},
		},
	}, items: func(ctx context.Context, data *ProviderData, f accessFilter, diags *diag.Diagnostics) []listedItem {
		nameRE := compileNameRegex(f.NameRegex, diags)
		if isKnown(f.InstanceID) {
			refuseReadOnlyHost(ctx, data, what, f.InstanceID.ValueString(), diags)
		}
		return eachPrimary(ctx, data, f.InstanceID, diags, func(id string) []listedItem {
			return accessNames(ctx, data, typeName, id, nameRE, diags)
		})
	}}
}

// accessPlural is "accounts" for rds_account, "databases" for rds_database.
func accessPlural(typeName string) string {
	if typeName == "rds_account" {
		return "accounts"
	}
	return "databases"
}

// accessNames lists the accounts or databases of one instance whose name matches nameRE.
func accessNames(ctx context.Context, data *ProviderData, typeName, instanceID string, nameRE *regexp.Regexp, diags *diag.Diagnostics) []listedItem {
	var names []string
	var err error
	if typeName == "rds_account" {
		var accounts []rdsapi.DBInstanceAccount
		accounts, err = rdsservice.ListAllAccounts(ctx, data.API, instanceID)
		for _, a := range accounts {
			names = append(names, a.AccountName)
		}
	} else {
		var databases []rdsapi.Database
		databases, err = rdsservice.ListAllDatabases(ctx, data.API, instanceID)
		for _, d := range databases {
			names = append(names, d.DBName)
		}
	}
	if err != nil {
		diags.AddError("Error listing RDS "+accessPlural(typeName), fmt.Sprintf("Instance %s: %v", instanceID, err))
		return nil
	}
	var items []listedItem
	for _, name := range names {
		if nameRE == nil || nameRE.MatchString(name) {
			items = append(items, listedItem{importID: instanceID + ":" + name, display: instanceID + "/" + name,
				identity: []string{instanceID, name}})
		}
	}
	return items
}

// listResults streams the items, at most req.Limit of them. With IncludeResource, each item's
// resource is the resource's own import and refresh of it; otherwise only its identity is set.
func listResults(ctx context.Context, req list.ListRequest, data *ProviderData, typeName string, items []listedItem) func(func(list.ListResult) bool) {
	return func(push func(list.ListResult) bool) {
		for i, it := range items {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = it.display
			for j, p := range identityOf[typeName] {
				result.Diagnostics.Append(result.Identity.SetAttribute(ctx, path.Root(p.name), it.identity[j])...)
			}
			if req.IncludeResource && !result.Diagnostics.HasError() {
				importAndRead(ctx, data, typeName, it.importID, &result)
			}
			if !push(result) {
				return
			}
		}
	}
}

// importAndRead fills result.Resource as `terraform import` followed by a refresh would: the
// resource's ImportState, then its Read.
func importAndRead(ctx context.Context, data *ProviderData, typeName, importID string, result *list.ListResult) {
	r := listedResource(typeName)
	var configured resource.ConfigureResponse
	r.Configure(ctx, resource.ConfigureRequest{ProviderData: data}, &configured)
	if result.Diagnostics.Append(configured.Diagnostics...); result.Diagnostics.HasError() {
		return
	}
	schema := result.Resource.Schema
	empty := tfsdk.State{Schema: schema, Raw: tftypes.NewValue(schema.Type().TerraformType(ctx), nil)}
	imported := resource.ImportStateResponse{State: empty, Identity: &tfsdk.ResourceIdentity{Schema: result.Identity.Schema, Raw: result.Identity.Raw.Copy()}}
	r.ImportState(ctx, resource.ImportStateRequest{ID: importID}, &imported)
	result.Diagnostics.Append(imported.Diagnostics...)
	if result.Diagnostics.HasError() {
		return
	}
	read := resource.ReadResponse{State: imported.State, Identity: imported.Identity}
	r.Read(ctx, resource.ReadRequest{State: imported.State, Identity: imported.Identity}, &read)
	result.Diagnostics.Append(read.Diagnostics...)
	if read.State.Raw.IsNull() {
		result.Diagnostics.AddWarning("Listed object is gone", fmt.Sprintf("%s %s was listed but was deleted before it could be read.", typeName, importID))
		return
	}
	result.Resource.Raw = read.State.Raw
	result.Identity = read.Identity
}

// listedResource is a new instance of the resource typeName, with its identity.
func listedResource(typeName string) *identifiedResource {
	newResource := map[string]func() resource.Resource{
		"rds_instance": NewInstanceResource, "rds_readonly_instance": NewReadonlyInstanceResource,
		"rds_account": NewAccountResource, "rds_database": NewDatabaseResource, "rds_backup_policy": NewBackupPolicyResource,
		parameterGroupKind:       NewParameterGroupResource,
		"rds_whitelist_template": NewWhitelistTemplateResource,
		proxyKind:                NewDBProxyResource, proxyEndpointKind: NewDBProxyEndpointResource,
	}[typeName]
	return &identifiedResource{Resource: newResource(), spec: identityOf[typeName]}
}
