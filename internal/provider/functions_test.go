package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// callFunction calls a provider function over the plugin protocol, as Terraform does.
func callFunction(t *testing.T, name string, args ...tftypes.Value) (tftypes.Value, string) {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	dvs := make([]*tfprotov6.DynamicValue, 0, len(args))
	for _, a := range args {
		typ := a.Type()
		if name == "atomic_write_16k" { // its parameter is dynamic
			typ = tftypes.DynamicPseudoType
		}
		dv, err := tfprotov6.NewDynamicValue(typ, a)
		if err != nil {
			t.Fatal(err)
		}
		dvs = append(dvs, &dv)
	}
	resp, err := server.CallFunction(context.Background(), &tfprotov6.CallFunctionRequest{Name: name, Arguments: dvs})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil {
		return tftypes.Value{}, resp.Error.Text
	}
	returnType := map[string]tftypes.Type{
		"atomic_write_16k":       tftypes.Object{AttributeTypes: map[string]tftypes.Type{"supported": tftypes.Bool, "default": tftypes.Bool, "reason": tftypes.String}},
		"instance_class":         tftypes.Object{AttributeTypes: map[string]tftypes.Type{"family": tftypes.String, "group": tftypes.String, "cpu": tftypes.Number, "memory_gib": tftypes.Number, "architecture": tftypes.String, "edition": tftypes.String}},
		"maintenance_window_utc": tftypes.String, "parameter_restarts": tftypes.Bool,
	}[name]
	v, err := resp.Result.Unmarshal(returnType)
	if err != nil {
		t.Fatal(err)
	}
	return v, ""
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func facts(kv map[string]string) tftypes.Value {
	types, values := map[string]tftypes.Type{}, map[string]tftypes.Value{}
	for k, v := range kv {
		types[k], values[k] = tftypes.String, str(v)
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, values)
}

// TestFunctionsOverTheProtocolAnswerAsTheRules: each function, called as Terraform calls it,
// returns the rdsservice answer, and its errors carry the plan's message at the right argument.
func TestFunctionsOverTheProtocolAnswerAsTheRules(t *testing.T) {
	base := map[string]string{"engine": "MySQL", "engine_version": "8.0", "storage_type": "cloud_ssd", "category": "HighAvailability", "instance_type": "mysql.n2.medium.2c"}
	got, errText := callFunction(t, "atomic_write_16k", facts(base))
	want := rdsservice.AtomicWrite16K(rdsservice.AtomicWriteFacts{Engine: "MySQL", EngineVersion: "8.0", StorageType: "cloud_ssd", Category: "HighAvailability", InstanceClass: "mysql.n2.medium.2c"})
	var answer map[string]tftypes.Value
	var reason string
	if errText != "" || got.As(&answer) != nil || answer["reason"].As(&reason) != nil || reason != want.Reason || want.Reason == "" {
		t.Errorf("atomic_write_16k: %v %q, want reason %q", got, errText, want.Reason)
	}
	base["purchase_date"] = "2024-13-01"
	if _, errText = callFunction(t, "atomic_write_16k", facts(base)); !strings.Contains(errText, "purchase_date") {
		t.Errorf("bad purchase_date: %q", errText)
	}
	delete(base, "purchase_date")
	base["colour"] = "red"
	if _, errText = callFunction(t, "atomic_write_16k", facts(base)); !strings.Contains(errText, `unknown key "colour"`) {
		t.Errorf("unknown key: %q", errText)
	}
	if got, errText = callFunction(t, "instance_class", str("mysql.x4m.medium.2c")); errText != "" ||
		!strings.Contains(got.String(), `"architecture":tftypes.String<"arm">`) || !strings.Contains(got.String(), `"memory_gib":tftypes.Number<"8">`) {
		t.Errorf("instance_class: %v %q", got, errText)
	}
	if _, errText = callFunction(t, "instance_class", str("mysql.n2")); !strings.HasPrefix(errText, "Not an instance class name: ") {
		t.Errorf("instance_class bad: %q", errText)
	}
	var window string
	if got, errText = callFunction(t, "maintenance_window_utc", str("02:00-03:00"), str("Asia/Shanghai")); errText != "" || got.As(&window) != nil || window != "18:00Z-19:00Z" {
		t.Errorf("maintenance_window_utc: %v %q", got, errText)
	}
	if _, errText = callFunction(t, "maintenance_window_utc", str("02:00-03:00"), str("Europe/Berlin")); !strings.HasPrefix(errText, "Invalid time_zone: ") {
		t.Errorf("maintenance_window_utc DST: %q", errText)
	}
	var restarts bool
	if got, errText = callFunction(t, "parameter_restarts", str("innodb_buffer_pool_instances"), str("8.0")); errText != "" || got.As(&restarts) != nil || !restarts {
		t.Errorf("parameter_restarts: %v %q", got, errText)
	}
	if _, errText = callFunction(t, "parameter_restarts", str("innodb_buffer_pool_sise"), str("8.0")); !strings.Contains(errText, "innodb_buffer_pool_size") {
		t.Errorf("parameter_restarts typo: %q", errText)
	}
}
