// Package parentwatch ends a provider process whose Terraform is gone (issue 41, item 20).
//
// Terraform starts each provider as a child process and stops it when its run ends. Killed with
// SIGKILL (a CI job that times out, a pre-empted runner), Terraform cannot stop it: the provider
// keeps running, holding its files (the create journal's run lock, which makes its entries look
// alive to the next run) and connections. go-plugin gives the provider no signal for that: its
// stdin is Terraform's own stdin, and nothing is written to its stdout once the handshake is done.
// The kernel re-parents an orphan (to init, or to the nearest sub-reaper), so a parent id that
// changes means the parent is gone: Watch polls it and then ends the process.
package parentwatch

import (
	"os"
	"time"
)

// Interval is how often the parent is looked at: a provider outlives its Terraform by at most this.
const Interval = time.Second

// Watch calls gone (in a goroutine of its own) once the process that started this one has ended.
// It does nothing when the parent is already init (pid 1): then there is no parent to lose.
func Watch(interval time.Duration, gone func(parent int)) {
	parent := os.Getppid()
	if parent <= 1 {
		return
	}
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for range tick.C {
			if os.Getppid() != parent {
				gone(parent)
				return
			}
		}
	}()
}
