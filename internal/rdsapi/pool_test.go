package rdsapi

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// Terraform refreshes 10 instances at a time: the client keeps a connection for each instead of
// opening most of them again for every round of calls (a TLS handshake each against the cloud).
func TestClientKeepsAConnectionPerParallelCall(t *testing.T) {
	cloud := &fakeCloud{t: t, secrets: map[string]string{testKeyID: testSecret}, reply: answers(success(attributeJSON("rm-1", "")))}
	server := httptest.NewUnstartedServer(cloud)
	var opened atomic.Int64
	server.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			opened.Add(1)
		}
	}
	server.Start()
	t.Cleanup(server.Close)
	c := newTestClient(t, server, 0)
	const parallel, rounds = 10, 5
	for range rounds {
		var wg sync.WaitGroup
		for range parallel {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := c.DescribeDBInstanceAttribute(context.Background(), "rm-1"); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	// Each round may find a connection still busy finishing the last answer; without the pool
	// every round would open 10 - (GOMAXPROCS+1) new ones.
	if n := opened.Load(); n > 2*parallel {
		t.Errorf("%d rounds of %d parallel calls opened %d connections, want at most %d", rounds, parallel, n, 2*parallel)
	}
}
