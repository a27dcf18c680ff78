// Command rds-simulator runs the local ApsaraDB RDS OpenAPI simulator. The first line it prints
// is "listening on http://HOST:PORT"; point the provider's endpoint at that address.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rds-simulator:", err)
		os.Exit(1)
	}
}

// run serves until ctx is cancelled (SIGINT/SIGTERM in main), then shuts down gracefully.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("rds-simulator", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on (port 0 picks a free port)")
	statePath := fs.String("state", "", "state file: loaded at start, rewritten atomically after each change (empty: in memory only)")
	keyID := fs.String("access-key-id", simulator.DefaultAccessKeyID, "the only AccessKey ID accepted")
	keySecret := fs.String("access-key-secret", simulator.DefaultAccessKeySecret, "the AccessKey secret requests must be signed with")
	region := fs.String("region", simulator.DefaultRegion, "the region this simulator serves")
	createDuration := fs.Duration("create-duration", 5*time.Second, "how long a new instance stays Creating")
	restartDuration := fs.Duration("restart-duration", 3*time.Second, "how long a spec change or restart keeps an instance out of Running")
	deleteDuration := fs.Duration("delete-duration", 2*time.Second, "how long an instance stays Deleting")
	flagLag := fs.Duration("flag-lag", time.Second, "delay after the return to Running before a toggled OptimizedWrites flag shows")
	accountDuration := fs.Duration("account-duration", time.Second, "how long a new account stays Unavailable and a new or deleted database Creating or Deleting")
	seed := fs.Bool("seed", false, "plant the built-in pre-existing instances into a fresh state")
	throttleRate := fs.Float64("throttle-rate", 0, "fraction of API requests answered Throttling.User")
	errorRate := fs.Float64("error-rate", 0, "fraction of API requests answered ServiceUnavailable")
	latency := fs.Duration("latency", 0, "delay added to every API request")
	dropRate := fs.Float64("drop-response-rate", 0, "fraction of API requests carried out whose response is then dropped")
	qps := fs.String("qps", "", "per-action quota in calls per second, answered Throttling.Api beyond it: N (every action) or ACTION=N[,ACTION=N...]")
	quotaHeader := fs.Bool("quota-header", true, "state each quota window in the x-ratelimit-user-api header of the answers of an action under a quota")
	endpoints := fs.Bool("mysql-endpoints", true, "serve a MySQL endpoint on loopback per MySQL instance (off for large-scale bench runs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	quota, err := simulator.ParseQPS(*qps)
	if err != nil {
		return err
	}
	opts := simulator.Options{
		AccessKeyID: *keyID, AccessKeySecret: *keySecret, Region: *region,
		CreateDuration: *createDuration, RestartDuration: *restartDuration, DeleteDuration: *deleteDuration,
		FlagLag: *flagLag, AccountDuration: *accountDuration, Seed: *seed, StatePath: *statePath, NoQuotaHeader: !*quotaHeader,
		Faults: simulator.Faults{ThrottleRate: *throttleRate, ErrorRate: *errorRate,
			LatencyMS: int(latency.Milliseconds()), DropResponseRate: *dropRate, QPS: quota},
	}
	if *endpoints {
		opts.Endpoints = mysqlendpoint.ForSimulator
	}
	sim, err := simulator.New(opts)
	if err != nil {
		return err
	}
	defer func() { _ = sim.Close() }()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr()); err != nil {
		_ = ln.Close()
		return err
	}

	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 10 * time.Second}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
