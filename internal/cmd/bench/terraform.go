package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// tfRunner runs the real terraform binary with a generated CLI configuration (dev_overrides for
// openrds/rds, so no `terraform init` is needed) and a clean environment.
type tfRunner struct {
	bin    string
	env    []string
	logDir string
	// seq numbers the logs; figure 11 runs two plans at once.
	seq atomic.Int64
}

// cliConfig is the CLI configuration that points openrds/rds at the local build.
func cliConfig(pluginDir string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    "openrds/rds" = %q
    "openrds/benchnull" = %q
  }
  direct {}
}
`, pluginDir, pluginDir)
}

// baseEnv is the caller's environment without anything that would change Terraform's or the
// provider's behaviour (logging, CLI args, credentials, reattach), plus the bench's settings.
func baseEnv(environ []string, cliConfigPath string) []string {
	var env []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "TF_"), strings.HasPrefix(name, "ALIBABA_CLOUD_"),
			strings.HasPrefix(name, "ALICLOUD_"), name == "CHECKPOINT_DISABLE":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"TF_CLI_CONFIG_FILE="+cliConfigPath,
		"ALIBABA_CLOUD_ACCESS_KEY_ID="+simAccessKeyID,
		"ALIBABA_CLOUD_ACCESS_KEY_SECRET="+simAccessKeySecret,
		"ALIBABA_CLOUD_REGION="+simRegion,
	)
}

// simEnv points the provider at one simulator.
func simEnv(sim *simProcess) []string {
	return []string{"ALIBABA_CLOUD_RDS_ENDPOINT=" + sim.URL}
}

// tfResult is one terraform command.
type tfResult struct {
	// Start and End are when the command started and ended (figures 6, 10, 11 split plans with them).
	Start, End time.Time
	Duration   time.Duration
	// CPU is terraform's user+system time, including its plugin children once it waited for them.
	CPU      time.Duration
	ExitCode int
	Log      string
	Stdout   string
}

// run executes terraform in dir. okCodes lists the exit codes that are not an error (default 0).
func (r *tfRunner) run(ctx context.Context, dir string, extraEnv []string, okCodes []int, args ...string) (tfResult, error) {
	logPath := filepath.Join(r.logDir, fmt.Sprintf("%03d-%s-%s.log", r.seq.Add(1), filepath.Base(dir), args[0]))
	logFile, err := os.Create(logPath)
	if err != nil {
		return tfResult{}, err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "$ terraform %s\n", strings.Join(args, " "))

	cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, r.bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, r.env...), extraEnv...)
	var stdout strings.Builder
	cmd.Stdout = io.MultiWriter(logFile, &stdout)
	cmd.Stderr = logFile
	// SIGTERM first: terraform then stops its provider plugins instead of orphaning them.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second

	start := time.Now()
	err = cmd.Run()
	end := time.Now()
	res := tfResult{Start: start, End: end, Duration: end.Sub(start), Log: logPath, Stdout: stdout.String()}
	if cmd.ProcessState != nil {
		res.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	default:
		return res, fmt.Errorf("terraform %s in %s: %w", args[0], dir, err)
	}
	if len(okCodes) == 0 {
		okCodes = []int{0}
	}
	for _, c := range okCodes {
		if res.ExitCode == c {
			return res, nil
		}
	}
	return res, fmt.Errorf("terraform %s in %s exited %d:\n%s", strings.Join(args, " "), dir, res.ExitCode, tailFile(logPath, 25))
}

// apply runs `terraform apply -auto-approve` with the given parallelism and -var values.
func (r *tfRunner) apply(ctx context.Context, dir string, env []string, parallelism int, vars map[string]string) (tfResult, error) {
	args := []string{"apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=" + strconv.Itoa(parallelism)}
	args = append(args, varArgs(vars)...)
	return r.run(ctx, dir, env, nil, args...)
}

// plan runs `terraform plan -refresh=true -detailed-exitcode`; changes reports exit code 2.
func (r *tfRunner) plan(ctx context.Context, dir string, env []string, vars map[string]string) (res tfResult, changes bool, err error) {
	args := []string{"plan", "-refresh=true", "-input=false", "-no-color", "-detailed-exitcode"}
	args = append(args, varArgs(vars)...)
	res, err = r.run(ctx, dir, env, []int{0, 2}, args...)
	return res, res.ExitCode == 2, err
}

// stateCount counts the resource instances in dir's state.
func (r *tfRunner) stateCount(ctx context.Context, dir string, env []string) (int, error) {
	res, err := r.run(ctx, dir, env, nil, "state", "list")
	if err != nil {
		return 0, err
	}
	return countAddresses(res.Stdout), nil
}

// outputs reads `terraform output -json` as strings and string lists.
func (r *tfRunner) outputs(ctx context.Context, dir string, env []string) (map[string]json.RawMessage, error) {
	res, err := r.run(ctx, dir, env, nil, "output", "-json")
	if err != nil {
		return nil, err
	}
	var raw map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(jsonDocument(res.Stdout), &raw); err != nil {
		return nil, fmt.Errorf("terraform output -json: %w", err)
	}
	out := make(map[string]json.RawMessage, len(raw))
	for k, v := range raw {
		out[k] = v.Value
	}
	return out, nil
}

// resourceTypes lists the resource types the provider's schema offers, through
// `terraform providers schema -json` (works under dev_overrides without init).
func (r *tfRunner) resourceTypes(ctx context.Context, dir string, env []string) (map[string]bool, error) {
	res, err := r.run(ctx, dir, env, nil, "providers", "schema", "-json")
	if err != nil {
		return nil, err
	}
	return parseResourceTypes(jsonDocument(res.Stdout))
}

// jsonDocument skips anything Terraform printed before a JSON document (the dev_overrides
// warning, for instance).
func jsonDocument(out string) []byte {
	if strings.HasPrefix(out, "{") {
		return []byte(out)
	}
	if i := strings.Index(out, "\n{"); i >= 0 {
		return []byte(out[i+1:])
	}
	return []byte(out)
}

// countAddresses counts the resource addresses in `terraform state list` output, ignoring any
// warning box around them.
func countAddresses(out string) int {
	n := 0
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.ContainsAny(line, " \t│╷╵") || !strings.Contains(line, ".") {
			continue
		}
		n++
	}
	return n
}

func parseResourceTypes(body []byte) (map[string]bool, error) {
	var doc struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]json.RawMessage `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("providers schema -json: %w", err)
	}
	types := map[string]bool{}
	for _, p := range doc.ProviderSchemas {
		for name := range p.ResourceSchemas {
			types[name] = true
		}
	}
	return types, nil
}

func varArgs(vars map[string]string) []string {
	keys := sortedKeys(vars)
	args := make([]string, 0, len(keys))
	for _, k := range keys {
		args = append(args, "-var="+k+"="+vars[k])
	}
	return args
}

// tailFile returns the last n lines of a file, for error messages.
func tailFile(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ") + "\n    (full log: " + path + ")"
}

// debugProvider is the provider started by the bench in debug mode: Terraform attaches to it
// through TF_REATTACH_PROVIDERS instead of launching it, so the bench owns the process and can
// read its peak resident set (VmHWM) after the plan, before the process exits.
type debugProvider struct {
	cmd      *exec.Cmd
	Reattach string
	done     chan struct{}
}

// parseReattachLine recognises terraform-plugin-go's managed-debug line
// `\tTF_REATTACH_PROVIDERS='{...}'` and returns the JSON.
func parseReattachLine(line string) (string, bool) {
	line = strings.TrimSpace(line)
	const prefix = "TF_REATTACH_PROVIDERS='"
	i := strings.Index(line, prefix)
	if i < 0 || !strings.HasSuffix(line, "'") {
		return "", false
	}
	value := line[i+len(prefix) : len(line)-1]
	// Undo the shell quoting of single quotes.
	value = strings.ReplaceAll(value, `'"'"'`, `'`)
	if !json.Valid([]byte(value)) {
		return "", false
	}
	return value, true
}

// startDebugProvider runs `terraform-provider-rds -debug` with env and waits for the reattach
// configuration, checking that it names this very process.
func startDebugProvider(ctx context.Context, bin string, env []string, logPath string) (*debugProvider, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-debug")
	cmd.Env = env
	// With TF_LOG* set the SDK logs every RPC to stderr (tens of MB for a large plan): keep the
	// beginning, which holds any start-up error.
	cmd.Stderr = &limitedWriter{w: logFile, left: 256 << 10}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s -debug: %w", bin, err)
	}
	p := &debugProvider{cmd: cmd, done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		sent := false
		for sc.Scan() {
			fmt.Fprintln(logFile, sc.Text())
			if v, ok := parseReattachLine(sc.Text()); ok && !sent {
				found <- v
				sent = true
			}
		}
		_, _ = io.Copy(logFile, stdout)
	}()
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	select {
	case p.Reattach = <-found:
	case <-p.done:
		return nil, fmt.Errorf("%s -debug exited before printing TF_REATTACH_PROVIDERS (log: %s)", bin, logPath)
	case <-time.After(15 * time.Second):
		p.Stop()
		return nil, fmt.Errorf("%s -debug printed no TF_REATTACH_PROVIDERS within 15 s (log: %s)", bin, logPath)
	case <-ctx.Done():
		p.Stop()
		return nil, ctx.Err()
	}
	var cfg map[string]struct{ Pid int }
	if err := json.Unmarshal([]byte(p.Reattach), &cfg); err != nil {
		p.Stop()
		return nil, fmt.Errorf("reattach configuration: %w", err)
	}
	for _, c := range cfg {
		if c.Pid != cmd.Process.Pid {
			p.Stop()
			return nil, fmt.Errorf("reattach configuration names pid %d, the provider process is %d", c.Pid, cmd.Process.Pid)
		}
	}
	return p, nil
}

// PeakRSSKiB reads VmHWM (the kernel's high-water mark of the resident set) of the provider.
func (p *debugProvider) PeakRSSKiB() (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	return parseVmHWM(string(data))
}

func parseVmHWM(status string) (int64, error) {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) != 2 || f[1] != "kB" {
				return 0, fmt.Errorf("unexpected VmHWM line %q", line)
			}
			return strconv.ParseInt(f[0], 10, 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// CPU is the provider's user+system time so far, from /proc/<pid>/stat (clock ticks of 1/100 s,
// the value Linux reports to user space on every architecture Go supports).
func (p *debugProvider) CPU() (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(data))
}

func parseStatCPU(stat string) (time.Duration, error) {
	// The command name (field 2) may contain spaces; fields are counted after its closing paren.
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat")
	}
	f := strings.Fields(stat[i+1:])
	// After the name: state is field 3, utime field 14, stime field 15.
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("malformed utime/stime in /proc stat")
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// limitedWriter keeps the first left bytes and silently drops the rest.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		n := min(len(p), l.left)
		l.left -= n
		if _, err := l.w.Write(p[:n]); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Stop ends the debug provider (it would otherwise wait for a signal forever).
func (p *debugProvider) Stop() {
	if p != nil {
		stopProcess(p.cmd, p.done)
	}
}
