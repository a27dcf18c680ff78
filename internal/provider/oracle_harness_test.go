package provider

// The plan-versus-apply oracle's harness: Terraform core's part of a `terraform apply`, played over
// the plugin protocol (tfprotov6) against the provider in-process and a fresh simulator per
// scenario. Each run is three walks, each with a fresh provider instance as Terraform starts one per
// walk: plan (refresh, validate, plan every resource in dependency order, references resolved to
// planned values, unknown where not yet known; RequiresReplace turns an update into delete + create,
// planned again with a null prior), apply (re-plan with final values, the consistency checks of
// core, apply) and a verifying refresh + plan that must be empty. The simulator and the provider's
// waiter share a fake clock that moves only when the waiter sleeps, so no wait takes real time.

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// oracleClock moves only when someone sleeps on it. The provider's client and the direct client sign
// requests with it, as real clients sign with the time that passed while they waited: the simulator
// refuses timestamps 15 minutes off its own clock, which is this one.
type oracleClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *oracleClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *oracleClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.now = c.now.Add(max(d, 0))
	now := c.now
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- now
	return ch
}

// oracleProvider is the provider on the oracle's clock (its client signs with it, its waiter waits
// on it), observed; everything else is the provider's own Configure.
type oracleProvider struct {
	*RDSProvider
	// observe receives the planner's decisions (ProviderData.observe).
	observe func(rdsservice.Decision)
}

func (p *oracleProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	p.RDSProvider.Configure(ctx, req, resp)
	if data, ok := resp.ResourceData.(*ProviderData); ok {
		data.observe = p.observe
	}
}

// Simulated durations on the fake clock: non-zero so the status machine and the flag lag are seen,
// short so a wait is a few polls (each one a real request on loopback).
var oracleSimOptions = simulator.Options{
	CreateDuration:  2 * time.Second,
	RestartDuration: time.Second,
	DeleteDuration:  time.Second,
	FlagLag:         500 * time.Millisecond,
	// A disk-quota lock lifts some time after a growth (the cloud: about 5 minutes): the apply waits.
	DiskQuotaUnlockDelay: 3 * time.Second,
}

// oracleRef is a reference in configuration to another resource's attribute, e.g.
// rds_instance.primary.id.
type oracleRef struct{ addr, attr string }

// oracleDependent is a value computed from another resource's attribute, as an expression such as
// `rds_backup.b.backup_id != "" ? "mysql.n2.large.2c" : "mysql.n2.medium.2c"` is: unknown at plan
// while that attribute is (its resource is created in the run), value once it is known.
type oracleDependent struct {
	on    oracleRef
	value any
}

// oracleResource is one resource block: address "type.name" and its configured attributes (string,
// int, bool, []string for a set, map[string]any for a nested object, oracleRef, oracleDependent,
// oracleUnknown). The attribute ignoreChanges ([]string) is the block's lifecycle ignore_changes.
type oracleResource struct {
	addr  string
	attrs map[string]any
}

func (r oracleResource) typeName() string { return strings.SplitN(r.addr, ".", 2)[0] }

// ignoreChanges is the attrs key of a block's lifecycle { ignore_changes = [...] }.
const ignoreChanges = "lifecycle.ignore_changes"

// oracleUnknown is a value Terraform knows only at apply (fed from a resource created in the same run,
// such as terraform_data): unknown in the plan, the value itself in the configuration at apply.
type oracleUnknown struct{ value any }

// atApply is r's configuration as Terraform evaluates it at apply: every oracleUnknown known.
func (r oracleResource) atApply() oracleResource {
	attrs := make(map[string]any, len(r.attrs))
	for k, v := range r.attrs {
		if u, ok := v.(oracleUnknown); ok {
			v = u.value
		}
		attrs[k] = v
	}
	return oracleResource{r.addr, attrs}
}

// oracleHarness holds what every scenario shares: the schemas and one loopback server whose handler
// is the current scenario's simulator.
type oracleHarness struct {
	t        testing.TB
	schemas  map[string]*tfprotov6.Schema
	provType tftypes.Object
	url      string
	srv      *httptest.Server
	current  atomic.Pointer[simulator.Simulator]
	// clock is the current scenario's clock, which the direct client signs with.
	clock atomic.Pointer[oracleClock]
	// verbose logs every run (RDS_ORACLE_ONLY).
	verbose bool
	// faults are injected in every world, their draws seeded from faultSeed and the world's
	// number; the provider and the probes then retry up to maxRetries times.
	faults     simulator.Faults
	faultSeed  uint64
	worlds     uint64
	maxRetries int
	// throttled counts the answers that were Throttling errors.
	throttled atomic.Int64
}

func newOracleHarness(t testing.TB) *oracleHarness {
	h := &oracleHarness{t: t}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.current.Load().ServeHTTP(&throttleCounter{ResponseWriter: w, count: &h.throttled}, r)
	}))
	t.Cleanup(srv.Close)
	h.url, h.srv = srv.URL, srv
	server, err := providerserver.NewProtocol6WithError(New("oracle")())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || diagsHaveError(resp.Diagnostics) {
		t.Fatalf("GetProviderSchema: %v %v", err, resp.Diagnostics)
	}
	h.schemas = resp.ResourceSchemas
	h.provType = resp.Provider.ValueType().(tftypes.Object)
	return h
}

func (h *oracleHarness) objType(typeName string) tftypes.Object {
	return h.schemas[typeName].ValueType().(tftypes.Object)
}

// oracleWorld is one scenario's cloud and Terraform state.
type oracleWorld struct {
	h     *oracleHarness
	sim   *simulator.Simulator
	clock *oracleClock
	state map[string]tftypes.Value // address -> state object
	priv  map[string][]byte
	// abandoned are the instances the applied plan abandoned: no longer managed (oracle_destroy_test.go).
	abandoned map[string]bool
	// seen lists addresses in the order they entered the state: destroys go in reverse.
	seen []string
	// beforeApply and afterApply, when set, act on the cloud behind Terraform's back (the oracle's
	// own tests use them to show that it notices).
	beforeApply, afterApply func(w *oracleWorld)
	// beforeWindow, when set, acts on the cloud before its clock moves to the maintenance window.
	beforeWindow func(w *oracleWorld)
	// taskScheduled: a task was scheduled for the maintenance window behind Terraform's back, so
	// every run is also checked at the window.
	taskScheduled bool
	// observed collects the planner's decisions of the PlanResourceChange call under way.
	observed []rdsservice.Decision
	// defaultTags is the provider's default_tags (nil: unset).
	defaultTags map[string]string
	// holdWindow: a run that leaves restarts waiting stops before the window, for a later run; carried is
	// what the first run deferred, which the later run's window must also make (oracle_later_test.go).
	holdWindow bool
	carried    map[string]int
	// proxyWindowDrops are the instances whose connections through the proxy this run's plan said the
	// window's switchover drops, true where it may (nil: the window is not compared; oracle_proxy_test.go).
	proxyWindowDrops map[string]bool
	// mayAtWindow are the possible restarts the world's plans placed in the maintenance window, by id
	// (oracle_unknowns_test.go).
	mayAtWindow map[string]int
	// ignore is each address's lifecycle { ignore_changes = [...] }, beside a block's own (ignoreChanges).
	ignore map[string][]string
	// driftedAfterPlan are the attributes changed outside Terraform between the plan and the apply (a saved
	// plan): the apply keeps the planned values, as Terraform requires, and the next refresh reads the cloud's.
	driftedAfterPlan map[string]bool
	// endpoints: the simulator's name service answers on the connection strings, and each run compares those that
	// stop answering with the plan (oracle_connectivity_test.go).
	endpoints bool
	// allowed are the addresses each instance admits, as its endpoint last heard (oracle_access_lists_test.go).
	allowed *allowedClients
	// dataLoss: each run compares the plan's data-loss warnings with what the cloud deleted (oracle_data_loss_test.go).
	dataLoss bool
}

// oracleStartHour is the hour (UTC) at which every scenario's cloud starts (newWorld).
const oracleStartHour = 10

// oracleWindow is the maintenance window of the oracle's scenarios: closed when a scenario starts
// and for hours after, whatever the real hour. A window reckoned from the real clock (realClockWindow)
// was open at 10:00Z when the suite ran between 04:00Z and 05:00Z.
var oracleWindow = windowStartingAt(oracleStartHour + 6)

// newWorld starts a scenario's cloud; with endpoints, its name service answers on the connection strings
// (nameOnlyEndpoints).
func (h *oracleHarness) newWorld(endpoints ...bool) *oracleWorld {
	// Every walk starts a provider with its own client; the previous scenario's kept-alive
	// connections would otherwise pile up to thousands of open files over the long form.
	h.srv.CloseClientConnections()
	// Every scenario starts at 10:00Z of today, whatever the hour: the default maintenance window
	// (18:00Z-22:00Z) is then closed, as the scenarios assume, and a run at 18:00 differs in nothing.
	today := time.Now().UTC().Truncate(24 * time.Hour)
	clock := &oracleClock{now: today.Add(oracleStartHour * time.Hour)}
	opts := oracleSimOptions
	opts.Now = clock.Now
	opts.Faults = h.faults
	withEndpoints := len(endpoints) > 0 && endpoints[0]
	allowed := &allowedClients{byID: map[string][]string{}}
	if withEndpoints {
		opts.Endpoints = nameOnlyEndpoints(allowed)
	}
	if h.faultSeed != 0 {
		h.worlds++
		opts.FaultSeed = h.faultSeed*1000 + h.worlds
	}
	sim, err := simulator.New(opts)
	if err != nil {
		h.t.Fatal(err)
	}
	h.current.Store(sim)
	h.clock.Store(clock)
	return &oracleWorld{h: h, sim: sim, clock: clock, state: map[string]tftypes.Value{}, priv: map[string][]byte{}, endpoints: withEndpoints, allowed: allowed}
}

// server starts a fresh provider instance and configures it, as Terraform does for every walk.
func (w *oracleWorld) server() (tfprotov6.ProviderServer, error) {
	server, err := providerserver.NewProtocol6WithError(&oracleProvider{RDSProvider: &RDSProvider{version: "oracle", clock: w.clock},
		observe: func(d rdsservice.Decision) { w.observed = append(w.observed, d) }})()
	if err != nil {
		return nil, err
	}
	vals := map[string]tftypes.Value{}
	for name, typ := range w.h.provType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
	}
	vals["endpoint"] = tftypes.NewValue(tftypes.String, w.h.url)
	vals["region"] = tftypes.NewValue(tftypes.String, simulator.DefaultRegion)
	vals["access_key"] = tftypes.NewValue(tftypes.String, simulator.DefaultAccessKeyID)
	vals["secret_key"] = tftypes.NewValue(tftypes.String, simulator.DefaultAccessKeySecret)
	vals["max_retries"] = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(w.h.maxRetries)))
	if w.defaultTags != nil {
		tags := map[string]tftypes.Value{}
		for k, v := range w.defaultTags {
			tags[k] = tftypes.NewValue(tftypes.String, v)
		}
		vals["default_tags"] = tftypes.NewValue(w.h.provType.AttributeTypes["default_tags"], tags)
	}
	cfg, err := tfprotov6.NewDynamicValue(w.h.provType, tftypes.NewValue(w.h.provType, vals))
	if err != nil {
		return nil, err
	}
	resp, err := server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.0", Config: &cfg})
	if err != nil {
		return nil, err
	}
	if diagsHaveError(resp.Diagnostics) {
		return nil, fmt.Errorf("ConfigureProvider: %s", diagText(resp.Diagnostics))
	}
	return server, nil
}

// importInstance is `terraform import addr id`: ImportResourceState, then the refresh.
func (w *oracleWorld) importInstance(addr, id string) error {
	server, err := w.server()
	if err != nil {
		return err
	}
	typeName := strings.SplitN(addr, ".", 2)[0]
	resp, err := server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id})
	if err != nil || diagsHaveError(resp.Diagnostics) || len(resp.ImportedResources) != 1 {
		return fmt.Errorf("import %s %s: %v %s", addr, id, err, diagText(resp.Diagnostics))
	}
	imported := resp.ImportedResources[0]
	read, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: imported.State, Private: imported.Private})
	if err != nil || diagsHaveError(read.Diagnostics) {
		return fmt.Errorf("refresh after import of %s: %v %s", addr, err, diagText(read.Diagnostics))
	}
	v, err := read.NewState.Unmarshal(w.h.objType(typeName))
	if err != nil {
		return err
	}
	w.state[addr], w.priv[addr] = v, read.Private
	w.remember(addr)
	return nil
}

// ---- values ----

func attrsOf(v tftypes.Value) map[string]tftypes.Value {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		panic(err)
	}
	return m
}

func attrOf(v tftypes.Value, name string) tftypes.Value { return attrsOf(v)[name] }

// toValue builds a configuration value of type t; refs resolve through resolve.
func toValue(t tftypes.Type, v any, resolve func(oracleRef) tftypes.Value) tftypes.Value {
	switch x := v.(type) {
	case nil:
		return tftypes.NewValue(t, nil)
	case oracleRef:
		return resolve(x)
	case proxyWeights: // oracle_proxy_test.go
		return x.value(t, resolve)
	case oracleUnknown:
		return tftypes.NewValue(t, tftypes.UnknownValue)
	case oracleDependent:
		if !resolve(x.on).IsFullyKnown() {
			return tftypes.NewValue(t, tftypes.UnknownValue)
		}
		return toValue(t, x.value, resolve)
	case string, bool:
		return tftypes.NewValue(t, x)
	case int:
		return tftypes.NewValue(t, big.NewFloat(float64(x)))
	case []string:
		elems := make([]tftypes.Value, len(x))
		for i, s := range x {
			elems[i] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(t, elems)
	case map[string]string:
		elems := map[string]tftypes.Value{}
		for k, s := range x {
			elems[k] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(t, elems)
	case map[string]int:
		elems := map[string]tftypes.Value{}
		for k, n := range x {
			elems[k] = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(n)))
		}
		return tftypes.NewValue(t, elems)
	case []any:
		elems := make([]tftypes.Value, len(x))
		for i, e := range x {
			elems[i] = toValue(t.(tftypes.Set).ElementType, e, resolve)
		}
		return tftypes.NewValue(t, elems)
	case map[string][]string:
		elems := map[string]tftypes.Value{}
		for k, list := range x {
			elems[k] = toValue(t.(tftypes.Map).ElementType, list, resolve)
		}
		return tftypes.NewValue(t, elems)
	case map[string]any:
		obj := t.(tftypes.Object)
		vals := map[string]tftypes.Value{}
		for name, at := range obj.AttributeTypes {
			vals[name] = toValue(at, x[name], resolve)
		}
		return tftypes.NewValue(t, vals)
	}
	panic(fmt.Sprintf("oracle: unsupported configuration value %T", v))
}

func (w *oracleWorld) config(r oracleResource, resolve func(oracleRef) tftypes.Value) tftypes.Value {
	return toValue(w.h.objType(r.typeName()), r.attrs, resolve)
}

// ignoringChanges is core's processIgnoreChanges: before a resource is planned, an ignored
// attribute's configured value becomes its prior state's (nothing for a create). Core applies it
// to the plan only: ApplyResourceChange gets the configuration as written.
func (w *oracleWorld) ignoringChanges(r oracleResource, config tftypes.Value) tftypes.Value {
	prior, ok := w.state[r.addr]
	own, _ := r.attrs[ignoreChanges].([]string)
	ignored := append(slices.Clone(w.ignore[r.addr]), own...)
	if !ok || prior.IsNull() || len(ignored) == 0 {
		return config
	}
	vals := maps.Clone(attrsOf(config)) // As shares the value's own map
	for _, name := range ignored {
		vals[name] = attrOf(prior, name)
	}
	return tftypes.NewValue(config.Type(), vals)
}

// proposedNew is Terraform's objchange.ProposedNew for flat schemas: the configuration, with the
// prior value for computed attributes left unset.
func (w *oracleWorld) proposedNew(typeName string, prior, config tftypes.Value) tftypes.Value {
	typ := w.h.objType(typeName)
	cfg, old := attrsOf(config), attrsOf(prior)
	out := map[string]tftypes.Value{}
	for _, a := range w.h.schemas[typeName].Block.Attributes {
		v := cfg[a.Name]
		if a.Computed && v.IsNull() {
			v = tftypes.NewValue(typ.AttributeTypes[a.Name], nil)
			if old != nil {
				v = old[a.Name]
			}
		}
		out[a.Name] = v
	}
	return tftypes.NewValue(typ, out)
}

func dynamic(t tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(t, v)
	if err != nil {
		panic(err)
	}
	return &dv
}

func diagsHaveError(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func diagText(ds []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		sev := "warning"
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			sev = "error"
		}
		parts = append(parts, fmt.Sprintf("%s %q", sev, d.Summary))
	}
	return strings.Join(parts, "; ")
}

func firstError(ds []*tfprotov6.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return fmt.Sprintf("%q: %s", d.Summary, oneLine(d.Detail))
		}
	}
	return ""
}

// oneLine joins a diagnostic's detail into one line, cut at 1,000 bytes: long enough that the
// cloud's error (code and lock mode) at the end of a step's detail is kept for the excuses.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 1000 {
		s = s[:1000] + "…"
	}
	return s
}

// valueDiff lists the attributes where got differs from want; with knownOnly, attributes unknown
// in want are skipped (core's "planned value must match where known").
func valueDiff(want, got tftypes.Value, knownOnly bool) []string {
	wa, ga := attrsOf(want), attrsOf(got)
	var out []string
	for name, wv := range wa {
		if knownOnly && !wv.IsFullyKnown() {
			continue
		}
		if gv := ga[name]; !wv.Equal(gv) {
			out = append(out, fmt.Sprintf("%s: %s -> %s", name, shortValue(wv), shortValue(gv)))
		}
	}
	sort.Strings(out)
	return out
}

func shortValue(v tftypes.Value) string {
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	}
	s := v.String()
	if i := strings.Index(s, "<"); i >= 0 && strings.HasSuffix(s, ">") {
		s = s[i+1 : len(s)-1]
	}
	return s
}

// ---- a run: plan, apply, verify ----

type oracleAction int

const (
	actNoop oracleAction = iota
	actCreate
	actUpdate
	actReplace
	actDelete
)

func (a oracleAction) String() string {
	return [...]string{"no-op", "create", "update", "replace", "delete"}[a]
}

// oraclePlanned is one resource's plan.
type oraclePlanned struct {
	action  oracleAction
	prior   tftypes.Value
	planned tftypes.Value // the (create) plan's planned state
	private []byte
	diags   []*tfprotov6.Diagnostic
	// shown, for a replacement, is what core shows of diags: the second call's only with an error.
	shown   []*tfprotov6.Diagnostic
	replace []string
	// invalid lists configured values the plan does not keep (core: "Provider produced invalid plan").
	invalid []string
	// decisions are the planner's decisions behind this plan (two for a replacement: the update
	// that finds it, then the plan of the new instance).
	decisions []rdsservice.Decision
}

// oraclePlan is the plan of a whole configuration.
type oraclePlan struct {
	res    map[string]*oraclePlanned
	errAt  string // address of the first resource whose plan failed, "" if none
	errMsg string
}

// refresh is the plan's refresh: ReadResource for everything in state.
func (w *oracleWorld) refresh(server tfprotov6.ProviderServer, order []oracleResource) error {
	for _, r := range order {
		prior, ok := w.state[r.addr]
		if !ok {
			continue
		}
		typ := w.h.objType(r.typeName())
		resp, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: r.typeName(), CurrentState: dynamic(typ, prior), Private: w.priv[r.addr]})
		if err != nil || diagsHaveError(resp.Diagnostics) {
			return fmt.Errorf("refresh %s: %v %s", r.addr, err, firstError(resp.Diagnostics))
		}
		v, err := resp.NewState.Unmarshal(typ)
		if err != nil {
			return err
		}
		if v.IsNull() {
			delete(w.state, r.addr) // the object leaves the state with its private data
			delete(w.priv, r.addr)
			continue
		}
		w.state[r.addr], w.priv[r.addr] = v, resp.Private
	}
	return nil
}

// planOne is core's plan of one resource: validate, plan with ignore_changes applied (ignoringChanges), and
// for a replacement plan again as a create from the configuration as written (core: "there is no prior state
// to compare after replacement", so the create's plan carries no ignored values).
func (w *oracleWorld) planOne(server tfprotov6.ProviderServer, r oracleResource, written tftypes.Value) *oraclePlanned {
	ctx := context.Background()
	config := w.ignoringChanges(r, written)
	typ := w.h.objType(r.typeName())
	p := &oraclePlanned{prior: tftypes.NewValue(typ, nil)}
	if v, ok := w.state[r.addr]; ok {
		p.prior = v
	}
	val, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: r.typeName(), Config: dynamic(typ, config)})
	if err != nil {
		p.diags = append(p.diags, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: err.Error()})
		return p
	}
	p.diags = append(p.diags, val.Diagnostics...)
	if diagsHaveError(p.diags) {
		return p
	}
	plan := func(prior tftypes.Value, priorPrivate []byte) (*tfprotov6.PlanResourceChangeResponse, tftypes.Value, error) {
		w.observed = nil
		resp, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
			TypeName: r.typeName(), PriorState: dynamic(typ, prior), ProposedNewState: dynamic(typ, w.proposedNew(r.typeName(), prior, config)),
			Config: dynamic(typ, config), PriorPrivate: priorPrivate,
		})
		p.decisions = append(p.decisions, w.observed...)
		if err != nil {
			return nil, tftypes.Value{}, err
		}
		if resp.PlannedState == nil || diagsHaveError(resp.Diagnostics) {
			return resp, tftypes.NewValue(typ, nil), nil
		}
		v, err := resp.PlannedState.Unmarshal(typ)
		return resp, v, err
	}
	resp, planned, err := plan(p.prior, w.priv[r.addr])
	if err != nil {
		p.diags = append(p.diags, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: err.Error()})
		return p
	}
	p.diags = append(p.diags, resp.Diagnostics...)
	if diagsHaveError(p.diags) {
		return p
	}
	p.planned, p.private = planned, resp.PlannedPrivate
	p.invalid = invalidPlan(config, planned)
	switch {
	case p.prior.IsNull():
		p.action = actCreate
		return p
	case planned.Equal(p.prior):
		p.action = actNoop
		return p
	}
	for _, ap := range resp.RequiresReplace {
		name := fmt.Sprint(ap)
		if steps := ap.Steps(); len(steps) > 0 {
			if a, ok := steps[0].(tftypes.AttributeName); ok {
				name = string(a)
			}
		}
		if old, now := attrOf(p.prior, name), attrOf(planned, name); !now.IsFullyKnown() || !old.Equal(now) {
			p.replace = append(p.replace, name)
		}
	}
	if len(p.replace) == 0 {
		p.action = actUpdate
		return p
	}
	p.action = actReplace
	// Core plans a replacement's create with the first plan's private data (plannedPrivate).
	config = written
	resp, planned, err = plan(tftypes.NewValue(typ, nil), p.private)
	if err != nil {
		p.diags = append(p.diags, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: err.Error()})
		return p
	}
	// Core keeps the second call's diagnostics only when they hold an error: its warnings are
	// dropped (hashicorp/terraform internal/terraform/node_resource_abstract_instance.go, plan).
	// shown is what a user sees; diags keeps both calls' for the oracle's checks.
	p.shown = append([]*tfprotov6.Diagnostic{}, p.diags...)
	if diagsHaveError(resp.Diagnostics) {
		p.shown = append(p.shown, resp.Diagnostics...)
	}
	p.diags = append(p.diags, resp.Diagnostics...)
	p.planned, p.private = planned, resp.PlannedPrivate
	if !diagsHaveError(p.diags) {
		p.invalid = invalidPlan(config, planned)
	}
	return p
}

// invalidPlan is core's AssertPlanValid for flat schemas: a configured, known value must be planned
// as configured.
func invalidPlan(config, planned tftypes.Value) []string {
	var out []string
	got := attrsOf(planned)
	for name, want := range attrsOf(config) {
		if want.IsNull() || !want.IsFullyKnown() {
			continue
		}
		if !sameValue(want, got[name]) {
			out = append(out, fmt.Sprintf("%s configured %s, planned %s", name, shortValue(want), shortValue(got[name])))
		}
	}
	sort.Strings(out)
	return out
}

// sameValue is Equal, with sets compared as sets.
func sameValue(a, b tftypes.Value) bool {
	if a.Equal(b) {
		return true
	}
	if !a.Type().Is(tftypes.Set{}) || !b.IsKnown() || b.IsNull() {
		return false
	}
	var as, bs []tftypes.Value
	if a.As(&as) != nil || b.As(&bs) != nil || len(as) != len(bs) {
		return false
	}
	strs := func(vs []tftypes.Value) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = v.String()
		}
		sort.Strings(out)
		return out
	}
	return strings.Join(strs(as), "\x00") == strings.Join(strs(bs), "\x00")
}

// orphans are the resources in state that order no longer configures, in reverse order of
// creation (Terraform destroys a read-only instance before its primary).
func (w *oracleWorld) orphans(order []oracleResource) []oracleResource {
	configured := map[string]bool{}
	for _, r := range order {
		configured[r.addr] = true
	}
	var out []oracleResource
	for i := len(w.seen) - 1; i >= 0; i-- {
		if addr := w.seen[i]; !configured[addr] {
			if _, ok := w.state[addr]; ok {
				out = append(out, oracleResource{addr: addr})
			}
		}
	}
	return out
}

func (w *oracleWorld) remember(addr string) {
	if !slices.Contains(w.seen, addr) {
		w.seen = append(w.seen, addr)
	}
}

// planWalk refreshes and plans every resource in order, and the destroy of every resource no
// longer configured; references resolve to planned values.
func (w *oracleWorld) planWalk(order []oracleResource) (*oraclePlan, error) {
	server, err := w.server()
	if err != nil {
		return nil, err
	}
	orphans := w.orphans(order)
	if err := w.refresh(server, append(append([]oracleResource(nil), order...), orphans...)); err != nil {
		return nil, err
	}
	plan := &oraclePlan{res: map[string]*oraclePlanned{}}
	resolve := func(ref oracleRef) tftypes.Value {
		p := plan.res[ref.addr]
		return attrOf(p.planned, ref.attr)
	}
	for _, r := range order {
		p := w.planOne(server, r, w.config(r, resolve))
		plan.res[r.addr] = p
		if diagsHaveError(p.diags) {
			plan.errAt, plan.errMsg = r.addr, firstError(p.diags)
			return plan, nil
		}
	}
	for _, r := range w.orphans(order) {
		p, err := w.planDestroy(server, r)
		if err != nil {
			return nil, err
		}
		plan.res[r.addr] = p
		if diagsHaveError(p.diags) {
			plan.errAt, plan.errMsg = r.addr, firstError(p.diags)
			return plan, nil
		}
	}
	return plan, nil
}

// planDestroy plans the destroy of r, a resource no longer configured.
func (w *oracleWorld) planDestroy(server tfprotov6.ProviderServer, r oracleResource) (*oraclePlanned, error) {
	typ := w.h.objType(r.typeName())
	p := &oraclePlanned{action: actDelete, prior: w.state[r.addr], planned: tftypes.NewValue(typ, nil)}
	resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: r.typeName(), PriorState: dynamic(typ, p.prior), ProposedNewState: dynamic(typ, p.planned),
		Config: dynamic(typ, p.planned), PriorPrivate: w.priv[r.addr],
	})
	if err != nil {
		return nil, err
	}
	p.diags, p.private = resp.Diagnostics, resp.PlannedPrivate
	return p, nil
}

// applyResult is what the apply walk saw.
type applyResult struct {
	errAt, errMsg string
	// inconsistent lists core's consistency failures: the final plan against the plan, the new
	// state against the final plan.
	inconsistent []oracleInconsistency
}

// oracleInconsistency is one of core's consistency failures at apply.
type oracleInconsistency struct {
	addr, what string
	diff       []string
}

// applyWalk applies plan in order: for each change, plan again with final values (core's "final
// plan", which must agree with the plan where the plan knew), then ApplyResourceChange (a
// replacement deletes first, then creates), then checks the new state against the final plan.
func (w *oracleWorld) applyWalk(order []oracleResource, plan *oraclePlan) (*applyResult, error) {
	ctx := context.Background()
	server, err := w.server()
	if err != nil {
		return nil, err
	}
	res := &applyResult{}
	resolve := func(ref oracleRef) tftypes.Value { return attrOf(w.state[ref.addr], ref.attr) }
	fail := func(addr, msg string) (*applyResult, error) {
		res.errAt, res.errMsg = addr, msg
		return res, nil
	}
	for _, r := range w.orphans(order) {
		p := plan.res[r.addr]
		if p == nil || p.action != actDelete {
			continue // not part of this (partial) apply
		}
		typ := w.h.objType(r.typeName())
		del, err := server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: r.typeName(), PriorState: dynamic(typ, p.prior), PlannedState: dynamic(typ, p.planned),
			Config: dynamic(typ, p.planned), PlannedPrivate: p.private,
		})
		if err != nil || diagsHaveError(del.Diagnostics) {
			return fail(r.addr, fmt.Sprintf("delete: %v %s", err, firstError(del.Diagnostics)))
		}
		delete(w.state, r.addr)
		delete(w.priv, r.addr)
	}
	for _, r := range order {
		p := plan.res[r.addr]
		if p.action == actNoop {
			continue
		}
		typ := w.h.objType(r.typeName())
		if p.action == actReplace {
			del, err := server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
				TypeName: r.typeName(), PriorState: dynamic(typ, p.prior), PlannedState: dynamic(typ, tftypes.NewValue(typ, nil)),
				Config: dynamic(typ, tftypes.NewValue(typ, nil)), PlannedPrivate: w.priv[r.addr],
			})
			if err != nil || diagsHaveError(del.Diagnostics) {
				return fail(r.addr, fmt.Sprintf("delete (replacement): %v %s", err, firstError(del.Diagnostics)))
			}
			delete(w.state, r.addr)
			delete(w.priv, r.addr)
		}
		config := w.config(r.atApply(), resolve)
		final := w.planOne(server, r, config)
		if diagsHaveError(final.diags) {
			return fail(r.addr, "final plan: "+firstError(final.diags))
		}
		if d := valueDiff(p.planned, final.planned, true); len(d) > 0 {
			res.inconsistent = append(res.inconsistent, oracleInconsistency{r.addr, "final plan differs from the plan", d})
		}
		resp, err := server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: r.typeName(), PriorState: dynamic(typ, final.prior), PlannedState: dynamic(typ, final.planned),
			Config: dynamic(typ, config), PlannedPrivate: final.private,
		})
		if err != nil {
			return fail(r.addr, err.Error())
		}
		if resp.NewState != nil {
			if v, err := resp.NewState.Unmarshal(typ); err == nil && !v.IsNull() {
				w.state[r.addr], w.priv[r.addr] = v, resp.Private
				w.remember(r.addr)
			}
		}
		if diagsHaveError(resp.Diagnostics) {
			return fail(r.addr, firstError(resp.Diagnostics))
		}
		if d := valueDiff(final.planned, w.state[r.addr], true); len(d) > 0 {
			res.inconsistent = append(res.inconsistent, oracleInconsistency{r.addr, "state after apply differs from the planned values", d})
		}
	}
	return res, nil
}

// ---- restarts named by the plan ----

// plannedRestarts is the one place that reads the restarts a plan promises. It reads them from the
// planner's program behind the plan (Program.Restarts, and MayRestart), not from the text of its
// warnings. Returns, per instance key (an id, or "new:<address>" for an instance this apply
// creates), the restarts during this apply, the possible ones (values known only at apply) and
// those deferred to the maintenance window. Each count is the largest any one decision names: the
// plans of a primary and of its read-only instance may both name the read-only instance's restart.
func plannedRestarts(plan *oraclePlan, order []oracleResource) (definite, possible, deferred map[string]int) {
	definite, possible, deferred = map[string]int{}, map[string]int{}, map[string]int{}
	for _, r := range order {
		p, ok := plan.res[r.addr]
		if !ok {
			continue
		}
		self := plannedKey(p, r.addr)
		for _, d := range p.decisions {
			now, later := map[string]int{}, map[string]int{}
			for _, rs := range d.Program.Restarts() {
				key := restartKey(rs, self)
				switch {
				case rs.Possible && rs.When == "":
					possible[key] = max(possible[key], 1)
				case rs.Possible: // at the window: notePossibleAtWindow
				case rs.When != "":
					later[key]++
				default:
					now[key]++
				}
			}
			mergeMax(definite, now)
			mergeMax(deferred, later)
			if len(d.MayRestart) > 0 && d.MayRestartWhen == "" {
				possible[self] = max(possible[self], 1)
			}
		}
	}
	return definite, possible, deferred
}

// plannedKey is the key of the instance a resource's plan is about: its id, or "new:<address>"
// when the apply creates it.
func plannedKey(p *oraclePlanned, addr string) string {
	if p.action == actCreate || p.action == actReplace {
		return "new:" + addr
	}
	var id string
	_ = attrOf(p.prior, "id").As(&id)
	return id
}

// restartKey is the instance a planned restart is of: the id its label starts with ("rm-x",
// "rr-y (read-only instance)"), else (a new instance, "the new clone of rm-x") self.
func restartKey(rs rdsservice.Restart, self string) string {
	if id := leadingIDPattern.FindString(rs.InstanceID); id != "" {
		return id
	}
	return self
}

func mergeMax(into, from map[string]int) {
	for k, n := range from {
		into[k] = max(into[k], n)
	}
}

// unshownRestarts lists the restarts a resource's decisions name that none of the plan's
// diagnostics for it shows the user (by the instance's label).
func unshownRestarts(p *oraclePlanned) []string {
	var out []string
	for _, d := range p.decisions {
		for _, rs := range d.Program.Restarts() {
			shown := false
			for _, diag := range p.diags {
				shown = shown || strings.Contains(diag.Summary+"\n"+diag.Detail, rs.InstanceID)
			}
			if !shown {
				out = append(out, rs.InstanceID)
			}
		}
	}
	return out
}

// guardOf is the provider guard (a setting with no cloud equivalent) that refused a resource's
// plan, by the rule ids of the planner's errors; "" when none did.
func guardOf(p *oraclePlanned) rdsservice.RuleID {
	if p == nil {
		return ""
	}
	if g := proxyGuardOf(p); g != "" { // oracle_proxy_test.go
		return g
	}
	for _, d := range p.decisions {
		for _, e := range d.Errors() {
			// A zone move goes alone (zone_rules.go): the provider's own policy, as the two guards.
			// A read-only instance's restart in its primary's zone-move window is refused because the
			// window would fail (the cloud accepts both orders; the move fails at the window, which
			// the pinned combination in TestOraclePinnedCombinations showed before the rule).
			// prevent_endpoint_change refuses a plan whose addresses stop answering: the cloud has no equivalent.
			// A waiting upgrade set back is refused because no API call withdraws it (PendingBehaviours,
			// an assumption): there is no request the probe could send, so the rule id excuses it.
			// Autoscaling turned off below the disk is refused so that the state does not say less than the disk has.
			if e.Rule == rdsservice.RuleRestartRefused || e.Rule == rdsservice.RuleMayRestartRefusedUnknown || e.Rule == rdsservice.RuleReplaceRefusedRestart || e.Rule == rdsservice.RuleZoneMoveAlone ||
				e.Rule == rdsservice.RuleZoneMoveReadOnlyWindow || e.Rule == rdsservice.RuleMinorVersionPending || e.Rule == rdsservice.RuleUpgradePending ||
				e.Rule == rdsservice.RuleEndpointChangeRefused || e.Rule == rdsservice.RuleAutoScaleOffBelow {
				return e.Rule
			}
		}
	}
	return dataLossGuard(p) // prevent_data_loss
}

// refusedDelete reports whether a resource's plan was refused because the cloud would refuse to
// delete its instance (a destroy, or a replacement, of an instance with deletion protection).
func refusedDelete(p *oraclePlanned) bool {
	if p == nil {
		return false
	}
	if p.action == actDelete {
		return true
	}
	for _, d := range p.decisions {
		if d.Guard == rdsservice.GuardDeletionProtection || refusedPrepaidDelete(d) {
			return true
		}
	}
	return false
}

var (
	idPattern        = regexp.MustCompile(`\b(rm|rr|pgm|pgr|rds)-[a-z0-9]+\b`)
	leadingIDPattern = regexp.MustCompile(`^(rm|rr|pgm|pgr|rds)-[a-z0-9]+\b`)
)

// ---- asking the cloud about a refused plan ----

// probeRefusal sends the cloud, directly, the request a refused plan stood for (the create of an
// instance, a read-only instance or a clone, then the flag it was configured with; the spec change;
// or the delete of a replacement or a destroy) and reports what it answered: refused is true when
// the cloud refuses too, or makes something other than what was configured (a clone's engine
// version). policy is true when a provider guard refused the plan (prevent_restart, by rule id),
// which the cloud has no equivalent of; probed is false when there is no request to compare.
func (w *oracleWorld) probeRefusal(order []oracleResource, plan *oraclePlan) (refused, policy, probed bool, answer string) {
	var r oracleResource
	idx := 0
	for i, c := range append(append([]oracleResource(nil), order...), w.orphans(order)...) {
		if c.addr == plan.errAt {
			r, idx = c, i
		}
	}
	if idx >= len(order) {
		// A refused destroy: the delete alone is the request to compare.
		idx = 0
	}
	p := plan.res[r.addr]
	if guard := guardOf(p); guard != "" {
		return true, true, true, "provider guard " + string(guard)
	}
	// Terraform applies what comes first (the primary, the source) before this resource: so does
	// the probe, through the provider, so the cloud is asked in the state it would then be in.
	if idx > 0 {
		res, err := w.applyWalk(order[:idx], plan)
		if err != nil || res.errAt != "" {
			return false, false, false, "not probed: applying the resources before it failed"
		}
	}
	r.attrs = w.resolvedAttrs(r)
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got probeAnswer
	switch {
	case r.typeName() == "rds_backup_policy":
		// Its request is ModifyBackupPolicy, not an instance's create or spec change.
		got = probeAnswer{why: "a refused backup policy has no instance request to compare"}
	case isAccessType(r.typeName()):
		got = probeAnswer{why: "a refused access resource has no instance request to compare"}
	case r.typeName() == "rds_db_proxy":
		got = probeAnswer{why: "a refused database proxy has no instance request to compare"}
	case p.prior.IsNull():
		got = w.probeCreate(ctx, api, r)
	case refusedDelete(p):
		var id string
		_ = attrOf(p.prior, "id").As(&id)
		got = probeAnswer{sent: true, err: api.DeleteDBInstance(ctx, id)}
	case r.typeName() == "rds_readonly_instance" && w.goneWithPrimary(ctx, api, p.prior):
		// Its primary was replaced before it (the cloud deleted it with the old primary): the
		// apply creates it again, against the new primary.
		got = w.probeCreate(ctx, api, r)
	default:
		var id string
		_ = attrOf(p.prior, "id").As(&id)
		got = w.probeSpec(ctx, api, id, r.attrs)
	}
	if !got.sent {
		return false, false, false, "not probed: " + got.why
	}
	if got.err == nil {
		return false, false, true, "accepted" + map[bool]string{true: " (after applying the resources planned before it)", false: ""}[idx > 0]
	}
	return true, false, true, "refused: " + stripIDs(firstLine(got.err.Error()))
}

// goneWithPrimary reports whether a read-only instance no longer exists because the resources
// applied before it replaced its primary.
func (w *oracleWorld) goneWithPrimary(ctx context.Context, api rdsapi.API, prior tftypes.Value) bool {
	var id, master string
	_ = attrOf(prior, "id").As(&id)
	_ = attrOf(prior, "master_instance_id").As(&master)
	if _, err := api.DescribeDBInstanceAttribute(ctx, master); !rdsapi.IsNotFound(err) {
		return false
	}
	_, err := api.DescribeDBInstanceAttribute(ctx, id)
	return rdsapi.IsNotFound(err)
}

// probeAnswer is the cloud's answer to a probe; sent is false when no request stood for the plan.
type probeAnswer struct {
	sent bool
	why  string
	err  error
}

// resolvedAttrs is r's configuration with references resolved from the state (ids, flags).
func (w *oracleWorld) resolvedAttrs(r oracleResource) map[string]any {
	attrs := map[string]any{}
	for k, v := range r.attrs {
		attrs[k] = resolveRef(v, w.state)
	}
	return attrs
}

func resolveRef(v any, state map[string]tftypes.Value) any {
	switch x := v.(type) {
	case oracleRef:
		val := attrOf(state[x.addr], x.attr)
		if !val.IsKnown() || val.IsNull() {
			return nil
		}
		var b bool
		if val.As(&b) == nil {
			return b
		}
		var s string
		if val.As(&s) == nil {
			return s
		}
		return nil
	case oracleDependent:
		return x.value
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = resolveRef(e, state)
		}
		return out
	}
	return v
}

func probeStr(attrs map[string]any, name, fallback string) string {
	if s, ok := attrs[name].(string); ok {
		return s
	}
	return fallback
}

func probeNum(attrs map[string]any, name string, fallback int64) int64 {
	if n, ok := attrs[name].(int); ok {
		return int64(n)
	}
	return fallback
}

// probeCreate sends the create a refused plan of a new resource stood for: CreateDBInstance,
// CreateReadOnlyDBInstance or CloneDBInstance. When the cloud takes it, the new instance is
// compared with the configuration (a clone inherits its source's engine version; the cloud cannot
// be asked for another), then sent the configured flag when it differs, as the apply would.
func (w *oracleWorld) probeCreate(ctx context.Context, api rdsapi.API, r oracleResource) probeAnswer {
	a := r.attrs
	var resp *rdsapi.CreateDBInstanceResponse
	var err error
	switch restore, _ := a["restore_from"].(map[string]any); {
	case r.typeName() == "rds_readonly_instance":
		master := probeStr(a, "master_instance_id", "")
		if master == "" {
			return probeAnswer{why: "the primary is not created"}
		}
		resp, err = api.CreateReadOnlyDBInstance(ctx, &rdsapi.CreateReadOnlyDBInstanceRequest{RegionID: simulator.DefaultRegion,
			PrimaryDBInstanceID: master, EngineVersion: probeStr(a, "engine_version", ""), DBInstanceClass: probeStr(a, "instance_type", ""),
			DBInstanceStorage: probeNum(a, "storage", 0), DBInstanceStorageType: probeStr(a, "storage_type", "")})
	case restore != nil:
		source := probeStr(restore, "source_instance_id", "")
		if source == "" {
			return probeAnswer{why: "the source is not created"}
		}
		resp, err = api.CloneDBInstance(ctx, &rdsapi.CloneDBInstanceRequest{RegionID: simulator.DefaultRegion, SourceDBInstanceID: source,
			BackupID: probeStr(restore, "backup_id", ""), RestoreTime: probeStr(restore, "restore_time", ""), DBInstanceClass: probeStr(a, "instance_type", ""),
			DBInstanceStorage: probeNum(a, "storage", 0), DBInstanceStorageType: probeStr(a, "storage_type", ""), Category: probeStr(a, "category", "")})
	default:
		_, err = api.CreateDBInstance(ctx, &rdsapi.CreateDBInstanceRequest{
			RegionID: simulator.DefaultRegion, Engine: probeStr(a, "engine", ""), EngineVersion: probeStr(a, "engine_version", ""),
			DBInstanceClass: probeStr(a, "instance_type", ""), DBInstanceStorage: probeNum(a, "storage", 0), DBInstanceStorageType: probeStr(a, "storage_type", "cloud_essd"),
			Category: probeStr(a, "category", "HighAvailability"), SecurityIPList: "127.0.0.1", OptimizedWrites: probeFlag(a),
			IoAccelerationEnabled: map[any]string{true: "1", false: "0", nil: ""}[a["buffer_pool_extension"]],
		})
		return probeAnswer{sent: true, err: err}
	}
	if err != nil {
		return probeAnswer{sent: true, err: err}
	}
	now, err := w.waitRunning(ctx, api, resp.DBInstanceID)
	if err != nil {
		return probeAnswer{sent: true, err: err}
	}
	if v := probeStr(a, "engine_version", ""); v != "" && v != string(now.EngineVersion) {
		return probeAnswer{sent: true, err: fmt.Errorf("the cloud made engine_version %s, not the configured %s", now.EngineVersion, v)}
	}
	flag := probeFlag(a)
	if flag == "" || flag == oracleOptimizedWrites(now.OptimizedWrites != nil && now.OptimizedWrites.Enabled) {
		return probeAnswer{sent: true}
	}
	_, err = api.ModifyDBInstanceSpec(ctx, &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: resp.DBInstanceID, OptimizedWrites: flag})
	return probeAnswer{sent: true, err: err}
}

func probeFlag(a map[string]any) string {
	if b, ok := a["atomic_write_16k"].(bool); ok {
		return oracleOptimizedWrites(b)
	}
	return ""
}

// waitRunning waits (on the fake clock, up to 100 s) until the instance is Running, so that a
// refusal is never just "busy"; an instance that stays in another state (Deleting) is returned as
// it is, for the cloud to refuse.
func (w *oracleWorld) waitRunning(ctx context.Context, api rdsapi.API, id string) (*rdsapi.DBInstanceAttribute, error) {
	var now *rdsapi.DBInstanceAttribute
	var err error
	for range 100 {
		if now, err = api.DescribeDBInstanceAttribute(ctx, id); err != nil || now.DBInstanceStatus == "Running" {
			break
		}
		<-w.clock.After(time.Second)
	}
	return now, err
}

// probeSpec sends the spec change a refused update stood for, against the instance as the cloud
// has it now (earlier resources of the run may have changed it).
func (w *oracleWorld) probeSpec(ctx context.Context, api rdsapi.API, id string, a map[string]any) probeAnswer {
	now, err := w.waitRunning(ctx, api, id)
	if err != nil {
		w.h.t.Fatalf("probe of %s: reading it: %v", id, err)
	}
	if v := probeStr(a, "engine_version", ""); v != "" && v != string(now.EngineVersion) {
		// Issue 25: a version change of an existing instance is an upgrade in place.
		_, err = api.UpgradeDBInstanceEngineVersion(ctx, &rdsapi.UpgradeDBInstanceEngineVersionRequest{DBInstanceID: id, EngineVersion: v})
		return probeAnswer{sent: true, err: err}
	}
	flag := probeFlag(a)
	if flag == oracleOptimizedWrites(now.OptimizedWrites != nil && now.OptimizedWrites.Enabled) {
		flag = ""
	}
	req := &rdsapi.ModifyDBInstanceSpecRequest{DBInstanceID: id, DBInstanceClass: probeStr(a, "instance_type", now.DBInstanceClass),
		DBInstanceStorage: probeNum(a, "storage", int64(now.DBInstanceStorage)), DBInstanceStorageType: probeStr(a, "storage_type", now.DBInstanceStorageType), OptimizedWrites: flag}
	if req.DBInstanceStorageType == now.DBInstanceStorageType {
		req.DBInstanceStorageType = ""
	}
	if b, ok := a["buffer_pool_extension"].(bool); ok {
		req.IoAccelerationEnabled = map[bool]string{true: "1", false: "0"}[b]
	}
	if z := probeStr(a, "zone_id", ""); z != "" && z != now.ZoneID && req.DBInstanceClass == now.DBInstanceClass &&
		req.DBInstanceStorage == int64(now.DBInstanceStorage) && req.DBInstanceStorageType == "" && flag == "" {
		// Issue 25 §3: a zone change alone of an existing primary is a move in place.
		_, err = api.MigrateToOtherZone(ctx, &rdsapi.MigrateToOtherZoneRequest{DBInstanceID: id, ZoneID: z,
			ZoneIDSlave1: probeStr(a, "zone_id_slave_a", map[bool]string{true: "", false: z}[strings.EqualFold(now.Category, "Basic")]),
			VPCID:        now.VpcID, VSwitchID: probeStr(a, "vswitch_id", now.VSwitchID)})
		return probeAnswer{sent: true, err: err}
	}
	_, err = api.ModifyDBInstanceSpec(ctx, req)
	return probeAnswer{sent: true, err: err}
}

func oracleOptimizedWrites(on bool) string {
	if on {
		return rdsapi.OptimizedWritesOn
	}
	return rdsapi.OptimizedWritesOff
}

func firstLine(s string) string {
	if i := strings.Index(s, " (request id"); i > 0 {
		s = s[:i]
	}
	return s
}

// directClient is an API client of the current simulator, for probes.
func (h *oracleHarness) directClient() (rdsapi.API, error) {
	cred, _, err := buildCredential(settings{accessKey: simulator.DefaultAccessKeyID, secretKey: simulator.DefaultAccessKeySecret})
	if err != nil {
		return nil, err
	}
	now := time.Now
	if c := h.clock.Load(); c != nil {
		now = c.Now
	}
	return rdsapi.New(rdsapi.Config{RegionID: simulator.DefaultRegion, Endpoint: h.url, Credentials: cred, MaxRetries: h.maxRetries, Now: now})
}

// throttleCounter counts the answers that are Throttling errors.
type throttleCounter struct {
	http.ResponseWriter
	count *atomic.Int64
	seen  bool
}

func (c *throttleCounter) Write(b []byte) (int, error) {
	if !c.seen {
		c.seen = true
		if strings.Contains(string(b), "Throttling") {
			c.count.Add(1)
		}
	}
	return c.ResponseWriter.Write(b)
}
