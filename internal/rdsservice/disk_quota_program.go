package rdsservice

// The disk-quota lock in the program (disk_quota_rules.go).

// OpWaitUnlocked waits until the storage growth has lifted the instance's disk-quota lock.
const OpWaitUnlocked = "wait: the storage growth lifts the disk-quota lock"

// billingOnceUnlocked adds, after the growth of an instance locked by disk quota, the wait for the
// lock to lift and then the conversion to pay-as-you-go (a purchase follows the settings, as for
// any update: billingAfterSettings).
func (b *programBuilder) billingOnceUnlocked(label string) {
	if !growthLiftsLockFirst(b.in, b.d) {
		return
	}
	b.add(Operation{Instance: label, Action: OpWaitUnlocked, When: WhenNow})
	bp := b.in.Desired.Billing
	if !bp.Want.Prepaid() {
		want := bp.Want
		b.add(Operation{Instance: label, Action: OpTransformPayType, When: WhenNow, Billing: &want})
	}
}
