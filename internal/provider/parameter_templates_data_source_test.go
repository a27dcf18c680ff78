package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type parameterTemplateItem struct {
	Name            string `tfsdk:"name"`
	DefaultValue    string `tfsdk:"default_value"`
	AllowedValues   string `tfsdk:"allowed_values"`
	RestartRequired bool   `tfsdk:"restart_required"`
	Description     string `tfsdk:"description"`
}

func TestParameterTemplatesDataSource(t *testing.T) {
	env := newTestEnv(t, testSimOptions())
	read := func(version string) ([]parameterTemplateItem, diag.Diagnostics) {
		state, diags := dsRead(t, env, NewParameterTemplatesDataSource(), map[string]tftypes.Value{
			"engine": tftypes.NewValue(tftypes.String, "MySQL"), "engine_version": tftypes.NewValue(tftypes.String, version),
		})
		if diags.HasError() {
			return nil, diags
		}
		var m parameterTemplatesModel
		if d := state.Get(context.Background(), &m); d.HasError() {
			t.Fatal(d)
		}
		var items []parameterTemplateItem
		if d := m.Parameters.ElementsAs(context.Background(), &items, false); d.HasError() {
			t.Fatal(d)
		}
		return items, nil
	}
	items, diags := read("8.0")
	if diags.HasError() {
		t.Fatalf("read: %v", diags)
	}
	byName := map[string]parameterTemplateItem{}
	for i, it := range items {
		if i > 0 && items[i-1].Name >= it.Name {
			t.Fatalf("not sorted at %s", it.Name)
		}
		byName[it.Name] = it
	}
	if len(items) < 40 {
		t.Fatalf("%d modifiable parameters, want at least 40", len(items))
	}
	if it := byName["innodb_io_capacity"]; it.RestartRequired || it.AllowedValues == "" || it.DefaultValue == "" {
		t.Errorf("innodb_io_capacity: %+v", it)
	}
	if it := byName["innodb_read_io_threads"]; !it.RestartRequired {
		t.Errorf("innodb_read_io_threads must need a restart: %+v", it)
	}
	if it := byName["innodb_buffer_pool_size"]; it.DefaultValue != "{DBInstanceClassMemory*3/4}" {
		t.Errorf("innodb_buffer_pool_size default: %+v", it)
	}
	for _, managed := range []string{"innodb_doublewrite", "innodb_page_size", "lower_case_table_names"} {
		if _, listed := byName[managed]; listed {
			t.Errorf("%s is not modifiable on 8.0 and must not be listed", managed)
		}
	}
	// A second read of the same template is served from the cache: one API call in all.
	if _, diags := read("8.0"); diags.HasError() {
		t.Fatal(diags)
	}
	if n := env.requests("DescribeParameterTemplates"); n != 1 {
		t.Errorf("two reads of one template made %d DescribeParameterTemplates calls, want 1", n)
	}
	if _, diags := read("5.6"); !diags.HasError() {
		t.Error("a version without a template must be an error")
	}
}
