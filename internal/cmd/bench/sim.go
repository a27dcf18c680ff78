package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/acssign"
	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The simulator's documented demo credentials and region; the bench passes them explicitly so a
// change of defaults cannot break it silently.
const (
	simAccessKeyID     = "demo-access-key-id"
	simAccessKeySecret = "demo-access-key-secret"
	simRegion          = "cn-hangzhou"
)

// simOptions are the simulator flags a figure needs.
type simOptions struct {
	CreateDuration  time.Duration
	RestartDuration time.Duration
	// FlagLag is how long after the return to Running a toggled flag shows (the program's default
	// is 1 s).
	FlagLag      time.Duration
	ThrottleRate float64
	// NoQuotaHeader: quotas are not stated in the answers' x-ratelimit-user-api header.
	NoQuotaHeader bool
}

func (o simOptions) args() []string {
	args := []string{
		"-listen", "127.0.0.1:0",
		"-access-key-id", simAccessKeyID,
		"-access-key-secret", simAccessKeySecret,
		"-region", simRegion,
		"-create-duration", o.CreateDuration.String(),
		"-restart-duration", o.RestartDuration.String(),
		"-delete-duration", "100ms",
		"-flag-lag", o.FlagLag.String(),
		// The figures are about the API; a MySQL endpoint per instance would only add memory at scale.
		"-mysql-endpoints=false",
	}
	if o.ThrottleRate > 0 {
		args = append(args, "-throttle-rate", strconv.FormatFloat(o.ThrottleRate, 'f', -1, 64))
	}
	if o.NoQuotaHeader {
		args = append(args, "-quota-header=false")
	}
	return args
}

// simProcess is one running bin/rds-simulator.
type simProcess struct {
	cmd    *exec.Cmd
	URL    string
	done   chan struct{}
	log    string
	client *http.Client
}

// parseListenLine extracts the base URL from the simulator's first stdout line.
func parseListenLine(line string) (string, error) {
	const prefix = "listening on "
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, prefix) {
		return "", fmt.Errorf("simulator's first line is %q, want %q", line, prefix+"http://HOST:PORT")
	}
	raw := strings.TrimSpace(strings.TrimPrefix(line, prefix))
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return "", fmt.Errorf("simulator announced %q, not an http://HOST:PORT address", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

// startSimulator runs the simulator program and waits for its listening line.
func startSimulator(ctx context.Context, bin, logPath string, opts simOptions) (*simProcess, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, opts.args()...)
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	p := &simProcess{cmd: cmd, done: make(chan struct{}), log: logPath,
		client: &http.Client{Timeout: 30 * time.Second}}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		first, _ := r.ReadString('\n')
		lines <- first
		// Keep draining so the simulator never blocks on a full pipe.
		_, _ = io.Copy(logFile, r)
	}()
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	select {
	case line := <-lines:
		p.URL, err = parseListenLine(line)
	case <-time.After(15 * time.Second):
		err = errors.New("simulator printed no listening line within 15 s")
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		p.Stop()
		return nil, fmt.Errorf("%w (simulator log: %s)", err, logPath)
	}
	return p, nil
}

// Stop interrupts the simulator and kills it if it does not exit promptly.
func (p *simProcess) Stop() {
	if p != nil {
		stopProcess(p.cmd, p.done)
	}
}

// stopProcess sends SIGTERM, then kills cmd if it has not exited (done closed) within 3 s.
func stopProcess(cmd *exec.Cmd, done <-chan struct{}) {
	if cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// simStats mirrors GET /_simulator/stats.
type simStats struct {
	Requests  map[string]int `json:"requests"`
	Restarts  map[string]int `json:"restarts"`
	Throttled map[string]int `json:"throttled"`
	// Spans: when each action's first and last request arrived (split.go).
	Spans map[string]callSpan `json:"spans"`
}

// TotalRequests sums the requests of every action.
func (s simStats) TotalRequests() int {
	n := 0
	for _, v := range s.Requests {
		n += v
	}
	return n
}

// TotalRestarts sums the restarts of every instance.
func (s simStats) TotalRestarts() int {
	n := 0
	for _, v := range s.Restarts {
		n += v
	}
	return n
}

func (p *simProcess) admin(ctx context.Context, method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.URL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, strings.TrimSpace(string(data)))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: decode %q: %w", method, path, truncate(string(data), 200), err)
		}
	}
	return nil
}

// Stats reads the simulator's request and restart counters.
func (p *simProcess) Stats(ctx context.Context) (simStats, error) {
	var s simStats
	err := p.admin(ctx, http.MethodGet, "/_simulator/stats", nil, &s)
	return s, err
}

// ResetStats zeroes the counters.
func (p *simProcess) ResetStats(ctx context.Context) error {
	return p.admin(ctx, http.MethodPost, "/_simulator/stats/reset", nil, nil)
}

// ClearFaults turns fault injection off (used before the bench counts instances itself).
func (p *simProcess) ClearFaults(ctx context.Context) error {
	body := map[string]any{"throttle_rate": 0, "error_rate": 0, "latency_ms": 0, "drop_response_rate": 0}
	return p.admin(ctx, http.MethodPost, "/_simulator/faults", body, nil)
}

// SetQuota sets the simulator's per-action quotas (calls per second), and no other fault.
func (p *simProcess) SetQuota(ctx context.Context, qps map[string]int) error {
	body := map[string]any{"throttle_rate": 0, "error_rate": 0, "latency_ms": 0, "drop_response_rate": 0, "qps": qps}
	return p.admin(ctx, http.MethodPost, "/_simulator/faults", body, nil)
}

// ListInstances pages through DescribeDBInstances with a V1-signed GET. It uses the lead's signing
// package rather than the provider's client, so that the count of instances in the cloud is
// independent of the code under test.
func (p *simProcess) ListInstances(ctx context.Context) ([]string, error) {
	var ids []string
	for page := 1; page <= 1000; page++ {
		params := map[string]string{
			"Action":           "DescribeDBInstances",
			"RegionId":         simRegion,
			"PageSize":         "100",
			"PageNumber":       strconv.Itoa(page),
			"Format":           "JSON",
			"Version":          rdsapi.APIVersion,
			"AccessKeyId":      simAccessKeyID,
			"SignatureMethod":  "HMAC-SHA1",
			"SignatureVersion": "1.0",
			"SignatureNonce":   nonce(),
			"Timestamp":        time.Now().UTC().Format(acssign.TimestampLayout),
		}
		params["Signature"] = acssign.V1Signature(http.MethodGet, params, simAccessKeySecret)
		q := url.Values{}
		for k, v := range params {
			q.Set(k, v)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		resp, err := p.client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("DescribeDBInstances: %w", err)
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("DescribeDBInstances: HTTP %d: %s", resp.StatusCode, truncate(string(data), 300))
		}
		var out rdsapi.DescribeDBInstancesResponse
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, fmt.Errorf("DescribeDBInstances: decode: %w", err)
		}
		for _, item := range out.Items.DBInstance {
			ids = append(ids, item.DBInstanceID)
		}
		if len(out.Items.DBInstance) == 0 || len(ids) >= int(out.TotalRecordCount) {
			return ids, nil
		}
	}
	return nil, errors.New("DescribeDBInstances: more than 1000 pages")
}

func nonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// simLogPath names a simulator's log file inside the work directory.
func simLogPath(workDir, name string) string {
	return filepath.Join(workDir, "logs", "simulator-"+name+".log")
}
