package rdsservice

import (
	"context"
	"fmt"
)

// haSwitch runs an OpHASwitch.
func (x *executor) haSwitch(ctx context.Context, op Operation) error {
	if op.HASwitch == nil || op.HASwitch.HAConfig == "" {
		return fmt.Errorf("the ha_config of %s is not known at apply", x.out.ID)
	}
	return x.w.RetryBusy(ctx, func() error { return x.api.ModifyHASwitchConfig(ctx, x.out.ID, *op.HASwitch) })
}
