package rdsservice

import (
	"slices"
	"testing"
	"time"
)

// settingRules is one row of the rules tests of an instance setting the program sends on its own (ha_config,
// sync_mode, monitoring_period): the setting in desired, on an existing instance of category; the rules its check
// raises, and, when none is an error, how many operations the program then holds.
type settingRules struct {
	name, category string
	desired        Desired
	want           []RuleID
	ops            int
}

// checkSettingRules runs the rows through the setting's check and its program operations.
func checkSettingRules(t *testing.T, now time.Time, rows []settingRules, check func(PlanInput, *Decision), operations func(b *programBuilder, label string, when When)) {
	t.Helper()
	for _, c := range rows {
		c.desired.Category = Known(c.category)
		in := PlanInput{Label: "rm-1", Desired: c.desired, Prior: &ExistingInstance{ID: "rm-1", Category: c.category}, Facts: Facts{Now: now}}
		var d Decision
		check(in, &d)
		var got []RuleID
		for _, p := range d.Problems {
			got = append(got, p.Rule)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.want)
		}
		if d.HasErrors() {
			continue
		}
		b := &programBuilder{in: in, d: d}
		operations(b, "rm-1", WhenNow)
		if len(b.ops) != c.ops {
			t.Errorf("%s: %d operations, want %d", c.name, len(b.ops), c.ops)
		}
	}
}
