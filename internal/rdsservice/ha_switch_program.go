package rdsservice

import "github.com/openrds/terraform-provider-rds/internal/rdsapi"

// haSwitchOperations adds the ModifyHASwitchConfig of an ha_config that differs from the one in
// state (after a create: other than the default, Auto).
func (b *programBuilder) haSwitchOperations(label string, when When) {
	h := b.in.Desired.HASwitch
	if !h.Configured {
		return
	}
	prior := rdsapi.HASwitch{HAConfig: rdsapi.HASwitchAuto}
	if h.Prior != nil && when != WhenAfterCreate {
		prior = *h.Prior
	}
	if h.WantUnknown || h.Want != prior {
		want := h.Want
		b.add(Operation{Instance: label, Action: OpHASwitch, When: when, HASwitch: &want})
	}
}
