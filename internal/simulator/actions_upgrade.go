package simulator

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Major version upgrade in place (README "Major version upgrade"). The rules are the simulator's
// reading of Alibaba's UpgradeDBInstanceEngineVersion reference and of "Upgrade the major engine
// version of an ApsaraDB RDS for MySQL instance"; what the documents leave open is marked there
// as an assumption.

func init() {
	actions["UpgradeDBInstanceEngineVersion"] = (*Simulator).upgradeDBInstanceEngineVersion
	idempotentActions["UpgradeDBInstanceEngineVersion"] = true
}

const (
	statusEngineUpgrading     = "EngineVersionUpgrading"
	taskTypeUpgradeEngine     = "UpgradeDBInstanceEngineVersion"
	upgradeCodeReadOnlyFirst  = "UnsupportedReadOrBakReadState"
	upgradeCodeSourceCategory = "InvalidSourceCategory"
)

// mysqlMajorVersions in upgrade order: each may be upgraded to the next one only.
var mysqlMajorVersions = []string{"5.5", "5.6", "5.7", "8.0", "8.4"}

// nextMajorVersion is the one version an instance on version may be upgraded to; "" for none.
func nextMajorVersion(version string) string {
	i := slices.Index(mysqlMajorVersions, version)
	if i < 0 || i == len(mysqlMajorVersions)-1 {
		return ""
	}
	return mysqlMajorVersions[i+1]
}

// upgradeEdition tells whether the edition and storage type may be upgraded in place: High-
// availability on local SSD; Basic, High-availability and Cluster on ESSD.
func upgradeEdition(category, storageType string) bool {
	if strings.HasPrefix(storageType, "cloud_essd") || storageType == "general_essd" {
		return slices.ContainsFunc([]string{"Basic", "HighAvailability", "cluster"}, func(c string) bool { return strings.EqualFold(c, category) })
	}
	return storageType == "local_ssd" && strings.EqualFold(category, "HighAvailability")
}

// upgradeDBInstanceEngineVersion upgrades a MySQL instance one major version, now or in its
// maintenance window.
func (s *Simulator) upgradeDBInstanceEngineVersion(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("EngineVersion"); e != nil {
		return nil, e
	}
	target, e := c.p.oneOf("EngineVersion", "", mysqlMajorVersions[1:]...)
	if e != nil {
		return nil, e
	}
	effective, e := c.p.oneOf("EffectiveTime", "Immediate", "Immediate", "MaintainTime")
	if e != nil {
		return nil, e
	}
	if e := s.checkUpgrade(in, target); e != nil {
		return nil, e
	}
	s.state.NextTask++
	taskID := fmt.Sprintf("%d", 10000000+s.state.NextTask)
	c.dirty = true
	if isWindowSpec(effective) {
		s.cancelPendingTasks(in.ID, taskTypeUpgradeEngine, "replaced by a later order")
		start, end := windowAround(in.MaintainTime, c.now)
		s.state.Tasks = append(s.state.Tasks, &task{ID: taskID, InstanceID: in.ID, Type: taskTypeUpgradeEngine,
			Status: taskScheduled, Created: c.now, Start: start, End: end, EngineVersion: target})
		return map[string]any{"TaskId": taskID}, nil
	}
	s.startUpgrade(in, target, c.now)
	return map[string]any{"TaskId": taskID}, nil
}

// checkUpgrade is every rule an upgrade to target must pass now.
func (s *Simulator) checkUpgrade(in *instance, target string) *apiError {
	switch {
	case !in.isMySQL():
		return newErr(400, "InvalidEngine.NotSupport", "UpgradeDBInstanceEngineVersion upgrades MySQL instances only; %s runs %s.", in.ID, in.Engine)
	case slices.Index(mysqlMajorVersions, target) <= slices.Index(mysqlMajorVersions, in.EngineVersion):
		return newErr(400, "InvalidEngineVersion.Downgrade", "%s runs MySQL %s; the major version cannot be lowered or kept (target %s).", in.ID, in.EngineVersion, target)
	case nextMajorVersion(in.EngineVersion) != target:
		return newErr(400, "InvalidEngineVersion.Path", "%s runs MySQL %s; it can be upgraded to %s only, one major version at a time.", in.ID, in.EngineVersion, nextMajorVersion(in.EngineVersion))
	case !upgradeEdition(in.Category, in.StorageType):
		return newErr(400, upgradeCodeSourceCategory, "The %s edition on %s cannot be upgraded in place.", in.Category, in.StorageType)
	}
	if e := in.writable("UpgradeDBInstanceEngineVersion"); e != nil {
		return e
	}
	if in.MasterID != "" {
		return nil
	}
	for _, id := range s.state.readOnlyIDs(in.ID) {
		ro := s.state.Instances[id]
		if slices.Index(mysqlMajorVersions, ro.EngineVersion) < slices.Index(mysqlMajorVersions, target) || ro.Status != statusRunning {
			return newErr(400, upgradeCodeReadOnlyFirst, "Read-only instance %s runs MySQL %s (%s); upgrade it to %s before its primary %s.",
				ro.ID, ro.EngineVersion, ro.Status, target, in.ID)
		}
	}
	return nil
}

// startUpgrade takes the instance out of service for one switchover, sets the version and drops
// the parameters the new version does not have.
func (s *Simulator) startUpgrade(in *instance, target string, at time.Time) {
	s.startRestart(in, statusEngineUpgrading, at, in.Optimized && eligible(in.Engine, target, in.StorageType, in.Class, in.PurchaseTime, in.ProductTypeChanged))
	in.EngineVersion = target
	if mysqlTemplate(target) == nil {
		return // no template to tell which parameters the version lacks: all are kept
	}
	for _, values := range []map[string]string{in.ParamRunning, in.ParamConfig} {
		for name := range values {
			if _, ok := templateParam(target, name); !ok {
				delete(values, name)
			}
		}
	}
}

// runUpgradeTask starts a deferred upgrade in its window; it returns why the rules refuse it now.
func (s *Simulator) runUpgradeTask(in *instance, t *task, at time.Time) string {
	if e := s.checkUpgrade(in, t.EngineVersion); e != nil {
		return e.message
	}
	s.startUpgrade(in, t.EngineVersion, at)
	return ""
}
