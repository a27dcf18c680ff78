package mysqlendpoint_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/simulator/mysqlendpoint"
)

// BenchmarkEndpointMemory measures what one idle instance endpoint costs: an engine with one account, one database,
// one small table and one open client connection,
// counted as heap and goroutine stacks in use. Run with
// `go test -run '^$' -bench EndpointMemory -benchtime 50x ./internal/simulator/mysqlendpoint`; the README quotes it.
func BenchmarkEndpointMemory(b *testing.B) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	endpoints := make([]*mysqlendpoint.Endpoint, 0, b.N)
	for i := 0; i < b.N; i++ {
		ep, err := mysqlendpoint.Start(mysqlendpoint.Options{AllowedClients: []string{"127.0.0.1"}, Settings: mysqlendpoint.Settings{Version: "8.0.36"}})
		if err != nil {
			b.Fatal(err)
		}
		endpoints = append(endpoints, ep)
		if err := ep.CreateDatabase("app", "utf8mb4"); err != nil {
			b.Fatal(err)
		}
		if err := ep.CreateAccount("app", mysqlendpoint.NativePasswordHash("Pw-12345"), true); err != nil {
			b.Fatal(err)
		}
		conn := mustConnect(b, ep, "app", "Pw-12345", "app")
		for _, q := range []string{"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(32))", "INSERT INTO t VALUES (1, 'a'), (2, 'b')"} {
			if _, err := conn.ExecContext(b.Context(), q); err != nil {
				b.Fatal(fmt.Errorf("%s: %w", q, err))
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	inUse := func(m runtime.MemStats) float64 { return float64(m.HeapInuse + m.StackInuse) }
	b.ReportMetric((inUse(after)-inUse(before))/float64(b.N), "bytes/endpoint")
	b.ReportMetric(float64(runtime.NumGoroutine())/float64(b.N), "goroutines/endpoint")
	for _, ep := range endpoints {
		_ = ep.Close()
	}
}
