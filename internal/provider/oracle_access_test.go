package provider

// The access oracle: generated scenarios over rds_database, rds_account and rds_account_privilege on a
// primary and on its read-only instance, each step planned and applied through the plugin protocol (the
// instance oracle's harness) against a simulator whose instances serve MySQL endpoints. Between steps the
// cloud drifts, by SQL and by the API. Each step must keep three promises: errors only at plan (a refused plan
// is probed against the cloud where the cloud can be asked), the next plan empty, and every grant the plan
// shows is the one MySQL enforces, read over a real MySQL connection (go-sql-driver/mysql). Every step also
// compares what SQL shows (SHOW DATABASES, SHOW GRANTS) with what the API reports.

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

const (
	accessAdmin         = "oracle_admin"
	accessPassword      = "Oracle-Pass1"
	accessScenarioSteps = 4
)

// accessPrivileges are the database privileges of each type, after "Account permissions" for RDS MySQL
// (help/en/rds/apsaradb-rds-for-mysql/account-permissions) without its global PROCESS and REPLICATION
// privileges, which are not database grants: what MySQL must enforce for a grant the plan shows.
var accessPrivileges = map[string][]string{
	"ReadOnly": {"SELECT", "SHOW VIEW"},
	"ReadWrite": {"ALTER", "ALTER ROUTINE", "CREATE", "CREATE ROUTINE", "CREATE TEMPORARY TABLES", "CREATE VIEW", "DELETE",
		"DROP", "EVENT", "EXECUTE", "INDEX", "INSERT", "LOCK TABLES", "REFERENCES", "SELECT", "SHOW VIEW", "TRIGGER", "UPDATE"},
	"DDLOnly": {"ALTER", "ALTER ROUTINE", "CREATE", "CREATE ROUTINE", "CREATE TEMPORARY TABLES", "CREATE VIEW", "DROP",
		"INDEX", "LOCK TABLES", "SHOW VIEW"},
	"DMLOnly": {"CREATE TEMPORARY TABLES", "DELETE", "EVENT", "EXECUTE", "INSERT", "LOCK TABLES", "SELECT", "SHOW VIEW",
		"TRIGGER", "UPDATE"},
}

var accessPrivilegeTypes = []string{"ReadWrite", "ReadOnly", "DDLOnly", "DMLOnly"}

// accessFloors are the least a run must compare of each kind.
type accessFloors struct{ scenarios, applied, probed, compared int }

// Measured with seeds 1, 2, 3, 20261201, 20261202 and 20261203 (short form, 20 scenarios, 4-10 s): scenarios
// applied through to their destroy 10-16, steps applied 50-67, probed 4-10, compared 40-67; long form (200
// scenarios, seed 20261201, 40-70 s): 140 scenarios, 599 steps, probed 60, compared 485.
var (
	accessShortFloors = accessFloors{scenarios: 8, applied: 40, probed: 3, compared: 32}
	accessLongFloors  = accessFloors{scenarios: 115, applied: 500, probed: 45, compared: 400}
)

// accessModel is one configuration of the access resources; slots keep their addresses across steps, so a
// rename is a replacement of the same address.
type accessModel struct {
	onReplica bool // the resources name the read-only instance: refused at plan
	dbs       []accessDB
	accounts  []accessAccount
	grants    []accessGrant
}

type accessDB struct {
	slot        int
	name, descr string
}

type accessAccount struct {
	slot        int
	name, descr string
	super       bool
}

type accessGrant struct {
	slot      int
	account   int // index into accounts
	privilege string
	dbs       []int // indexes into dbs
}

func (m accessModel) clone() accessModel {
	out := m
	out.dbs, out.accounts = slices.Clone(m.dbs), slices.Clone(m.accounts)
	out.grants = make([]accessGrant, len(m.grants))
	for i, g := range m.grants {
		g.dbs = slices.Clone(g.dbs)
		out.grants[i] = g
	}
	return out
}

// order is the configuration: databases, accounts, then grants, with literal names (the provider's run
// registry resolves what this configuration creates).
func (m accessModel) order(primary, replica string) []oracleResource {
	id := primary
	if m.onReplica {
		id = replica
	}
	var out []oracleResource
	for _, d := range m.dbs {
		attrs := map[string]any{"instance_id": id, "name": d.name, "character_set": "utf8mb4"}
		if d.descr != "" {
			attrs["description"] = d.descr
		}
		out = append(out, oracleResource{addr: fmt.Sprintf("rds_database.d%d", d.slot), attrs: attrs})
	}
	for _, a := range m.accounts {
		attrs := map[string]any{"instance_id": id, "name": a.name, "password": accessPassword}
		if a.super {
			attrs["type"] = "Super"
		}
		if a.descr != "" {
			attrs["description"] = a.descr
		}
		out = append(out, oracleResource{addr: fmt.Sprintf("rds_account.a%d", a.slot), attrs: attrs})
	}
	for _, g := range m.grants {
		var names []string
		for _, i := range g.dbs {
			names = append(names, m.dbs[i].name)
		}
		out = append(out, oracleResource{addr: fmt.Sprintf("rds_account_privilege.g%d", g.slot), attrs: map[string]any{
			"instance_id": id, "account_name": m.accounts[g.account].name, "privilege": g.privilege, "db_names": names,
		}})
	}
	return out
}

// accessStep is one step of a scenario: what the cloud undergoes behind Terraform's back, then the
// configuration Terraform applies.
type accessStep struct {
	name  string
	drift func(w *accessWorld) error
	model accessModel
	// reimport: the access resources leave the state and come back by `terraform import`.
	reimport bool
}

type accessScenario struct {
	name  string
	admin bool // an oracle-owned privileged account runs the SQL drift and the SQL-vs-API comparisons
	steps []accessStep
	// afterApply, when set, acts on the cloud right after each apply (the oracle's own test uses it to show
	// that it notices).
	afterApply func(w *accessWorld)
}

// accessWorld is one scenario's cloud.
type accessWorld struct {
	*oracleWorld
	api              rdsapi.API
	primary, replica string
	admin            bool
	// pools are the client pools of the oracle's logins, closed with the world.
	pools      []*sql.DB
	afterApply func(w *accessWorld)
}

// accessTally counts what a run compared, and its disagreements.
type accessTally struct {
	// scenarios counts those applied through to their destroy; applied, the steps applied.
	run, scenarios, applied, probed, notProbed, compared int
	disagreements                                        []string
}

func (t *accessTally) disagree(format string, args ...any) {
	t.disagreements = append(t.disagreements, fmt.Sprintf(format, args...))
}

// TestAccessOraclePlanAgreesWithMySQL runs the access oracle: 20 scenarios a seed in the short form (make test, over
// the fixed seeds oracleCISeeds), 200 with RDS_ORACLE_LONG (make test-oracle). RDS_ORACLE_SEED replays one seed;
// make test-sweep runs many.
func TestAccessOraclePlanAgreesWithMySQL(t *testing.T) {
	t.Parallel()
	count, floors := 20, accessShortFloors
	if os.Getenv("RDS_ORACLE_LONG") != "" {
		count, floors = 200, accessLongFloors
	}
	h := newOracleHarness(t)
	for _, seed := range oracleSeeds(t) {
		tally := runAccessOracle(t, h, seed, count, floors)
		tally.check(t, seed, floors)
	}
}

// runAccessOracle runs count scenarios drawn from seed, then, while a floor is still unmet, up to twice as many
// again (accessTopUp): the scenarios' kinds are fixed by their index (generateAccessScenario), so the floors hold
// for every seed by construction, and a harness that refuses or skips everything still fails them.
func runAccessOracle(t *testing.T, h *oracleHarness, seed uint64, count int, floors accessFloors) *accessTally {
	t.Logf("access oracle seed %d (replay with RDS_ORACLE_SEED=%d); %d scenarios", seed, seed, count)
	rng := rand.New(rand.NewPCG(seed, 24))
	tally := &accessTally{}
	start := time.Now()
	n := 0
	for ; n < count || !tally.meets(floors) && n < accessTopUp*count; n++ {
		h.runAccessScenario(generateAccessScenario(rng, n), tally)
	}
	t.Logf("access oracle seed %d ran in %v: %d scenarios (%d beyond the %d drawn, to meet the floors), %d applied through to their destroy (floor %d); "+
		"steps applied %d (floor %d); refusals probed against the cloud %d (floor %d); refusals not probed %d; SQL-vs-API comparisons %d (floor %d)",
		seed, time.Since(start).Round(time.Millisecond), tally.run, n-count, count, tally.scenarios, floors.scenarios, tally.applied, floors.applied,
		tally.probed, floors.probed, tally.notProbed, tally.compared, floors.compared)
	return tally
}

// accessTopUp bounds a run: at most this many times the drawn scenarios, when the floors are not met sooner.
const accessTopUp = 3

// floorRows are the tally's counts beside their floors.
func (t *accessTally) floorRows(floors accessFloors) []floorRow {
	return []floorRow{{"scenarios applied through to their destroy", t.scenarios, floors.scenarios},
		{"applied steps", t.applied, floors.applied}, {"refusals probed against the cloud", t.probed, floors.probed},
		{"SQL-vs-API comparisons", t.compared, floors.compared}}
}

func (t *accessTally) meets(floors accessFloors) bool { return floorsMet(t.floorRows(floors)) }

// check fails the test on each disagreement and each unmet floor.
func (t *accessTally) check(tb testing.TB, seed uint64, floors accessFloors) {
	for _, d := range t.disagreements {
		tb.Errorf("DISAGREEMENT (seed %d) %s", seed, d)
	}
	for _, f := range t.floorRows(floors) {
		if f.got < f.want {
			tb.Errorf("seed %d: only %d %s, floor %d", seed, f.got, f.what, f.want)
		}
	}
}

// newAccessWorld is a world whose MySQL instances serve endpoints: a primary and its read-only instance,
// both letting loopback in, and (admin) a privileged account the oracle owns.
func (h *oracleHarness) newAccessWorld(admin bool) (*accessWorld, error) {
	h.srv.CloseClientConnections()
	clock := &oracleClock{now: time.Now().UTC()}
	opts := oracleSimOptions
	opts.Now, opts.AccountDuration, opts.Endpoints = clock.Now, time.Second, mysqlendpoint.ForSimulator
	sim, err := simulator.New(opts)
	if err != nil {
		return nil, err
	}
	h.t.Cleanup(func() { _ = sim.Close() })
	h.current.Store(sim)
	w := &accessWorld{oracleWorld: &oracleWorld{h: h, sim: sim, clock: clock, state: map[string]tftypes.Value{}, priv: map[string][]byte{}}, admin: admin}
	seed := simulator.SeedInstance{Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2.medium.2c", Storage: 20,
		StorageType: "cloud_essd", Category: "HighAvailability"}
	if w.primary, err = sim.AddInstance(seed); err != nil {
		return nil, err
	}
	seed.MasterID = w.primary
	if w.replica, err = sim.AddInstance(seed); err != nil {
		return nil, err
	}
	if w.api, err = h.directClient(); err != nil {
		return nil, err
	}
	ctx := context.Background()
	for _, id := range []string{w.primary, w.replica} {
		if err := w.api.ModifySecurityIps(ctx, &rdsapi.ModifySecurityIpsRequest{DBInstanceID: id, SecurityIps: "127.0.0.1"}); err != nil {
			return nil, err
		}
	}
	if admin {
		if err := w.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: w.primary, AccountName: accessAdmin,
			AccountPassword: accessPassword, AccountType: rdsapi.AccountTypeSuper}); err != nil {
			return nil, err
		}
		w.clock.After(opts.AccountDuration)
	}
	return w, nil
}

// ---- scenarios ----

// generateAccessScenario draws a scenario: a first configuration, then changes (rename, type change,
// description added or removed, grants widened, narrowed or of another type), drift made by SQL or by the
// API, an import, and a destroy. Its kind follows from n, not from the seed, so that every seed's run has the
// same share of each: five in six have the oracle's privileged account (SQL drift and the SQL-vs-API
// comparisons), one in eight names the read-only instance (refused at plan, and probed).
func generateAccessScenario(rng *rand.Rand, n int) accessScenario {
	g := &accessGen{rng: rng}
	sc := accessScenario{name: fmt.Sprintf("access-%02d", n), admin: n%6 != 5}
	m := g.initial(n%8 == 3)
	sc.steps = append(sc.steps, accessStep{name: "create", model: m})
	for range accessScenarioSteps - 2 {
		step := g.change(m, sc.admin)
		sc.steps = append(sc.steps, step)
		m = step.model
	}
	sc.steps = append(sc.steps, accessStep{name: "destroy", model: accessModel{onReplica: m.onReplica}})
	for _, s := range sc.steps {
		sc.name += " " + s.name
	}
	return sc
}

type accessGen struct {
	rng   *rand.Rand
	names int
}

func (g *accessGen) name(prefix string) string {
	g.names++
	return fmt.Sprintf("%s%d", prefix, g.names)
}

func (g *accessGen) initial(onReplica bool) accessModel {
	m := accessModel{onReplica: onReplica}
	for i := range 1 + g.rng.IntN(3) {
		m.dbs = append(m.dbs, accessDB{slot: i, name: g.name("db")})
	}
	for i := range 1 + g.rng.IntN(2) {
		m.accounts = append(m.accounts, accessAccount{slot: i, name: g.name("app")})
	}
	for i := range m.accounts {
		if g.rng.IntN(3) != 0 {
			m.grants = append(m.grants, accessGrant{slot: i, account: i, privilege: g.pick(accessPrivilegeTypes), dbs: g.someDBs(m)})
		}
	}
	return m
}

func (g *accessGen) pick(from []string) string { return from[g.rng.IntN(len(from))] }

func (g *accessGen) someDBs(m accessModel) []int {
	var out []int
	for i := range m.dbs {
		if g.rng.IntN(2) == 0 {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		out = []int{g.rng.IntN(len(m.dbs))}
	}
	return out
}

// change is one step after the first: a configuration change, or drift with the configuration unchanged, or
// an import.
func (g *accessGen) change(prior accessModel, admin bool) accessStep {
	m := prior.clone()
	kinds := []string{"rename", "type", "description", "grant-dbs", "grant-type", "api-drift", "import"}
	if admin {
		kinds = append(kinds, "sql-drift", "sql-drift")
	}
	switch kind := g.pick(kinds); kind {
	case "rename":
		i := g.rng.IntN(len(m.dbs))
		m.dbs[i].name = g.name("db")
		return accessStep{name: "rename", model: m}
	case "type":
		i := g.rng.IntN(len(m.accounts))
		m.accounts[i].super = !m.accounts[i].super
		m.grants = slices.DeleteFunc(m.grants, func(gr accessGrant) bool { return gr.account == i })
		return accessStep{name: "type", model: m}
	case "description":
		if g.rng.IntN(2) == 0 {
			i := g.rng.IntN(len(m.dbs))
			m.dbs[i].descr = toggleDescription(m.dbs[i].descr)
		} else {
			i := g.rng.IntN(len(m.accounts))
			m.accounts[i].descr = toggleDescription(m.accounts[i].descr)
		}
		return accessStep{name: "description", model: m}
	case "grant-dbs", "grant-type":
		if len(m.grants) == 0 {
			return accessStep{name: "api-drift", model: m, drift: g.apiDrift(m)}
		}
		i := g.rng.IntN(len(m.grants))
		if kind == "grant-type" {
			m.grants[i].privilege = g.pick(accessPrivilegeTypes)
		} else {
			m.grants[i].dbs = g.someDBs(m)
		}
		return accessStep{name: kind, model: m}
	case "api-drift":
		return accessStep{name: kind, model: m, drift: g.apiDrift(m)}
	case "sql-drift":
		return accessStep{name: kind, model: m, drift: g.sqlDrift(m)}
	}
	return accessStep{name: "import", model: m, reimport: true}
}

func toggleDescription(d string) string {
	if d == "" {
		return "managed by the oracle"
	}
	return ""
}

// apiDrift changes, through the API, something the configuration manages.
func (g *accessGen) apiDrift(m accessModel) func(*accessWorld) error {
	db, account := m.dbs[g.rng.IntN(len(m.dbs))].name, m.accounts[g.rng.IntN(len(m.accounts))].name
	var grant *accessGrant
	if len(m.grants) > 0 {
		grant = &m.grants[g.rng.IntN(len(m.grants))]
	}
	choice := g.rng.IntN(4)
	return func(w *accessWorld) error {
		ctx, id := context.Background(), w.primary
		switch {
		case choice == 0 && grant != nil:
			return w.api.RevokeAccountPrivilege(ctx, id, m.accounts[grant.account].name, []string{m.dbs[grant.dbs[0]].name})
		case choice == 1:
			return w.api.ModifyDBDescription(ctx, id, db, "changed behind Terraform's back")
		case choice == 2:
			return w.api.DeleteAccount(ctx, id, account)
		}
		return w.api.DeleteDatabase(ctx, id, db)
	}
}

// sqlDrift changes, with SQL on the primary as the oracle's privileged account, something the configuration
// manages: a grant narrowed to a Custom one, a grant revoked, a database or an account dropped, an account's
// grant on another database added.
func (g *accessGen) sqlDrift(m accessModel) func(*accessWorld) error {
	db, account := m.dbs[g.rng.IntN(len(m.dbs))].name, m.accounts[g.rng.IntN(len(m.accounts))].name
	statements := [][]string{
		{fmt.Sprintf("REVOKE ALL ON `%s`.* FROM '%s'@'%%'", db, account)},
		{fmt.Sprintf("GRANT SELECT ON `%s`.* TO '%s'@'%%'", db, account)},
		{fmt.Sprintf("DROP DATABASE `%s`", db)},
		{fmt.Sprintf("DROP USER '%s'@'%%'", account)},
		{"CREATE DATABASE sqlmade", fmt.Sprintf("GRANT SELECT, INSERT ON sqlmade.* TO '%s'@'%%'", account)},
	}
	if len(m.grants) > 0 {
		gr := m.grants[g.rng.IntN(len(m.grants))]
		statements = append(statements, []string{fmt.Sprintf("REVOKE SELECT ON `%s`.* FROM '%s'@'%%'", m.dbs[gr.dbs[0]].name, m.accounts[gr.account].name)})
	}
	chosen := statements[g.rng.IntN(len(statements))]
	return func(w *accessWorld) error {
		conn, err := w.login(w.primary, accessAdmin, "")
		if err != nil {
			return err
		}
		defer func() { _ = conn.Close() }()
		for _, s := range chosen {
			// A statement on something already gone is refused by MySQL: that is drift too, of nothing.
			_, _ = conn.ExecContext(context.Background(), s)
		}
		return nil
	}
}

// ---- running a scenario ----

func (h *oracleHarness) runAccessScenario(sc accessScenario, tally *accessTally) {
	w, err := h.newAccessWorld(sc.admin)
	if err != nil {
		h.t.Fatalf("%s: %v", sc.name, err)
	}
	defer func() {
		for _, db := range w.pools {
			_ = db.Close()
		}
		_ = w.sim.Close()
	}()
	tally.run++
	for i, step := range sc.steps {
		name := fmt.Sprintf("%s [step %d: %s]", sc.name, i, step.name)
		if step.drift != nil {
			if err := step.drift(w); err != nil {
				h.t.Logf("%s: drift refused by the cloud (nothing drifted): %v", name, err)
			}
		}
		order := step.model.order(w.primary, w.replica)
		if step.reimport {
			if err := w.reimport(order); err != nil {
				tally.disagree("%s: %v", name, err)
				return
			}
		}
		w.afterApply = sc.afterApply
		if !w.runAccessStep(name, order, step.model, tally) {
			return // Terraform stopped at the plan: the later steps build on a configuration never applied
		}
	}
	tally.scenarios++
}

// runAccessStep plans and applies one configuration and checks the promises; false when the plan refused it.
func (w *accessWorld) runAccessStep(name string, order []oracleResource, m accessModel, tally *accessTally) bool {
	w.sim.ResetStats()
	plan, err := w.planWalk(order)
	if err != nil {
		w.h.t.Fatalf("%s: plan walk: %v", name, err)
	}
	if n := mutationsIn(w.sim.Stats()); n > 0 {
		tally.disagree("%s: planning sent %d mutating requests %v", name, n, w.sim.Stats().Requests)
	}
	if plan.errAt != "" {
		w.probeAccessRefusal(name, m, plan, tally)
		return false
	}
	res, err := w.applyWalk(order, plan)
	if err != nil {
		w.h.t.Fatalf("%s: apply walk: %v", name, err)
	}
	if res.errAt != "" {
		tally.disagree("%s: the plan passed and the apply failed at %s: %s", name, res.errAt, oneLine(res.errMsg))
		return false
	}
	for _, inc := range res.inconsistent {
		tally.disagree("%s: %s: %s %v", name, inc.addr, inc.what, inc.diff)
	}
	if w.afterApply != nil {
		w.afterApply(w)
	}
	next, err := w.planWalk(order)
	if err != nil {
		w.h.t.Fatalf("%s: verifying plan walk: %v", name, err)
	}
	if next.errAt != "" {
		tally.disagree("%s: the plan after a clean apply fails at %s: %s", name, next.errAt, oneLine(next.errMsg))
	}
	for addr, p := range next.res {
		if p.action != actNoop {
			tally.disagree("%s: the plan after the apply is not empty: %s %s", name, addr, p.action)
		}
	}
	tally.applied++
	w.checkGrantsEnforced(name, m, tally)
	w.compareSQLWithAPI(name, tally)
	return true
}

// probeAccessRefusal asks the cloud what the refused plan would have asked where it can be asked: a write
// on a read-only instance, a second privileged account. The cloud must refuse it too.
func (w *accessWorld) probeAccessRefusal(name string, m accessModel, plan *oraclePlan, tally *accessTally) {
	ctx := context.Background()
	var probe error
	switch {
	case m.onReplica:
		probe = w.api.CreateDatabase(ctx, &rdsapi.CreateDatabaseRequest{DBInstanceID: w.replica, DBName: "probe", CharacterSetName: "utf8mb4"})
	case strings.Contains(plan.errMsg, "Super") && w.superCount(m) > 0:
		probe = w.api.CreateAccount(ctx, &rdsapi.CreateAccountRequest{DBInstanceID: w.primary, AccountName: "probe_super",
			AccountPassword: accessPassword, AccountType: rdsapi.AccountTypeSuper})
	default:
		tally.notProbed++
		w.h.t.Logf("%s: refused at plan, not probed: %s: %s", name, plan.errAt, oneLine(plan.errMsg))
		return
	}
	if probe == nil {
		tally.disagree("%s: refused at plan (%s: %s), but the cloud accepts it", name, plan.errAt, oneLine(plan.errMsg))
		return
	}
	tally.probed++
}

// superCount counts the privileged accounts the instance would have: the oracle's, and the configuration's.
func (w *accessWorld) superCount(m accessModel) int {
	n := 0
	if w.admin {
		n++
	}
	for _, a := range m.accounts {
		if a.super {
			n++
		}
	}
	return n - 1
}

// reimport is `terraform state rm` and `terraform import` of every access resource in state.
func (w *accessWorld) reimport(order []oracleResource) error {
	for _, r := range order {
		v, ok := w.state[r.addr]
		if !ok {
			continue
		}
		var id string
		if err := attrOf(v, "id").As(&id); err != nil {
			return err
		}
		delete(w.state, r.addr)
		delete(w.priv, r.addr)
		if err := w.importInstance(r.addr, id); err != nil {
			return err
		}
	}
	return nil
}

// ---- what MySQL enforces ----

// login opens one connection to an instance's endpoint as an account (the oracle's admin: accessPassword).
func (w *accessWorld) login(instanceID, account, database string) (*sql.Conn, error) {
	address, ok := w.sim.EndpointAddress(instanceID)
	if !ok {
		return nil, fmt.Errorf("instance %s serves no MySQL endpoint", instanceID)
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = account, accessPassword, "tcp", address, database
	cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = 5*time.Second, 5*time.Second, 5*time.Second
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(connector)
	w.pools = append(w.pools, db)
	return db.Conn(context.Background())
}

var grantLine = regexp.MustCompile("^GRANT (.+) ON `?([^`.]+)`?\\.\\* TO ")

// showGrants is SHOW GRANTS (for the account logged in, or FOR another): database -> sorted privileges.
func showGrants(conn *sql.Conn, forAccount string) (map[string][]string, error) {
	query := "SHOW GRANTS"
	if forAccount != "" {
		query += fmt.Sprintf(" FOR '%s'@'%%'", forAccount)
	}
	rows, err := conn.QueryContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	out := map[string][]string{}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if m := grantLine.FindStringSubmatch(line); m != nil && m[2] != "*" {
			privs := strings.Split(m[1], ", ")
			sort.Strings(privs)
			out[m[2]] = privs
		}
	}
	return out, rows.Err()
}

// checkGrantsEnforced checks, on the primary and on the read-only instance, that MySQL enforces exactly the
// planned privilege type on each planned database: the account logs in with each of them as its default
// database, and SHOW GRANTS (as the oracle's privileged account, go-mysql-server refusing it to the account
// itself) lists the type's privileges.
func (w *accessWorld) checkGrantsEnforced(name string, m accessModel, tally *accessTally) {
	if m.onReplica {
		return
	}
	for _, id := range []string{w.primary, w.replica} {
		var admin *sql.Conn
		if w.admin {
			conn, err := w.login(id, accessAdmin, "")
			if err != nil {
				tally.disagree("%s: the oracle's privileged account cannot log in to %s: %v", name, id, err)
				return
			}
			admin = conn
		}
		for _, g := range m.grants {
			w.checkGrant(name, id, admin, m, g, tally)
		}
		if admin != nil {
			_ = admin.Close()
		}
	}
}

func (w *accessWorld) checkGrant(name, id string, admin *sql.Conn, m accessModel, g accessGrant, tally *accessTally) {
	account := m.accounts[g.account].name
	for _, i := range g.dbs {
		conn, err := w.login(id, account, m.dbs[i].name)
		if err != nil {
			tally.disagree("%s: the plan shows %s %s on %s; on %s the account cannot use it: %v", name, account, g.privilege, m.dbs[i].name, id, err)
			continue
		}
		_ = conn.Close()
	}
	if admin == nil {
		return
	}
	held, err := showGrants(admin, account)
	if err != nil {
		tally.disagree("%s: SHOW GRANTS FOR %s on %s: %v", name, account, id, err)
		return
	}
	for _, i := range g.dbs {
		if db, want := m.dbs[i].name, accessPrivileges[g.privilege]; !slices.Equal(held[db], want) {
			tally.disagree("%s: the plan shows %s %s on %s; MySQL on %s enforces %v", name, account, g.privilege, db, id, held[db])
		}
	}
}

// compareSQLWithAPI compares, as the oracle's privileged account, SHOW DATABASES and SHOW GRANTS with
// DescribeDatabases and DescribeAccounts.
func (w *accessWorld) compareSQLWithAPI(name string, tally *accessTally) {
	if !w.admin {
		return
	}
	ctx := context.Background()
	conn, err := w.login(w.primary, accessAdmin, "")
	if err != nil {
		tally.disagree("%s: the oracle's privileged account cannot log in: %v", name, err)
		return
	}
	defer func() { _ = conn.Close() }()
	databases, err := rdsservice.ListAllDatabases(ctx, w.api, w.primary)
	if err != nil {
		w.h.t.Fatalf("%s: DescribeDatabases: %v", name, err)
	}
	var apiDBs []string
	for _, d := range databases {
		apiDBs = append(apiDBs, d.DBName)
	}
	sqlDBs, err := showDatabases(conn)
	if err != nil {
		tally.disagree("%s: SHOW DATABASES: %v", name, err)
		return
	}
	sort.Strings(apiDBs)
	if !slices.Equal(apiDBs, sqlDBs) {
		tally.disagree("%s: DescribeDatabases reports %v, SHOW DATABASES %v", name, apiDBs, sqlDBs)
	}
	accounts, err := rdsservice.ListAllAccounts(ctx, w.api, w.primary)
	if err != nil {
		w.h.t.Fatalf("%s: DescribeAccounts: %v", name, err)
	}
	for _, a := range accounts {
		if a.AccountType == rdsapi.AccountTypeSuper {
			continue
		}
		held, err := showGrants(conn, a.AccountName)
		if err != nil {
			tally.disagree("%s: SHOW GRANTS FOR %s: %v", name, a.AccountName, err)
			continue
		}
		reported := map[string][]string{}
		for _, p := range a.DatabasePrivileges.DatabasePrivilege {
			privs := strings.Split(p.AccountPrivilegeDetail, ",")
			sort.Strings(privs)
			reported[p.DBName] = privs
			if want, typed := accessPrivileges[p.AccountPrivilege]; typed && !slices.Equal(want, privs) {
				tally.disagree("%s: DescribeAccounts reports %s on %s as %s with %v", name, a.AccountName, p.DBName, p.AccountPrivilege, privs)
			}
		}
		if fmt.Sprint(reported) != fmt.Sprint(held) {
			tally.disagree("%s: DescribeAccounts reports %s with %v, SHOW GRANTS %v", name, a.AccountName, reported, held)
		}
	}
	tally.compared++
}

func showDatabases(conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(context.Background(), "SHOW DATABASES")
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if name != "information_schema" && name != "mysql" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, rows.Err()
}

// The access oracle notices: a grant narrowed with SQL right after the apply makes the next plan non-empty and
// the planned grant one MySQL does not enforce. SQL and the API still agree (the store reports it as Custom).
func TestAccessOracleNoticesDisagreements(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	m := accessModel{dbs: []accessDB{{slot: 0, name: "shop"}}, accounts: []accessAccount{{slot: 0, name: "app"}},
		grants: []accessGrant{{slot: 0, account: 0, privilege: "ReadWrite", dbs: []int{0}}}}
	sc := accessScenario{name: "tampered", admin: true, steps: []accessStep{{name: "create", model: m}},
		afterApply: func(w *accessWorld) {
			conn, err := w.login(w.primary, accessAdmin, "")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = conn.Close() }()
			if _, err := conn.ExecContext(context.Background(), "REVOKE INSERT ON shop.* FROM 'app'@'%'"); err != nil {
				t.Fatal(err)
			}
		}}
	tally := &accessTally{}
	h.runAccessScenario(sc, tally)
	joined := strings.Join(tally.disagreements, "\n")
	for _, want := range []string{"the plan after the apply is not empty: rds_account_privilege.g0", "the plan shows app ReadWrite on shop; MySQL on"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the oracle did not report %q; it reported:\n%s", want, joined)
		}
	}
	if tally.compared != 1 || tally.applied != 1 {
		t.Errorf("applied %d, compared %d; want 1 and 1 (the store keeps SQL and the API in agreement)", tally.applied, tally.compared)
	}
}

// A grant narrowed with SQL is reported as Custom; the next plan grants the configured type again instead of
// refusing the pair as another rds_account_privilege's, and MySQL then enforces the configured type.
func TestAccessOracleRestoresACustomGrant(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	m := accessModel{dbs: []accessDB{{slot: 0, name: "shop"}}, accounts: []accessAccount{{slot: 0, name: "app"}},
		grants: []accessGrant{{slot: 0, account: 0, privilege: "ReadWrite", dbs: []int{0}}}}
	narrow := func(w *accessWorld) error {
		conn, err := w.login(w.primary, accessAdmin, "")
		if err != nil {
			return err
		}
		defer func() { _ = conn.Close() }()
		_, err = conn.ExecContext(context.Background(), "REVOKE INSERT ON shop.* FROM 'app'@'%'")
		return err
	}
	sc := accessScenario{name: "custom", admin: true, steps: []accessStep{{name: "create", model: m}, {name: "sql-narrowed", model: m, drift: narrow}}}
	tally := &accessTally{}
	h.runAccessScenario(sc, tally)
	if len(tally.disagreements) > 0 || tally.applied != 2 || tally.compared != 2 {
		t.Fatalf("applied %d (want 2), compared %d (want 2), disagreements:\n%s", tally.applied, tally.compared, strings.Join(tally.disagreements, "\n"))
	}
}
