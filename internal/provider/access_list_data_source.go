package provider

import (
	"context"
	"fmt"
	"regexp"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// accessListing describes one list of an instance's accounts or databases: rds_accounts and
// rds_databases are the same data source over different items.
type accessListing[T any] struct {
	plural      string // "accounts": the list attribute and the noun in descriptions
	call        string // the API action that lists them, for error messages
	description string
	item        schema.NestedAttributeObject
	list        func(ctx context.Context, api rdsapi.API, instanceID string) ([]T, error)
	name        func(T) string
	object      func(T, *diag.Diagnostics) map[string]attr.Value
}

// accessListDataSource lists the items of an instance, sorted by name and filtered by name_regex.
type accessListDataSource[T any] struct {
	accessListing[T]
	dataSourceBase
}

func (d *accessListDataSource[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: d.description,
		Attributes: map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{
				Required: true, MarkdownDescription: "Id of the instance (primary `rm-…` or read-only `rr-…`).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name_regex": schema.StringAttribute{
				Optional: true, MarkdownDescription: fmt.Sprintf("Keep only %s whose name matches this regular expression.", d.plural),
				Validators: []validator.String{regexValidator{}},
			},
			"names": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: fmt.Sprintf("Names of the %s, sorted.", d.plural)},
			d.plural: schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: fmt.Sprintf("The %s, sorted by name.", d.plural),
				NestedObject:        d.item,
			},
		},
	}
}

func (d *accessListDataSource[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var instanceID, nameRegex types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("instance_id"), &instanceID)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name_regex"), &nameRegex)...)
	if resp.Diagnostics.HasError() {
		return
	}
	nameRE := compileNameRegex(nameRegex, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := instanceID.ValueString()
	items, err := d.list(ctx, d.data.API, id)
	if rdsapi.IsNotFound(err) {
		// The same words as the rds_instance data source, on this data source's attribute.
		notFound := rdsservice.Raise(rdsservice.RuleDataSourceNotFound, id, id, d.data.Region)
		notFound.Attribute = "instance_id"
		addProblems(&resp.Diagnostics, []rdsservice.Problem{notFound})
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error listing RDS "+d.plural, fmt.Sprintf("%s on %s: %v", d.call, id, err))
		return
	}
	sort.Slice(items, func(i, j int) bool { return d.name(items[i]) < d.name(items[j]) })

	var names []string
	objects := []attr.Value{}
	objectType := types.ObjectType{AttrTypes: map[string]attr.Type{}}
	for name, a := range d.item.Attributes {
		objectType.AttrTypes[name] = a.GetType()
	}
	for _, it := range items {
		if nameRE != nil && !nameRE.MatchString(d.name(it)) {
			continue
		}
		names = append(names, d.name(it))
		obj, diags := types.ObjectValue(objectType.AttrTypes, d.object(it, &resp.Diagnostics))
		resp.Diagnostics.Append(diags...)
		objects = append(objects, obj)
	}
	list, diags := types.ListValue(objectType, objects)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), instanceID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name_regex"), nameRegex)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("names"), stringListValue(names, &resp.Diagnostics))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(d.plural), list)...)
}

// grantList is the nested list of an account's or a database's grants.
func grantList(attrTypes map[string]attr.Type, grants []map[string]attr.Value, diags *diag.Diagnostics) types.List {
	objects := make([]attr.Value, 0, len(grants))
	for _, g := range grants {
		obj, d := types.ObjectValue(attrTypes, g)
		diags.Append(d...)
		objects = append(objects, obj)
	}
	list, d := types.ListValue(types.ObjectType{AttrTypes: attrTypes}, objects)
	diags.Append(d...)
	return list
}

// compileNameRegex compiles an optional name_regex (its validator refused bad ones already).
func compileNameRegex(v types.String, diags *diag.Diagnostics) *regexp.Regexp {
	if !isKnown(v) {
		return nil
	}
	if problems := rdsservice.CheckRegex(v.ValueString()); len(problems) > 0 {
		addProblems(diags, problems)
		return nil
	}
	return regexp.MustCompile(v.ValueString())
}
