package rdsservice

import (
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Automatic switchover (issue 45 §3): ha_config on rds_instance, sent with ModifyHASwitchConfig
// after a create and in place, read back with DescribeHASwitchConfig only where it is configured
// (internal/simulator/README.md, "Automatic switchover"):
//
//   - H1 mode is Auto or Manual; Manual takes manual_until (UTC, yyyy-MM-ddTHH:mm:ssZ), Auto none;
//   - H2 a Manual mode set now ends after now and no later than 23:59:59 UTC of the seventh day;
//   - H3 a Basic-edition instance has no secondary to switch over to;
//   - H4 the cloud turns automatic switchover on again at manual_until: the plan says when, and a
//     refresh after that time keeps the configuration (HASwitchRead), so the plan stays empty.

// OpHASwitch is the operation that sends ha_config.
const OpHASwitch = "ModifyHASwitchConfig"

// AttrHAConfig is the attribute the switchover rules point at.
const AttrHAConfig = "ha_config"

const (
	RuleHAConfigMode    RuleID = "ha-config-mode"
	RuleHAConfigUntil   RuleID = "ha-config-manual-until"
	RuleHAConfigWindow  RuleID = "ha-config-manual-window"
	RuleHAConfigBasic   RuleID = "ha-config-basic"
	RuleHAConfigReverts RuleID = "ha-config-reverts"
)

// HASwitchPlan is what the planner knows of an instance's ha_config.
type HASwitchPlan struct {
	// Want is the configured value; Configured is false when ha_config is left out (not managed);
	// WantUnknown is set while it is known only at apply.
	Want        rdsapi.HASwitch
	Configured  bool
	WantUnknown bool
	// Prior is the value in state after the last refresh (nil for a create or when unmanaged).
	Prior *rdsapi.HASwitch
}

// checkHASwitch raises H1-H4 for a known configured ha_config.
func checkHASwitch(in PlanInput, d *Decision) {
	h := in.Desired.HASwitch
	if !h.Configured || h.WantUnknown {
		return
	}
	mode, until := h.Want.HAConfig, h.Want.ManualHATime
	category := in.Desired.Category.Or("")
	if category == "" && in.Prior != nil {
		category = in.Prior.Category
	}
	switch {
	case mode != rdsapi.HASwitchAuto && mode != rdsapi.HASwitchManual:
		d.add(problem(RuleHAConfigMode, mode, mode))
	case strings.EqualFold(category, "Basic"):
		d.add(problem(RuleHAConfigBasic, mode, mode))
	case mode == rdsapi.HASwitchAuto && until != "":
		d.add(problem(RuleHAConfigUntil, until, "mode = \"Auto\" takes no manual_until"))
	case mode == rdsapi.HASwitchManual && !validUntil(until):
		d.add(problem(RuleHAConfigUntil, until, "mode = \"Manual\" takes manual_until as a UTC time yyyy-MM-ddTHH:mm:ssZ, not \""+until+"\""))
	case mode == rdsapi.HASwitchManual && (h.Prior == nil || *h.Prior != h.Want):
		checkManualWindow(in, until, d)
	}
}

func validUntil(until string) bool {
	_, err := time.Parse(haTimeLayout, until)
	return err == nil
}

const haTimeLayout = "2006-01-02T15:04:05Z"

// checkManualWindow raises H2, or H4's warning naming when the cloud reverts to Auto.
func checkManualWindow(in PlanInput, until string, d *Decision) {
	end, _ := time.Parse(haTimeLayout, until)
	now := in.Facts.Now.UTC()
	latest := time.Date(now.Year(), now.Month(), now.Day()+7, 23, 59, 59, 0, time.UTC)
	if !end.After(now) || end.After(latest) {
		d.add(problem(RuleHAConfigWindow, until, until, now.Format(haTimeLayout), latest.Format(haTimeLayout)))
		return
	}
	d.add(problem(RuleHAConfigReverts, until, in.Label, until))
}

// HASwitchRead is the ha_config a refresh keeps: what the cloud answers, except that a Manual
// configuration whose manual_until has passed (now, the cloud's clock) stays as configured once
// the cloud has turned automatic switchover on again as it said (H4), so the plan stays empty.
func HASwitchRead(prior *rdsapi.HASwitch, read rdsapi.HASwitch, now time.Time) rdsapi.HASwitch {
	if read.HAConfig != rdsapi.HASwitchManual {
		read = rdsapi.HASwitch{HAConfig: rdsapi.HASwitchAuto}
	}
	if prior == nil || prior.HAConfig != rdsapi.HASwitchManual || read.HAConfig != rdsapi.HASwitchAuto {
		return read
	}
	if end, err := time.Parse(haTimeLayout, prior.ManualHATime); err == nil && !now.Before(end) {
		return *prior
	}
	return read
}
