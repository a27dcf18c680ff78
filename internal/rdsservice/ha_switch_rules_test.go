package rdsservice

import (
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// H1-H4: the modes, manual_until's form and window, the Basic edition, the warning naming when the
// cloud reverts; the program sends an ha_config other than the one in state (after a create:
// other than Auto).
func TestHASwitchRules(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	auto := rdsapi.HASwitch{HAConfig: "Auto"}
	manual := func(until string) rdsapi.HASwitch { return rdsapi.HASwitch{HAConfig: "Manual", ManualHATime: until} }
	kept := manual("2026-12-06T10:00:00Z")
	row := func(name, category string, h HASwitchPlan, want []RuleID, ops int) settingRules {
		return settingRules{name, category, Desired{HASwitch: h}, want, ops}
	}
	checkSettingRules(t, now, []settingRules{
		row("unmanaged", "HighAvailability", HASwitchPlan{}, nil, 0),
		row("mode", "HighAvailability", HASwitchPlan{Configured: true, Want: rdsapi.HASwitch{HAConfig: "Off"}}, []RuleID{RuleHAConfigMode}, 0),
		row("Basic", "Basic", HASwitchPlan{Configured: true, Want: auto}, []RuleID{RuleHAConfigBasic}, 0),
		row("Auto with time", "HighAvailability", HASwitchPlan{Configured: true, Want: rdsapi.HASwitch{HAConfig: "Auto", ManualHATime: "2026-12-07T10:00:00Z"}}, []RuleID{RuleHAConfigUntil}, 0),
		row("Manual without time", "HighAvailability", HASwitchPlan{Configured: true, Want: manual("")}, []RuleID{RuleHAConfigUntil}, 0),
		row("local time", "HighAvailability", HASwitchPlan{Configured: true, Want: manual("2026-12-07T10:00:00+08:00")}, []RuleID{RuleHAConfigUntil}, 0),
		row("past", "HighAvailability", HASwitchPlan{Configured: true, Want: manual("2026-12-06T11:00:00Z"), Prior: &auto}, []RuleID{RuleHAConfigWindow}, 0),
		row("8 days", "HighAvailability", HASwitchPlan{Configured: true, Want: manual("2026-12-14T00:00:00Z"), Prior: &auto}, []RuleID{RuleHAConfigWindow}, 0),
		row("7th day", "HighAvailability", HASwitchPlan{Configured: true, Want: manual("2026-12-13T23:59:59Z"), Prior: &auto}, []RuleID{RuleHAConfigReverts}, 1),
		row("reverted, kept", "HighAvailability", HASwitchPlan{Configured: true, Want: kept, Prior: &kept}, nil, 0),
		row("to Auto", "cluster", HASwitchPlan{Configured: true, Want: auto, Prior: &kept}, nil, 1),
		row("Auto kept", "HighAvailability", HASwitchPlan{Configured: true, Want: auto, Prior: &auto}, nil, 0),
	}, checkHASwitch, (*programBuilder).haSwitchOperations)
}

// H4: a refresh keeps a Manual ha_config the cloud reverted at manual_until, and reads anything
// else as the cloud answers it.
func TestHASwitchRead(t *testing.T) {
	manual := rdsapi.HASwitch{HAConfig: "Manual", ManualHATime: "2026-12-06T10:00:00Z"}
	auto := rdsapi.HASwitch{HAConfig: "Auto"}
	before, after := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC), time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		prior *rdsapi.HASwitch
		read  rdsapi.HASwitch
		now   time.Time
		want  rdsapi.HASwitch
	}{
		{"reverted at manual_until", &manual, rdsapi.HASwitch{HAConfig: "Auto", ManualHATime: ""}, after, manual},
		{"set to Auto before it", &manual, auto, before, auto},
		{"still manual", &manual, manual, before, manual},
		{"import", nil, auto, after, auto},
		{"other manual", &auto, manual, after, manual},
	} {
		if got := HASwitchRead(c.prior, c.read, c.now); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
