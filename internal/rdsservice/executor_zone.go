package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// zoneMove sends MigrateToOtherZone and waits until the instance is Running in the new zone; for
// the window it returns at once and the task is read back as the scheduled change. The API takes
// no ClientToken: the instance is read first, and an instance already moving (or moved) there by
// an earlier send is not sent again.
func (x *executor) zoneMove(ctx context.Context, op Operation) error {
	m := op.ZoneMove
	req := &rdsapi.MigrateToOtherZoneRequest{DBInstanceID: x.out.ID, ZoneID: m.To.Zone, ZoneIDSlave1: m.To.SlaveA, ZoneIDSlave2: m.To.SlaveB,
		VPCID: m.VPC, VSwitchID: m.To.VSwitch, EffectiveTime: rdsapi.EffectiveTimeImmediate}
	if op.When == WhenInWindow {
		req.EffectiveTime = rdsapi.EffectiveTimeMaintainTime
	}
	cur, err := x.api.DescribeDBInstanceAttribute(ctx, x.out.ID)
	if err != nil {
		return err
	}
	if op.CancelsPending && cur.ZoneID != m.To.Zone {
		// The window ran the move since the plan: sending the old zones now would move it back.
		change := fmt.Sprintf("zone_id is %q", cur.ZoneID)
		return &ChangedSincePlanError{ID: x.out.ID, Changes: []string{change}, Problems: []Problem{Raise(RuleRestartNotInPlan, x.out.ID, x.out.ID, change)}}
	}
	send := func() error {
		if op.When != WhenInWindow && movedTo(cur, m.To) {
			return nil // a resent apply: the move is done or under way
		}
		_, err := x.api.MigrateToOtherZone(ctx, req)
		return err
	}
	return x.sendAndSettle(ctx, op, send, "zone "+m.To.Zone, func(a *rdsapi.DBInstanceAttribute) bool {
		return a.ZoneID == m.To.Zone
	})
}

// movedTo: the instance is in the target zone and vSwitch, or on its way there.
func movedTo(a *rdsapi.DBInstanceAttribute, to Placement) bool {
	return a.ZoneID == to.Zone && (to.VSwitch == "" || a.VSwitchID == to.VSwitch) || a.DBInstanceStatus == StatusZoneMoving
}
