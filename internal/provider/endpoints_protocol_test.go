package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// endpointAttrs is an instance of autoScaleBase with the endpoint attributes given (nil values left out).
func endpointAttrs(prefix string, port int, public map[string]any, guard bool) map[string]any {
	a := primaryAttrs(autoScaleBase)
	if prefix != "" {
		a["connection_string_prefix"] = prefix
	}
	if port != 0 {
		a["port"] = port
	}
	if public != nil {
		a["public_endpoint"] = public
	}
	if guard {
		a["prevent_endpoint_change"] = true
	}
	return a
}

// netInfo is the instance's internal and public addresses as the cloud lists them ("" for none).
func netInfo(t *testing.T, h *oracleHarness, id string) (internal, public string) {
	t.Helper()
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	info, err := api.DescribeDBInstanceNetInfo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	address := func(n rdsapi.DBInstanceNetInfo, ok bool) string {
		if !ok {
			return ""
		}
		return n.ConnectionString + ":" + string(n.Port)
	}
	return address(info.Endpoint(false)), address(info.Endpoint(true))
}

// Endpoints at the plugin protocol (issue 42 §1): an instance without endpoint attributes costs no
// DescribeDBInstanceNetInfo; a public endpoint and a port are set and read back; a change names the old and the
// new address and prevent_endpoint_change refuses it with no write; the release names the public address.
func TestEndpoints_changesNameEveryAddressThatStopsAnswering(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	w.applyChecked(t, "no endpoints", []oracleResource{{addr, endpointAttrs("", 0, nil, false)}})
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	w.sim.ResetStats()
	if _, err := w.planWalk([]oracleResource{{addr, endpointAttrs("", 0, nil, false)}}); err != nil {
		t.Fatal(err)
	}
	if n := w.sim.Stats().Requests["DescribeDBInstanceNetInfo"]; n != 0 {
		t.Errorf("no endpoint attributes: %d DescribeDBInstanceNetInfo, want none", n)
	}
	public := map[string]any{"connection_string_prefix": "orders-pub", "port": 3306}
	plan := w.applyChecked(t, "public and port", []oracleResource{{addr, endpointAttrs("", 3307, public, false)}})
	expectPlanned(t, "public and port", plan, addr, "public_connection_string", "orders-pub.mysql.rds.aliyuncs.com")
	expectWarning(t, "public and port", plan, addr, regexp.MustCompile(regexp.QuoteMeta(id+".mysql.rds.aliyuncs.com:3306 of "+id+" stops answering")))
	if in, pub := netInfo(t, h, id); in != id+".mysql.rds.aliyuncs.com:3307" || pub != "orders-pub.mysql.rds.aliyuncs.com:3306" {
		t.Fatalf("the cloud has %s and %s", in, pub)
	}
	changed := []oracleResource{{addr, endpointAttrs("orders-db-01", 3307, map[string]any{"connection_string_prefix": "orders-pub", "port": 3308}, true)}}
	w.sim.ResetStats()
	refused, err := w.planWalk(changed)
	if err != nil {
		t.Fatal(err)
	}
	if text := errorText(refused, addr); !strings.Contains(text, "prevent_endpoint_change refuses this plan") ||
		!strings.Contains(text, "orders-pub.mysql.rds.aliyuncs.com:3306") || mutationsIn(w.sim.Stats()) > 0 {
		t.Fatalf("prevent_endpoint_change: %q with %d writes", text, mutationsIn(w.sim.Stats()))
	}
	changed[0].attrs["prevent_endpoint_change"] = false
	plan = w.applyChecked(t, "change", changed)
	expectWarning(t, "change", plan, addr, regexp.MustCompile(`reach it at orders-pub\.mysql\.rds\.aliyuncs\.com:3308`))
	expectWarning(t, "change", plan, addr, regexp.MustCompile(`reach it at orders-db-01\.mysql\.rds\.aliyuncs\.com:3307`))
	expectPlanned(t, "change", plan, addr, "connection_string", "orders-db-01.mysql.rds.aliyuncs.com")
	if in, pub := netInfo(t, h, id); in != "orders-db-01.mysql.rds.aliyuncs.com:3307" || pub != "orders-pub.mysql.rds.aliyuncs.com:3308" {
		t.Fatalf("after the change the cloud has %s and %s", in, pub)
	}
	plan = w.applyChecked(t, "release", []oracleResource{{addr, endpointAttrs("orders-db-01", 3307, nil, false)}})
	expectWarning(t, "release", plan, addr, regexp.MustCompile(`orders-pub\.mysql\.rds\.aliyuncs\.com:3308 of `+id+` stops answering`))
	if _, pub := netInfo(t, h, id); pub != "" {
		t.Fatalf("after the release the cloud has %s", pub)
	}
	w.sim.ResetStats()
	bad, err := w.planWalk([]oracleResource{{addr, endpointAttrs("abc", 80, map[string]any{"connection_string_prefix": "ab", "port": 3306}, false)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"abc" must be 8 to 64`, "port 80 is outside 1000-5999", `"ab" must be 5 to 40`} {
		if text := errorText(bad, addr); !strings.Contains(text, want) {
			t.Errorf("bad values: %q does not say %q", text, want)
		}
	}
	if n := mutationsIn(w.sim.Stats()); n > 0 {
		t.Errorf("bad values: %d writes", n)
	}
}

// errorText is every error of addr's plan, summaries and details.
func errorText(plan *oraclePlan, addr string) string {
	var out []string
	if p := plan.res[addr]; p != nil {
		for _, d := range p.diags {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				out = append(out, d.Summary+": "+d.Detail)
			}
		}
	}
	return strings.Join(out, "\n")
}

// A read-only instance gets its own public endpoint, read back with it, through the same code.
func TestEndpoints_readOnlyInstanceExposedPublicly(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const ro = "rds_readonly_instance.ro"
	order := []oracleResource{{"rds_instance.db", primaryAttrs(autoScaleBase)}, {ro, map[string]any{
		"master_instance_id": oracleRef{"rds_instance.db", "id"}, "instance_type": "mysqlro.n2.medium.1c", "storage": 100,
		"public_endpoint": map[string]any{"connection_string_prefix": "reports-ro", "port": 3306}}}}
	w.applyChecked(t, "create", order)
	var id string
	_ = attrOf(w.state[ro], "id").As(&id)
	var got string
	_ = attrOf(w.state[ro], "public_connection_string").As(&got)
	if _, pub := netInfo(t, h, id); pub != "reports-ro.mysql.rds.aliyuncs.com:3306" || got != "reports-ro.mysql.rds.aliyuncs.com" {
		t.Fatalf("the cloud has %q, the state %q", pub, got)
	}
}

// With SSL on, a port change turns SSL off, changes the port and turns SSL on for the new address: the plan names
// both restarts, the cloud counts exactly those, and SSL ends on the new string.
func TestEndpoints_sslOffChangeSSLOn(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	withSSL := func(port int) map[string]any {
		a := endpointAttrs("", port, nil, false)
		a["ssl_enabled"] = true
		return a
	}
	w.applyChecked(t, "ssl on", []oracleResource{{addr, withSSL(3306)}})
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	before := w.sim.Stats().Restarts[id]
	plan := w.applyChecked(t, "port with ssl", []oracleResource{{addr, withSSL(3307)}})
	expectWarning(t, "port with ssl", plan, addr, regexp.MustCompile(`ssl_enabled is turned off to change the endpoint `+regexp.QuoteMeta(id)))
	expectWarning(t, "port with ssl", plan, addr, regexp.MustCompile(`ssl_enabled is turned on again for `+regexp.QuoteMeta(id+".mysql.rds.aliyuncs.com:3307")))
	if n := w.sim.Stats().Restarts[id] - before; n != 2 {
		t.Errorf("restarts %d, want the 2 the plan named", n)
	}
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	ssl, err := api.DescribeDBInstanceSSL(context.Background(), id)
	if err != nil || !ssl.Enabled() || ssl.ConnectionString != id+".mysql.rds.aliyuncs.com" {
		t.Fatalf("SSL after the change: %+v, %v", ssl, err)
	}
}

// A prefix another instance's endpoint has is refused at plan, with no write.
func TestEndpoints_prefixTakenByAnotherInstance(t *testing.T) {
	t.Parallel()
	w := newOracleHarness(t).newWorld()
	second := primaryAttrs(autoScaleBase)
	order := []oracleResource{{"rds_instance.db", primaryAttrs(autoScaleBase)}, {"rds_instance.other", second}}
	w.applyChecked(t, "two instances", order)
	var id string
	_ = attrOf(w.state["rds_instance.db"], "id").As(&id)
	second["connection_string_prefix"] = id
	w.sim.ResetStats()
	plan, err := w.planWalk(order)
	if err != nil {
		t.Fatal(err)
	}
	if text := errorText(plan, "rds_instance.other"); !strings.Contains(text, "instance "+id+" already answers") || mutationsIn(w.sim.Stats()) > 0 {
		t.Fatalf("taken prefix: %q with %d writes", text, mutationsIn(w.sim.Stats()))
	}
}

// An apply killed after the cloud accepted AllocateInstancePublicConnection leaves a public endpoint the state does
// not hold: the next plan adopts it (it matches the configuration) instead of allocating a second one, which the
// cloud would refuse (NetTypeExists), and the apply records it.
func TestEndpoints_killedAllocateIsAdopted(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	allocatedOutside(t, h, w, endpointAttrs("", 0, nil, false), "orders-pub")
	w.sim.ResetStats()
	w.applyChecked(t, "again", []oracleResource{{addr, endpointAttrs("", 0, map[string]any{"connection_string_prefix": "orders-pub", "port": 3306}, false)}})
	if n := mutationsIn(w.sim.Stats()); n != 0 {
		t.Errorf("adopting the endpoint wrote %d times", n)
	}
	var got string
	_ = attrOf(w.state[addr], "public_connection_string").As(&got)
	if got != "orders-pub.mysql.rds.aliyuncs.com" {
		t.Errorf("public_connection_string %q after the adoption", got)
	}
}

// A public endpoint public_endpoint did not set (allocated outside Terraform, or before an import) stays when the
// configuration leaves public_endpoint out: the plan promises its string, and the state after the apply holds what
// the refresh reads (oracle, connectivity seeds 1 and 7: the plan said null, the refresh read the string).
func TestEndpoints_publicEndpointSetOutsideTerraformStays(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	id := allocatedOutside(t, h, w, endpointAttrs("", 3307, nil, false), "orders-out")
	order := []oracleResource{{addr, endpointAttrs("", 3308, nil, false)}}
	plan := w.applyChecked(t, "port changed", order)
	expectPlanned(t, "port changed", plan, addr, "public_connection_string", "orders-out.mysql.rds.aliyuncs.com")
	applied := attrOf(w.state[addr], "public_connection_string")
	server, err := w.server()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.refresh(server, order); err != nil {
		t.Fatal(err)
	}
	if read := attrOf(w.state[addr], "public_connection_string"); !read.Equal(applied) {
		t.Fatalf("the state after the apply holds %s, the refresh reads %s", applied, read)
	}
	if _, pub := netInfo(t, h, id); pub != "orders-out.mysql.rds.aliyuncs.com:3306" {
		t.Fatalf("the public endpoint set outside Terraform was not kept: the cloud has %q", pub)
	}
}

// allocatedOutside applies rds_instance.db with attrs, then allocates a public endpoint with prefix on port 3306
// outside Terraform, as a killed apply or another tool leaves it; it returns the instance's id.
func allocatedOutside(t *testing.T, h *oracleHarness, w *oracleWorld, attrs map[string]any, prefix string) string {
	t.Helper()
	w.applyChecked(t, "create", []oracleResource{{"rds_instance.db", attrs}})
	var id string
	_ = attrOf(w.state["rds_instance.db"], "id").As(&id)
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.AllocateInstancePublicConnection(context.Background(), &rdsapi.AllocateInstancePublicConnectionRequest{DBInstanceID: id,
		ConnectionStringPrefix: prefix, Port: "3306"}); err != nil {
		t.Fatal(err)
	}
	return id
}
