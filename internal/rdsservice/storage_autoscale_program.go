package rdsservice

import "github.com/openrds/terraform-provider-rds/internal/rdsapi"

// autoScaleOperations adds the ModifyDasInstanceConfig of a configuration that differs from the
// one read back (after a create: one that is on).
func (b *programBuilder) autoScaleOperations(label string, when When) {
	a := b.in.Desired.AutoScale
	prior := rdsapi.StorageAutoScale{}
	if a.Prior != nil && when != WhenAfterCreate {
		prior = *a.Prior
	}
	switch {
	case a.WantUnknown:
		b.add(Operation{Instance: label, Action: OpStorageAutoScale, When: when})
	case a.Want != prior:
		want := a.Want
		b.add(Operation{Instance: label, Action: OpStorageAutoScale, When: when, AutoScale: &want})
	}
}
