package simulator

import (
	"net/http"
	"testing"
	"time"
)

// A spec change's switchover drops the connections through a started proxy without persistent
// connections, now or in the window, of the primary or a read-only instance; none without a proxy,
// with persistent connections, or for a change that switches nothing over (storage grown online).
func TestProxyDropsCountSpecSwitchovers(t *testing.T) {
	e := newEnv(t) // the fake clock starts at 10:00Z; the default window is 18:00Z-22:00Z
	id := e.create(map[string]string{"VSwitchId": "vsw-7", "OptimizedWrites": "none"})
	ro := e.readOnly(id)
	spec := func(target string, overrides map[string]string) {
		t.Helper()
		if a := e.deferSpec(target, overrides); a.status != http.StatusOK {
			t.Fatal(a.raw)
		}
		e.settle()
	}
	drops := func(when string, want map[string]int) {
		t.Helper()
		got := e.sim.Stats().ProxyDrops
		if len(got) != len(want) || got[id] != want[id] || got[ro] != want[ro] {
			t.Fatalf("%s: proxy drops %v, want %v", when, got, want)
		}
		e.sim.ResetStats()
	}
	spec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c", "EffectiveTime": "Immediate"})
	drops("no proxy", nil)
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup"})
	e.settle()
	spec(ro, map[string]string{"DBInstanceClass": "mysqlro.n2.large.1c", "EffectiveTime": "Immediate"})
	spec(id, map[string]string{"DBInstanceStorage": "150", "EffectiveTime": "Immediate"})
	drops("read-only class change, primary storage grown", map[string]int{ro: 1})
	spec(id, map[string]string{"DBInstanceClass": "mysql.n2.large.2c"})
	drops("ordered for the window", nil)
	e.clock.Add(9 * time.Hour)
	e.attr(id)
	drops("at the window", map[string]int{id: 1})
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Modify", "PersistentConnectionStatus": "Enabled"})
	spec(id, map[string]string{"DBInstanceClass": "mysql.x4.large.2c", "EffectiveTime": "Immediate"})
	drops("persistent connections", nil)
}

// A switchover while the proxy is still Creating (an immediate spec change made during the proxy's
// start, of a read-only instance the proxy does not weight, so Terraform does not order the two)
// drops nothing: the proxy serves no client before it is Running. Once it runs, the same change drops.
func TestProxyDropsNoneWhileTheProxyStarts(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"VSwitchId": "vsw-7", "OptimizedWrites": "none"})
	ro := e.readOnly(id)
	e.settle()
	e.c.ok("ModifyDBProxy", map[string]string{"DBInstanceId": id, "ConfigDBProxyService": "Startup"})
	if a := e.deferSpec(ro, map[string]string{"DBInstanceClass": "mysqlro.n2.large.1c", "EffectiveTime": "Immediate"}); a.status != http.StatusOK {
		t.Fatal(a.raw)
	}
	if got := e.sim.Stats().ProxyDrops; len(got) != 0 {
		t.Fatalf("a switchover while the proxy starts: proxy drops %v, want none", got)
	}
	e.settle()
	if a := e.deferSpec(ro, map[string]string{"DBInstanceClass": "mysqlro.n2.medium.1c", "EffectiveTime": "Immediate"}); a.status != http.StatusOK {
		t.Fatal(a.raw)
	}
	if got := e.sim.Stats().ProxyDrops; got[ro] != 1 {
		t.Fatalf("a switchover behind the running proxy: proxy drops %v, want %s: 1", got, ro)
	}
}
