package rdsservice

import (
	"strings"
	"testing"
	"time"
)

func TestParseMaintenanceWindow(t *testing.T) {
	for _, bad := range []string{"", "02:00-03:00", "24:00Z-01:00Z", "02:60Z-03:00Z", "02:00Z-02:00Z", "2:00Z-3:00Z", "02:00Z - 03:00Z"} {
		if _, err := ParseMaintenanceWindow(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	w, err := ParseMaintenanceWindow("22:00Z-02:00Z")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	for _, c := range []struct{ now, start, end string }{
		{"2026-11-30T12:00:00Z", "2026-11-30T22:00:00Z", "2026-12-01T02:00:00Z"},
		{"2026-12-01T01:59:00Z", "2026-11-30T22:00:00Z", "2026-12-01T02:00:00Z"}, // inside, after midnight
		{"2026-12-01T02:00:00Z", "2026-12-01T22:00:00Z", "2026-12-02T02:00:00Z"},
	} {
		start, end := w.Next(at(c.now))
		if !start.Equal(at(c.start)) || !end.Equal(at(c.end)) {
			t.Errorf("at %s: %s-%s, want %s-%s", c.now, start, end, c.start, c.end)
		}
	}
	if got := w.When(at("2026-11-30T12:00:00Z")); !strings.Contains(got, "22:00Z-02:00Z (next: 2026-11-30T22:00Z)") {
		t.Errorf("When: %s", got)
	}
}
