package rdsservice

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The facts a plan of an instance reads from the cloud, chosen from what the plan changes: the
// restore source of a clone, the read-only instances a change concerns, the released minor
// versions, the class catalogue and the parameters.

// ReadFailure is a fact the plan needed and could not read: the plan stops with it, or goes on
// without it when it is a Warning. Attribute names the attribute it is reported on ("": the resource).
type ReadFailure struct {
	Attribute, Summary, Detail string
	Warning                    bool
}

// ParameterQuery names the parameters a plan reads: the template of Engine, Version and Category,
// and for an existing instance (InstanceID) the running values, from the state when it holds them
// (StateKnown) or else from DescribeParameters.
type ParameterQuery struct {
	InstanceID, Engine, Version, Category string
	State, StatePending                   map[string]string
	StateKnown                            bool
}

// ReadParameterFacts reads the parameter facts desired needs; nil when parameters are not managed
// or engine and version are not known yet.
func ReadParameterFacts(ctx context.Context, env Env, desired DesiredParameters, q ParameterQuery) *ParameterFacts {
	if (!desired.Set && desired.Group == nil) || desired.Unknown || q.Engine == "" || q.Version == "" {
		return nil
	}
	f := &ParameterFacts{Running: map[string]string{}, Pending: map[string]string{}}
	t, err := env.Templates.Template(ctx, env.API, rdsapi.DescribeParameterTemplatesRequest{
		RegionID: env.Region, Engine: q.Engine, EngineVersion: q.Version, Category: q.Category,
	})
	if err != nil {
		f.ErrorCall, f.Error = fmt.Sprintf("DescribeParameterTemplates %s %s", q.Engine, q.Version), err.Error()
		return f
	}
	f.Template = t
	if q.InstanceID == "" {
		return f
	}
	if stateHolds(desired, q) {
		f.Running, f.Pending = q.State, q.StatePending
		return f
	}
	answer, err := env.API.DescribeParameters(ctx, q.InstanceID)
	if err != nil {
		f.ErrorCall, f.Error = "DescribeParameters "+q.InstanceID, err.Error()
		return f
	}
	f.Running, f.Pending = answer.RunningParameters.Values(), answer.ConfigParameters.Values()
	return f
}

// stateHolds: the state holds the running value of every name desired sets. It holds running
// values, except for a name with a waiting value: then the running value needs a read.
func stateHolds(desired DesiredParameters, q ParameterQuery) bool {
	names := map[string]string{}
	maps.Copy(names, desired.Values)
	if desired.Group != nil {
		maps.Copy(names, desired.Group.Values)
	}
	for name := range names {
		_, known := q.State[name]
		_, waits := q.StatePending[name]
		if !known || waits {
			return false
		}
	}
	return q.StateKnown
}

// readCloneSource reads the restore source of a new clone into in.
func readCloneSource(ctx context.Context, env Env, srcID string, in *PlanInput) {
	in.Label = "the new clone of " + srcID
	src, err := env.API.DescribeDBInstanceAttribute(ctx, srcID)
	if err != nil {
		in.Facts.SourceError = fmt.Sprintf("%s: %v", srcID, err)
		return
	}
	// "Now" for the restore time is the cloud's, as the answer just read says (its Date header),
	// at plan and at apply alike; not this machine's clock, nor an older answer's.
	in.Facts.Now = env.Now()
	source, err := ExistingFromAttribute(src)
	if err != nil {
		in.Facts.SourceError = err.Error()
		return
	}
	// Terraform plans the clone after the source it references: when this run changes the
	// source's flag, the clone is made from the source as changed.
	if planned := env.Ledger.Primary(srcID).AtomicWrite; planned.IsKnown() {
		source.Enabled = planned.Value()
	}
	in.Facts.Source = &source
}

// readReleaseFacts reads, when the plan replaces a primary on cloud disks, the cross-region
// backups its release deletes (issue 46 §2); keep is the released_keep_policy the release sends.
func readReleaseFacts(ctx context.Context, env Env, id, keep string, in *PlanInput) []ReadFailure {
	if in.Role == RoleReadOnly || !(BackupFacts{StorageType: in.Prior.StorageType}).CloudDisk() {
		return nil
	}
	copies, err := allCopies(ctx, env.API, id, env.Now())
	if err != nil {
		return []ReadFailure{{Summary: "Error reading the cross-region backups the replacement deletes", Detail: fmt.Sprintf("RDS instance %s: %v", id, err)}}
	}
	in.Facts.Release = &ReleaseFacts{KeepPolicy: keep, Copies: copies}
	return nil
}

// upgradesMinor: the configuration asks for a later minor version than the instance runs.
func upgradesMinor(in PlanInput) bool {
	target := in.Desired.Minor.Target
	return in.Prior != nil && target.IsKnown() && in.Prior.MinorVersion != "" && target.Value() > in.Prior.MinorVersion
}

// upgradesEngine: the plan upgrades the instance's major version.
func upgradesEngine(in PlanInput) bool {
	v := in.Desired.EngineVersion
	return in.Prior != nil && v.IsKnown() && IsEngineUpgrade(in.Prior.Engine, in.Prior.EngineVersion, v.Value())
}

// readMinorFacts reads, when an upgrade is asked for, the running, latest and released minor
// versions (the state keeps no latest version).
func readMinorFacts(ctx context.Context, env Env, id string, in *PlanInput) []ReadFailure {
	if !upgradesMinor(*in) {
		return nil
	}
	p := in.Prior
	attr, err := env.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		return []ReadFailure{{Summary: "Error reading the minor version of RDS instance", Detail: fmt.Sprintf("DescribeDBInstanceAttribute %s: %v", id, err)}}
	}
	p.MinorVersion, p.LatestMinorVersion = attr.CurrentKernelVersion, attr.LatestKernelVersion
	released, err := env.API.DescribeDBMiniEngineVersions(ctx, p.Engine, p.EngineVersion)
	if err != nil {
		return []ReadFailure{{Summary: "Error reading the released minor versions", Detail: fmt.Sprintf("DescribeDBMiniEngineVersions %s %s: %v", p.Engine, p.EngineVersion, err)}}
	}
	p.ReleasedMinorVersions = []string{}
	for _, item := range released {
		if item.StatusDesc != "Offline" {
			p.ReleasedMinorVersions = append(p.ReleasedMinorVersions, item.MinorVersion)
		}
	}
	return nil
}

// readReadOnlyFacts reads a primary's read-only instances when the change concerns them (unless a
// zone move read them already): a flag turned on or a waiting one set back, storage grown, a major
// or minor version upgrade (and for a major one, the upgrades waiting for their windows).
func readReadOnlyFacts(ctx context.Context, env Env, id string, in *PlanInput) {
	d, p := in.Desired, in.Prior
	turningOn := d.AtomicWrite.Is(true) && !p.Enabled
	growing := d.Storage.IsKnown() && d.Storage.Value() > p.Storage
	if !turningOn && !growing && !upgradesEngine(*in) && !upgradesMinor(*in) && !setsWaitingToggleBack(*in) {
		return
	}
	if in.Facts.ReadOnly == nil && in.Facts.ReadOnlyError == "" {
		in.Facts.ReadOnly, in.Facts.ReadOnlyError = ReadOnlyFacts(ctx, env, id)
	}
	if upgradesEngine(*in) {
		ReadOnlyUpgradesWaiting(ctx, env.API, in.Facts.ReadOnly)
	}
}

// ReadOnlyFacts reads the primary, then each of its read-only instances (but those this run
// releases first). One that cannot be read is still listed (as eligible and off): better a
// warning that is too broad than a silent restart.
func ReadOnlyFacts(ctx context.Context, env Env, primaryID string) ([]ExistingInstance, string) {
	primary, err := env.API.DescribeDBInstanceAttribute(ctx, primaryID)
	if err != nil {
		return nil, err.Error()
	}
	var ros []ExistingInstance
	var errs []error
	for _, roID := range primary.ReadOnlyDBInstanceIDs {
		if env.Ledger.Released(roID) {
			continue // gone before the primary's update
		}
		attr, err := env.API.DescribeDBInstanceAttribute(ctx, roID)
		if rdsapi.IsNotFound(err) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			ros = append(ros, ExistingInstance{ID: roID, Supported: true})
			continue
		}
		ro, err := ExistingFromAttribute(attr)
		if err != nil {
			errs = append(errs, err)
		}
		ros = append(ros, ro)
	}
	if err := errors.Join(errs...); err != nil {
		return ros, err.Error()
	}
	return ros, ""
}

// movesZone: the configuration asks for another placement than the prior one.
func movesZone(want, now Placement) bool {
	for _, f := range [][2]string{{want.Zone, now.Zone}, {want.SlaveA, now.SlaveA}, {want.SlaveB, now.SlaveB}, {want.VSwitch, now.VSwitch}} {
		if f[0] != "" && f[0] != f[1] {
			return true
		}
	}
	return false
}

// readPlacementFacts reads what decides a zone move: where the instance runs now, its minor
// version, the region's zones, and its read-only instances (a move restarts them).
func readPlacementFacts(ctx context.Context, env Env, id string, prior Placement, vpc string, in *PlanInput) {
	facts := &PlacementFacts{Placement: prior, VPC: vpc}
	attr, err := env.API.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		facts.ReadError = err.Error()
	} else {
		facts.KernelVersion = attr.CurrentKernelVersion
		running := Placement{Zone: attr.ZoneID, VSwitch: attr.VSwitchID}
		if zones := attr.SlaveZones.Zones(); len(zones) > 0 {
			running.SlaveA = zones[0]
			if len(zones) > 1 {
				running.SlaveB = zones[1]
			}
		}
		facts.Running = &running
	}
	if facts.ReadError == "" {
		facts.Zones, facts.ReadError = regionZones(ctx, env)
	}
	in.Facts.Placement = facts
	if in.Facts.ReadOnly == nil && in.Facts.ReadOnlyError == "" {
		in.Facts.ReadOnly, in.Facts.ReadOnlyError = ReadOnlyFacts(ctx, env, id)
	}
}

// regionZones lists the zones of the provider's region (DescribeRegions), or says why it cannot.
func regionZones(ctx context.Context, env Env) ([]string, string) {
	out, err := env.API.DescribeRegions(ctx)
	if err != nil {
		return nil, "DescribeRegions: " + err.Error()
	}
	var zones []string
	for _, item := range out.Regions.RDSRegion {
		if item.RegionID == env.Region && item.ZoneID != "" && !slices.Contains(zones, item.ZoneID) {
			zones = append(zones, item.ZoneID)
		}
	}
	if len(zones) == 0 {
		return nil, "" // the answer does not list this region: the cloud checks the zone at apply
	}
	slices.Sort(zones)
	return zones, ""
}
