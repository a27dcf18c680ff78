package rdsservice

// Billing in the program: a change of pay type (TransformDBInstancePayType) and a change of
// auto-renewal (ModifyInstanceAutoRenewalAttribute), run by the one executor. A conversion to
// pay-as-you-go goes before the settings (deletion protection may be turned on with it), a
// purchase after them (deletion protection must be off first).

// Operation kinds of billing.
const (
	OpTransformPayType  = "TransformDBInstancePayType"
	OpModifyAutoRenewal = "ModifyInstanceAutoRenewalAttribute"
)

// billingBeforeSettings adds a conversion to pay-as-you-go, the first operation of an update
// (unless a storage growth must lift a disk-quota lock first: billingOnceUnlocked).
func (b *programBuilder) billingBeforeSettings(label string) {
	bp := b.in.Desired.Billing
	if growthLiftsLockFirst(b.in, b.d) {
		return
	}
	if bp.Set && !bp.Want.Prepaid() && bp.Prior != nil && bp.Prior.Prepaid() {
		want := bp.Want
		b.add(Operation{Instance: label, Action: OpTransformPayType, When: WhenNow, Billing: &want})
	}
}

// billingAfterSettings adds a purchase (an instance that is not Prepaid now; a clone is created
// pay-as-you-go and bought right after) or a change of auto-renewal.
func (b *programBuilder) billingAfterSettings(label string, when When) {
	bp := b.in.Desired.Billing
	if !bp.Set || !bp.Want.Prepaid() || (when == WhenAfterCreate && b.in.Role != RoleClone) {
		return
	}
	want := bp.Want
	switch prior := bp.Prior; {
	case prior == nil || !prior.Prepaid():
		b.add(Operation{Instance: label, Action: OpTransformPayType, When: when, Billing: &want})
	case prior.AutoRenew != want.AutoRenew || (want.AutoRenew && prior.Period != want.Period):
		b.add(Operation{Instance: label, Action: OpModifyAutoRenewal, When: when, Billing: &want})
	}
}
