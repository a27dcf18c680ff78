package provider

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// Killed applies (issue 29). The real terraform binary runs this test binary as its provider
// (dev_overrides; TestMain serves the provider when crashServeEnv is set) against an in-process
// simulator. Each kill point is a configuration applied from a given starting point and killed
// with SIGKILL (terraform and the provider, as a pre-empted runner is) as soon as the simulator has
// received the given request; then `terraform apply` runs again until it succeeds (at most twice).
// Asserted from the simulator: the instances, accounts and databases in the cloud are those in the
// state (no orphan, no duplicate), each instance restarted exactly once if a plan of the phase named
// its restart and never otherwise, and the final plan is empty.
//
// `make test` runs the short form; `make test-crash` sets RDS_CRASH_LONG=1: every request count up
// to the phase's total for every action, and the results table is printed.

const (
	crashServeEnv = "RDS_CRASH_TEST_PROVIDER"
	crashLongEnv  = "RDS_CRASH_LONG"
)

// serveProviderForCrashTest serves the provider over the plugin protocol when terraform starts this
// test binary as the provider; it reports false otherwise.
func serveProviderForCrashTest() bool {
	if os.Getenv(crashServeEnv) == "" {
		return false
	}
	err := providerserver.Serve(context.Background(), New("test"), providerserver.ServeOpts{Address: "registry.terraform.io/openrds/rds"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
	return true
}

// crashPhase is a configuration: create everything, change it (16K toggle on the primary, which
// restarts it and its read-only instance, and a class change of the clone), or destroy it.
type crashPhase int

const (
	phaseCreate crashPhase = iota
	phaseChange
	phaseDestroy
)

func (p crashPhase) String() string { return [...]string{"create", "change", "destroy"}[p] }

// crashPoint kills the apply of phase once the simulator has received count requests of action
// during it.
type crashPoint struct {
	phase  crashPhase
	action string
	count  int
}

func (p crashPoint) String() string { return fmt.Sprintf("%s/%s#%d", p.phase, p.action, p.count) }

// crashPoints are the kill points: in the short form the first request of each create action, of
// the first spec change and of the first delete; in the long form every request up to the
// phase's total of each mutating action (totals of an uninterrupted run), and the apply's waits
// (the n-th DescribeDBInstanceAttribute).
func crashPoints(long bool) []crashPoint {
	type counts struct{ short, long int }
	actions := []struct {
		phase  crashPhase
		action string
		counts
	}{
		{phaseCreate, "CreateDBInstance", counts{1, 1}}, {phaseCreate, "CloneDBInstance", counts{1, 1}},
		{phaseCreate, "CreateReadOnlyDBInstance", counts{1, 1}}, {phaseCreate, "CreateAccount", counts{1, 1}},
		{phaseCreate, "CreateDatabase", counts{1, 1}}, {phaseCreate, "DescribeDBInstanceAttribute", counts{0, 12}},
		{phaseChange, "ModifyDBInstanceSpec", counts{1, 2}}, {phaseChange, "DescribeDBInstanceAttribute", counts{0, 12}},
		{phaseDestroy, "DeleteAccount", counts{0, 1}}, {phaseDestroy, "DeleteDatabase", counts{0, 1}},
		{phaseDestroy, "DeleteDBInstance", counts{1, 3}},
	}
	var out []crashPoint
	for _, a := range actions {
		upTo := a.short
		if long {
			upTo = a.long
		}
		for n := 1; n <= upTo; n++ {
			out = append(out, crashPoint{phase: a.phase, action: a.action, count: n})
		}
	}
	return out
}

// crashConfig is the configuration of a phase: a primary, its read-only instance, a clone of src,
// an account and a database on the primary.
func crashConfig(env *testEnv, src string, phase crashPhase) string {
	cfg := requiredProviders() + env.providerBlock()
	if phase == phaseDestroy {
		return cfg
	}
	flag, cloneClass := false, "mysql.n2m.medium.2c"
	if phase == phaseChange {
		flag, cloneClass = true, "mysql.n2m.large.2c"
	}
	return cfg + fmt.Sprintf(`
resource "rds_instance" "primary" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.2c"
  storage          = 20
  instance_name    = "crash-primary"
  atomic_write_16k = %t
}

resource "rds_readonly_instance" "ro" {
  master_instance_id = rds_instance.primary.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 20
  instance_name      = "crash-ro"
}

resource "rds_instance" "clone" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = %q
  storage        = 20
  instance_name  = "crash-clone"
  restore_from = {
    source_instance_id = %q
    backup_id          = "b-crash"
  }
}

resource "rds_account" "app" {
  instance_id = rds_instance.primary.id
  name        = "app_user"
  password    = "Crash-test-1"
}

resource "rds_database" "orders" {
  instance_id = rds_instance.primary.id
  name        = "orders"
}
`, flag, cloneClass, src)
}

// crashResult is what one kill point did.
type crashResult struct {
	point    crashPoint
	fired    bool // the apply was killed (it had not finished before the point was reached)
	inFlight bool // an object existed in the cloud that the state did not name at the kill
	reruns   int
	// tornState: the kill caught Terraform writing terraform.tfstate in place and left it empty (a
	// limit of Terraform's local state, not of the provider); it was restored from the backup, as
	// a user would.
	tornState bool
	problems  []string
}

// crashTerraform runs terraform in one working directory with this test binary as the provider.
type crashTerraform struct {
	t   *testing.T
	dir string
	env []string
}

func newCrashTerraform(t *testing.T) *crashTerraform {
	t.Helper()
	tfPath := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tfPath == "" {
		p, err := exec.LookPath("terraform")
		if err != nil {
			t.Skip("terraform is not on PATH")
		}
		tfPath = p
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	plugins, dir := filepath.Join(root, "plugins"), filepath.Join(root, "work")
	for _, d := range []string{plugins, filepath.Join(dir, ".terraform")} { // .terraform: where the journal lives
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(self, filepath.Join(plugins, "terraform-provider-rds")); err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(root, "cli.tfrc")
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", providerSource(), plugins)
	if err := os.WriteFile(cli, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+cli, crashServeEnv+"=1", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_ACC_TERRAFORM_PATH="+tfPath)
	return &crashTerraform{t: t, dir: dir, env: env}
}

func providerSource() string {
	namespace := os.Getenv("TF_ACC_PROVIDER_NAMESPACE")
	if namespace == "" {
		namespace = "hashicorp"
	}
	return namespace + "/rds"
}

func (tf *crashTerraform) command(args ...string) *exec.Cmd {
	path := "terraform"
	for _, kv := range tf.env {
		if v, ok := strings.CutPrefix(kv, "TF_ACC_TERRAFORM_PATH="); ok {
			path = v
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = tf.dir, tf.env
	cmd.SysProcAttr = crashProcAttr() // the provider joins terraform's group: one kill ends both
	return cmd
}

func (tf *crashTerraform) write(config string) {
	if err := os.WriteFile(filepath.Join(tf.dir, "main.tf"), []byte(config), 0o600); err != nil {
		tf.t.Fatal(err)
	}
}

// plan saves a plan (tfplan) with `terraform plan -json`: its output holds the plan's warnings.
func (tf *crashTerraform) plan() (string, bool) {
	out, err := tf.command("plan", "-input=false", "-json", "-out=tfplan").CombinedOutput()
	return string(out), err == nil
}

// apply applies the configuration to the end; it returns the output and whether it succeeded.
// With savePlan it plans first and applies the saved plan, so that the output holds the plan's
// warnings (restarts); without, one `apply -auto-approve` (faster), whose restarts must then be none.
func (tf *crashTerraform) apply(savePlan bool) (string, bool) {
	if !savePlan {
		out, err := tf.command("apply", "-auto-approve", "-input=false", "-json").CombinedOutput()
		return string(out), err == nil
	}
	out, ok := tf.plan()
	if !ok {
		return out, false
	}
	applied, err := tf.command("apply", "-input=false", "-json", "tfplan").CombinedOutput()
	return out + string(applied), err == nil
}

// planIsEmpty runs `terraform plan -detailed-exitcode` (exit 0: no change).
func (tf *crashTerraform) planIsEmpty() (string, bool) {
	out, err := tf.command("plan", "-input=false", "-detailed-exitcode", "-no-color").CombinedOutput()
	return string(out), err == nil
}

// killedApply starts an apply and kills it (with the provider) once reached reports true; fired
// is false when the apply ended first.
func (tf *crashTerraform) killedApply(savePlan bool, reached func() bool) (output string, fired bool) {
	cmd := tf.command("apply", "-auto-approve", "-input=false", "-json")
	var buf strings.Builder
	if savePlan {
		planned, ok := tf.plan()
		if !ok {
			tf.t.Fatalf("plan before the killed apply failed:\n%s", planned)
		}
		cmd = tf.command("apply", "-input=false", "-json", "tfplan")
		buf.WriteString(planned)
	}
	var mu sync.Mutex
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tf.t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		tf.t.Fatal(err)
	}
	copied := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			mu.Lock()
			buf.WriteString(sc.Text() + "\n")
			mu.Unlock()
		}
		close(copied)
	}()
	done := make(chan struct{})
	go func() { <-copied; _ = cmd.Wait(); close(done) }()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !fired {
		select {
		case <-done:
			return buf.String(), false
		case <-tick.C:
			if reached() {
				killGroup(cmd.Process.Pid)
				fired = true
			}
		}
	}
	<-done
	mu.Lock()
	defer mu.Unlock()
	return buf.String(), true
}

// restartsNamed are the instances the plans in a `-json` output say this apply restarts.
var restartListItem = regexp.MustCompile(`(?m)^\s*- (r[a-z]-[a-z0-9]+)\b`)

var restartSummary = regexp.MustCompile(`^This apply (restarts|schedules a restart)`)

func restartsNamed(jsonOutput string, into map[string]bool) {
	for _, line := range strings.Split(jsonOutput, "\n") {
		var msg struct {
			Type       string `json:"type"`
			Diagnostic struct {
				Summary, Detail string
			} `json:"diagnostic"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil || msg.Type != "diagnostic" || !restartSummary.MatchString(msg.Diagnostic.Summary) {
			continue
		}
		for _, m := range restartListItem.FindAllStringSubmatch(msg.Diagnostic.Detail, -1) {
			into[m[1]] = true
		}
	}
}

// restoreTornState puts back terraform.tfstate.backup (the state before the apply) when the kill
// left terraform.tfstate empty; it reports whether it did.
func (tf *crashTerraform) restoreTornState() bool {
	state := filepath.Join(tf.dir, "terraform.tfstate")
	raw, err := os.ReadFile(state)
	if err != nil || len(raw) > 0 {
		return false
	}
	backup, err := os.ReadFile(state + ".backup")
	if err != nil || len(backup) == 0 {
		return false
	}
	if err := os.WriteFile(state, backup, 0o600); err != nil {
		tf.t.Fatal(err)
	}
	return true
}

// stateObjects lists the instances and the accounts and databases (instance:name) the state names.
func (tf *crashTerraform) stateObjects() (instances, access map[string]bool) {
	instances, access = map[string]bool{}, map[string]bool{}
	raw, err := os.ReadFile(filepath.Join(tf.dir, "terraform.tfstate"))
	if os.IsNotExist(err) || (err == nil && len(raw) == 0) { // killed before its first write
		return instances, access
	}
	if err != nil {
		tf.t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type      string
			Instances []struct {
				Attributes map[string]any
			}
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		tf.t.Fatalf("terraform.tfstate: %v", err)
	}
	for _, r := range st.Resources {
		for _, in := range r.Instances {
			id, _ := in.Attributes["id"].(string)
			switch r.Type {
			case "rds_instance", "rds_readonly_instance":
				instances[id] = true
			case "rds_account", "rds_database":
				access[r.Type+" "+id] = true
			}
		}
	}
	return instances, access
}

// cloudObjects lists the instances (but src), and their accounts and databases, the simulator holds.
func (e *testEnv) cloudObjects(t *testing.T, src string) (instances, access map[string]bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	items, err := rdsservice.ListAllDBInstances(ctx, e.api, &rdsapi.DescribeDBInstancesRequest{RegionID: simulator.DefaultRegion})
	if err != nil {
		t.Fatal(err)
	}
	instances, access = map[string]bool{}, map[string]bool{}
	for _, it := range items {
		if it.DBInstanceID == src || it.DBInstanceStatus == rdsservice.StatusDeleting {
			continue
		}
		instances[it.DBInstanceID] = true
		if it.DBInstanceType == rdsapi.InstanceTypeReadonly {
			continue
		}
		accounts, err := rdsservice.ListAllAccounts(ctx, e.api, it.DBInstanceID)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range accounts {
			access["rds_account "+it.DBInstanceID+":"+a.AccountName] = true
		}
		dbs, err := rdsservice.ListAllDatabases(ctx, e.api, it.DBInstanceID)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dbs {
			if d.DBStatus != rdsapi.DatabaseStatusDeleting {
				access["rds_database "+it.DBInstanceID+":"+d.DBName] = true
			}
		}
	}
	return instances, access
}

// missingFrom lists the objects of cloud that state does not name (ids; instance:name for
// accounts and databases).
func missingFrom(cloud, state map[string]bool) []string {
	var out []string
	for id := range cloud {
		if !state[id] {
			_, object, _ := strings.Cut(id, " ")
			out = append(out, cmp.Or(object, id))
		}
	}
	return out
}

var (
	adoptedSummary = regexp.MustCompile(`"summary":"Adopting ([^ ,"]+), created by an interrupted apply"`)
	resentToken    = regexp.MustCompile(`with the same ClientToken \(([^)]+)\)`)
)

// adoptionsShown checks that the re-runs' plans named every object the killed apply left (an
// adoption, or a resend of its create's token for an instance whose create got no answer), and
// adopted nothing else.
func adoptionsShown(orphans []string, output string) []string {
	adopted := map[string]bool{}
	for _, m := range adoptedSummary.FindAllStringSubmatch(output, -1) {
		adopted[m[1]] = true
	}
	resent := map[string]bool{}
	for _, m := range resentToken.FindAllStringSubmatch(output, -1) {
		resent[m[1]] = true
	}
	var problems []string
	left := map[string]bool{}
	unnamed := 0
	for _, o := range orphans {
		left[o] = true
		if !adopted[o] {
			unnamed++
		}
	}
	if unnamed > len(resent) {
		problems = append(problems, fmt.Sprintf("the killed apply left %v; the re-runs' plans adopted %v and resent %d create(s)", orphans, adopted, len(resent)))
	}
	for o := range adopted {
		if !left[o] {
			problems = append(problems, fmt.Sprintf("a plan adopted %s, which the killed apply had not left behind", o))
		}
	}
	return problems
}

func differences(kind string, cloud, state map[string]bool) []string {
	var out []string
	for id := range cloud {
		if !state[id] {
			out = append(out, fmt.Sprintf("%s %s is in the cloud but not in the state (orphan or duplicate)", kind, id))
		}
	}
	for id := range state {
		if !cloud[id] {
			out = append(out, fmt.Sprintf("%s %s is in the state but not in the cloud", kind, id))
		}
	}
	sort.Strings(out)
	return out
}

// runCrashPoint sets up the phase's starting point (uninterrupted applies of the earlier phases),
// kills the phase's apply at the point, applies again until it succeeds and checks the outcome.
func runCrashPoint(t *testing.T, p crashPoint) crashResult {
	env := newTestEnv(t, simulator.Options{CreateDuration: 300 * time.Millisecond, RestartDuration: 300 * time.Millisecond,
		DeleteDuration: 200 * time.Millisecond, FlagLag: 100 * time.Millisecond})
	src := env.restoreSource(t, "mysql.n2m.medium.2c", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC))
	tf := newCrashTerraform(t)
	res := crashResult{point: p}
	if p.phase != phaseCreate { // the change and the destroy start from what the create phase made
		tf.write(crashConfig(env, src, phaseCreate))
		if out, ok := tf.apply(false); !ok {
			t.Fatalf("%s: setting up failed:\n%s", p, out)
		}
	}
	tf.write(crashConfig(env, src, p.phase))
	before := env.sim.Stats()
	restarts := p.phase == phaseChange // the plans of the other phases name no restart
	out, fired := tf.killedApply(restarts, func() bool { return env.sim.Stats().Requests[p.action]-before.Requests[p.action] >= p.count })
	res.fired = fired
	res.tornState = tf.restoreTornState()
	if dbg := os.Getenv("RDS_CRASH_DEBUG"); dbg != "" {
		_ = os.WriteFile(filepath.Join(dbg, strings.ReplaceAll(p.String(), "/", "_")+".log"), []byte(out), 0o600)
	}
	named := map[string]bool{}
	restartsNamed(out, named)
	stateInstances, stateAccess := tf.stateObjects()
	cloudInstances, cloudAccess := env.cloudObjects(t, src)
	orphans := append(missingFrom(cloudInstances, stateInstances), missingFrom(cloudAccess, stateAccess)...)
	res.inFlight = len(orphans) > 0
	var reruns strings.Builder
	for ok := false; !ok; {
		if res.reruns == 2 {
			res.problems = append(res.problems, "apply failed twice after the kill:\n"+tail(out, 3000))
			return res
		}
		res.reruns++
		out, ok = tf.apply(restarts)
		reruns.WriteString(out)
		if dbg := os.Getenv("RDS_CRASH_DEBUG"); dbg != "" {
			_ = os.WriteFile(filepath.Join(dbg, strings.ReplaceAll(p.String(), "/", "_")+fmt.Sprintf("-rerun%d.log", res.reruns)), []byte(out), 0o600)
		}
		restartsNamed(out, named)
	}
	stateInstances, stateAccess = tf.stateObjects()
	cloudInstances, cloudAccess = env.cloudObjects(t, src)
	res.problems = append(res.problems, differences("instance", cloudInstances, stateInstances)...)
	res.problems = append(res.problems, differences("object", cloudAccess, stateAccess)...)
	res.problems = append(res.problems, adoptionsShown(orphans, reruns.String())...)
	after := env.sim.Stats()
	for id := range cloudInstances {
		got, want := after.Restarts[id]-before.Restarts[id], 0
		if named[id] {
			want = 1
		}
		if got != want {
			res.problems = append(res.problems, fmt.Sprintf("instance %s restarted %d times; the plans named %d restart(s)", id, got, want))
		}
	}
	if plan, empty := tf.planIsEmpty(); !empty {
		res.problems = append(res.problems, "the plan after the re-run is not empty:\n"+tail(plan, 3000))
	}
	return res
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func TestAccCrashKilledApplyConverges(t *testing.T) {
	if os.Getenv("TF_ACC") == "" || !crashSupported {
		t.Skip("acceptance test: set TF_ACC=1 (Unix only)")
	}
	long := os.Getenv(crashLongEnv) != ""
	points := crashPoints(long)
	start := time.Now()
	var mu sync.Mutex
	var results []crashResult
	for _, p := range points {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			r := runCrashPoint(t, p)
			for _, problem := range r.problems {
				t.Error(problem)
			}
			if !r.fired {
				t.Errorf("the apply ended before the kill point was reached")
			}
			mu.Lock()
			results = append(results, r)
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		inFlight := 0
		for _, r := range results {
			if r.inFlight {
				inFlight++
			}
		}
		sort.Slice(results, func(a, b int) bool { return results[a].point.String() < results[b].point.String() })
		t.Log("\n" + crashReport(results))
		// Floors when every point ran: every kill point is reached (checked per point above), and
		// most kills land while an object exists that the state does not name yet.
		if len(results) == len(points) && inFlight < crashMinInFlight(long) {
			t.Errorf("%d kills landed while a create was in flight; want at least %d", inFlight, crashMinInFlight(long))
		}
		if long && len(results) == len(points) && !t.Failed() {
			run := fmt.Sprintf("Run: %d kill points, %d of them while a create was in flight, %s in total (points run in parallel, `go test -parallel` %s), "+
				"%s/%s, Terraform %s; simulator durations: create and restart 300 ms, delete 200 ms. Generated %s.",
				len(results), inFlight, time.Since(start).Round(time.Second), crashParallel(), runtime.GOOS, runtime.GOARCH, terraformVersion(),
				time.Now().UTC().Format("2006-01-02 15:04 UTC"))
			if err := writeCrashSection(reliabilityTemplate, crashReport(results), run); err != nil {
				t.Error(err)
			}
		}
	})
}

// crashParallel is go test's -parallel.
func crashParallel() string {
	if f := flag.Lookup("test.parallel"); f != nil {
		return f.Value.String()
	}
	return "?"
}

// terraformVersion is the version of the terraform binary the test runs.
func terraformVersion() string {
	path := cmp.Or(os.Getenv("TF_ACC_TERRAFORM_PATH"), "terraform")
	out, err := exec.Command(path, "version", "-json").Output()
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err != nil || json.Unmarshal(out, &v) != nil {
		return "?"
	}
	return v.Version
}

// crashMinInFlight is the floor on kills that land while a create is in flight.
func crashMinInFlight(long bool) int {
	if long {
		return 10 // 11 measured: most wait-time kill points land after the creates were recorded
	}
	return 5
}

// crashReport is the results table (markdown), one row per kill point.
func crashReport(results []crashResult) string {
	var b strings.Builder
	b.WriteString("| Kill point (phase/request#n) | Killed | Create in flight | State file torn by the kill (backup restored) | Re-runs | Result |\n|---|---|---|---|---|---|\n")
	for _, r := range results {
		verdict := "cloud = state, restarts as planned, final plan empty"
		if len(r.problems) > 0 {
			verdict = fmt.Sprintf("%d problem(s)", len(r.problems))
		}
		fmt.Fprintf(&b, "| %s | %t | %t | %t | %d | %s |\n", r.point, r.fired, r.inFlight, r.tornState, r.reruns, verdict)
	}
	return b.String()
}

// crashSectionMarker starts the killed-applies section of the reliability guide: `make test-crash`
// writes the section from it on; `make test-faults` keeps it.
const crashSectionMarker = "<!-- killed applies (issue 29): written by make test-crash -->"

const reliabilityTemplate = "../../templates/guides/reliability.md.tmpl"

// keptCrashSection is the guide's killed-applies section as it is now ("" when there is none).
func keptCrashSection(path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if i := strings.Index(string(raw), crashSectionMarker); i >= 0 {
		return "\n" + string(raw[i:])
	}
	return ""
}

// writeCrashSection replaces the guide's killed-applies section with one holding table.
func writeCrashSection(path, table, run string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	head := string(raw)
	if i := strings.Index(head, crashSectionMarker); i >= 0 {
		head = head[:i]
	}
	return os.WriteFile(path, []byte(strings.TrimRight(head, "\n")+"\n\n"+crashSectionMarker+"\n"+crashGuide(table, run)), 0o644)
}

func crashGuide(table, run string) string {
	return `## Killed applies (issue 29)

Terraform records a resource in the state only when its create returns. An apply killed while a create is in
flight (a CI job that times out, a pre-empted runner, a second Ctrl-C) leaves a billed instance, account or
database that no state names, and the next apply would create a second one. The provider keeps a **create
journal** so that the next plan tells the truth about what exists:

- Before a create is sent, an entry is written to ` + "`<data dir>/rds-create-journal/<workspace>/`" + ` (the data
  directory is ` + "`TF_DATA_DIR`" + `, by default ` + "`.terraform`" + ` in the working directory): the resource type,
  a key (SHA-256) of the resource's configuration, the ` + "`ClientToken`" + ` and, once the cloud accepts it, the
  object's id. When the create returns the entry is marked returned; the next refresh that reads the object in a
  state removes it. An entry whose process is gone (each run holds a file lock that the kernel releases when the
  process dies, even on SIGKILL) is an **interrupted create**.
- When a plan is about to create a resource whose type and configuration match exactly one interrupted create
  (not older than 24 h; a returned one, not older than 10 min), and its object exists, the plan **adopts** it:
  a warning names it (rule ` + "`create-adopted`" + `; the plan's ` + "`id`" + ` stays unknown, as twins may take the creates in
  another order at apply); the apply takes it
  over instead of sending a create, and completes its configuration as for a new one. A read-only instance or a
  clone whose create never got an answer carries no tag to find it by: the plan says the apply resends that
  request with the same ` + "`ClientToken`" + ` (rule ` + "`create-resent`" + `), which the cloud answers with the
  instance it made. Accounts and databases are found by name on the instance.
- Anything else the journal names (two interrupted creates of one configuration, an older one) stops the plan
  with an error naming the objects and giving the ` + "`import`" + ` blocks (rule ` + "`create-interrupted-orphan`" + `).
  Never a second create next to the first.
- A killed update or destroy needs nothing of this: the next refresh reads the instance as it is, the next plan
  shows what remains, and a change already made is not made again (no second restart).

**What identifies "this resource" across runs**: Terraform gives a provider neither the resource's address nor
the state it is written to, so "this resource" is *the same working directory (its data directory), the same
workspace (` + "`TF_WORKSPACE`" + `, else the one ` + "`terraform workspace select`" + ` recorded), the same resource type and
the same configuration*. Two workspaces, or two working directories, with identical configurations have separate
journals and never share an object. Limits:

- A re-run in **another working directory** (a fresh CI runner or checkout) does not see the journal: keep the
  data directory between runs of a pipeline (cache ` + "`.terraform`" + `, or set ` + "`TF_DATA_DIR`" + ` to a persistent
  path) to be covered. Primaries carry the tag ` + "`terraform-provider-rds-create-token`" + `, which finds them by hand.
- A **changed configuration** is another key: an object left by an interrupted create of the old configuration is
  not adopted (and, for an account or a database, the plan names it as existing with its import command).
- Two resources of one configuration with **identical arguments** (a ` + "`count`" + ` whose arguments do not use
  ` + "`count.index`" + `) have one key, and their objects are interchangeable: each twin without an object takes a
  different interrupted create (those whose create never returned first, oldest first) and says so (rule
  ` + "`create-adopted-twin`" + `, or ` + "`create-resent`" + `); the others create their own. The apply's twins take them again in
  the order they apply, so an interrupted create that appears between the plan and the apply is taken too. Resources whose
  arguments differ (` + "`instance_name = \"ro-${count.index}\"`" + `) have distinct keys and never take each other's.
- With a remote backend, Terraform persists the state at intervals during an apply: a create that returned more
  than 10 min before the kill and was not persisted is not adopted (the plan would create it again).
- The journal needs file locks (Linux, macOS, the BSDs); on Windows there is none.
- A provider whose Terraform was killed with SIGKILL ends itself within about a second (it watches its parent
  process; on Windows it cannot), so it no longer holds its run's lock and the next run sees its creates as
  interrupted.
- Terraform writes a local ` + "`terraform.tfstate`" + ` in place: a kill while it writes can leave the file empty, and
  then Terraform has lost every resource, which no provider can see. Restore ` + "`terraform.tfstate.backup`" + ` (the
  state before that apply) and apply again: the refresh drops what the killed apply destroyed, and the journal
  covers what it created. The test does exactly that when it happens and counts it.

**Proof**: ` + "`TestAccCrashKilledApplyConverges`" + ` (internal/provider/crash_test.go) runs the real Terraform binary with
the provider built from the tree against the simulator and kills it (with the provider, SIGKILL to the process
group) as soon as the simulator has received the n-th request of an action, in applies that create a primary, a
read-only instance, a clone (` + "`restore_from`" + `), an account and a database, toggle 16K atomic write with a class
change, and destroy everything; then ` + "`terraform apply`" + ` runs again until it succeeds (at most twice). It checks
from the simulator that the instances, accounts and databases in the cloud are those in the state, that each
instance restarted exactly once when a plan named its restart and never otherwise, that every object the killed
apply left was named by a re-run's plan (adopted or resent) and nothing else was adopted, and that the final plan
is empty. ` + "`make test`" + ` runs 7 kill points; ` + "`make test-crash`" + ` runs every point below and writes this table.
On the code before the journal, the five create points fail (a duplicate instance, or a re-run refused with
"already exists").

` + run + `

` + table
}
