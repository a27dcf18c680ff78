package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

func TestRunPrintsAddressServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	state := filepath.Join(t.TempDir(), "state.json")
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-seed", "-state", state, "-create-duration", "1s"}, w) }()

	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^listening on (http://127\.0\.0\.1:[0-9]+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line %q", line)
	}
	resp, err := http.Get(m[1] + "/_simulator/stats")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("stats: HTTP %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no graceful shutdown")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-throttle-rate", "2"}, {"-create-duration", "-1s"}, {"extra"}, {"-qps", "NoSuchAction=5"}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
