package simulator

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 42 §2: ModifySecurityIps keeps an instance within 1,000 entries across its arrays, hidden
// ones included, and 200 arrays; a Delete that empties a named array frees its place.
func TestSecurityIPArrayLimits(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil) // default array: one entry
	block := func(from, n int) string {
		var ips []string
		for i := from; i < from+n; i++ {
			ips = append(ips, fmt.Sprintf("10.%d.%d.1", i/250, i%250))
		}
		return strings.Join(ips, ",")
	}
	if err := e.sim.AddIPArray(id, "dtspublic", block(0, 500), ipArrayHidden); err != nil {
		t.Fatal(err)
	}
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": block(500, 499), "DBInstanceIPArrayName": "app"})
	e.c.fails("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "192.168.0.1", "DBInstanceIPArrayName": "office"}, 400, "QuotaExceeded.SecurityIps")
	// Replacing the default array's one entry stays within the limit.
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "192.168.0.1"})
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": block(500, 499), "DBInstanceIPArrayName": "app", "ModifyMode": "Delete"})
	for i := 0; i < maxIPArrays-2; i++ { // default and dtspublic exist
		e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.1", "DBInstanceIPArrayName": fmt.Sprintf("g%d", i)})
	}
	e.c.fails("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.1", "DBInstanceIPArrayName": "one_more"}, 400, "QuotaExceeded.DBInstanceIPArray")
	e.c.ok("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": "172.16.0.2", "DBInstanceIPArrayName": "g0"})
}
