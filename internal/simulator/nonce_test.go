package simulator

import (
	"strconv"
	"testing"
	"time"
)

// Nonces are remembered for the whole timestamp window and swept only when their number has
// doubled, so that a long run does not scan every live nonce on every request.
func TestNoncesAreSweptWhenExpiredAndKeptWhileLive(t *testing.T) {
	e := newEnv(t)
	for i := range 5000 {
		if err := e.sim.spendNonce("live-" + strconv.Itoa(i)); err != nil {
			t.Fatalf("fresh nonce %d refused: %v", i, err)
		}
	}
	if err := e.sim.spendNonce("live-42"); err == nil || err.code != "SignatureNonceUsed" {
		t.Fatalf("a reused live nonce was accepted after the sweeps (%v)", err)
	}
	e.clock.Add(31 * time.Minute)
	for i := range 5000 {
		if err := e.sim.spendNonce("later-" + strconv.Itoa(i)); err != nil {
			t.Fatalf("fresh nonce %d refused: %v", i, err)
		}
	}
	e.sim.mu.Lock()
	n := len(e.sim.nonces)
	e.sim.mu.Unlock()
	if n >= 10000 {
		t.Errorf("%d nonces remembered: the expired ones were never swept", n)
	}
	if err := e.sim.spendNonce("later-4999"); err == nil {
		t.Error("a reused live nonce was accepted")
	}
}
