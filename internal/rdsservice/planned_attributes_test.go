package rdsservice

import (
	"reflect"
	"testing"
)

func TestPlannedPending(t *testing.T) {
	waits := ParameterDecision{Pending: map[string]string{"a": "1"}, PendingKnown: true}
	cases := []struct {
		name    string
		managed bool
		d       ParameterDecision
		want    MapValue
	}{
		{"not managed", false, waits, MapValue{Null: true}},
		{"not known yet", true, ParameterDecision{}, MapValue{Unknown: true}},
		{"known", true, waits, MapValue{Values: map[string]string{"a": "1"}}},
	}
	for _, c := range cases {
		if got := PlannedPending(c.managed, c.d); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestPlannedSSLExpire(t *testing.T) {
	at := Known("2027-01-01T00:00:00Z")
	cases := []struct {
		name        string
		on, priorOn bool
		prior, want Val[string]
	}{
		{"off", false, true, at, Null[string]()},
		{"stays on", true, true, at, at},
		{"turns on", true, false, Null[string](), Unknown[string]()},
		{"on, no expiry in the prior state", true, true, Null[string](), Unknown[string]()},
	}
	for _, c := range cases {
		if got := PlannedSSLExpire(c.on, c.priorOn, c.prior); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestPlannedZones(t *testing.T) {
	proposed := Zones{Zone: Known("z-a"), VSwitch: Known("vsw-1"), SlaveA: Unknown[string](), SlaveB: Null[string]()}
	move := &ZoneMove{To: Placement{Zone: "z-b", SlaveA: "z-c"}}
	basicToHA := SpecOrder{Category: ptrTo("HighAvailability")}
	cases := []struct {
		name       string
		dec        Decision
		configured bool
		want       Zones
	}{
		{"nothing moves", Decision{}, false, proposed},
		{"a move, no vSwitch", Decision{ZoneMove: move}, false, Zones{Zone: Known("z-b"), VSwitch: Null[string](), SlaveA: Known("z-c"), SlaveB: Known("")}},
		{"an edition upgrade now", Decision{Order: basicToHA}, false, Zones{Zone: Known("z-a"), VSwitch: Known("vsw-1"), SlaveA: Known("z-a"), SlaveB: Null[string]()}},
		{"an edition upgrade, standby zone configured", Decision{Order: basicToHA}, true, proposed},
		{"an edition upgrade in the window", Decision{Order: basicToHA, Deferred: true}, false, proposed},
	}
	for _, c := range cases {
		if got := PlannedZones(c.dec, proposed, c.configured); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestPlannedFollowMinor(t *testing.T) {
	proposed, prior := Unknown[string](), Known("rds_20240101")
	now := Decision{Minor: MinorDecision{Follows: &MinorFollow{Primary: "rm-1", To: "rds_20250101"}}}
	window := Decision{Minor: MinorDecision{Follows: &MinorFollow{Primary: "rm-1", To: "rds_20250101", When: string(WhenInWindow)}}}
	cases := []struct {
		name   string
		dec    Decision
		exists bool
		want   Val[string]
	}{
		{"upgraded with its primary now", now, true, Unknown[string]()},
		{"its primary upgrades in the window", window, true, prior},
		{"nothing upgrades", Decision{}, true, prior},
		{"a new one", Decision{}, false, proposed},
	}
	for _, c := range cases {
		if got := PlannedFollowMinor(c.dec, proposed, prior, c.exists); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
