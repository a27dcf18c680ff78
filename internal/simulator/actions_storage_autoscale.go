package simulator

import (
	"fmt"
	"time"
)

// Storage autoscaling (issue 27 §2): ModifyDasInstanceConfig (RDS API 2014-08-15) turns it on or
// off; DescribeAutoScalingConfig (the Database Autonomy Service API, 2020-01-16) reads it back;
// the cloud grows the disk of a primary whose free space has stayed at or below the threshold for
// autoScaleCheckDelay, by the larger of 15% of its storage and 5 GB, up to the upper bound, online
// (no restart), and grows its read-only instances that are smaller than the new size first.
// Sources and assumptions: README.md, "Storage autoscaling".

// dasAPIVersion is the version DAS actions name; every other action speaks apiVersion.
const dasAPIVersion = "2020-01-16"

// dasActions are the actions of the DAS API the simulator serves beside the RDS API.
var dasActions = map[string]bool{"DescribeAutoScalingConfig": true, "ModifySqlLogConfig": true, "DescribeSqlLogConfig": true}

// versionOf is the API version an action belongs to.
func versionOf(action string) string {
	switch {
	case dasActions[action]:
		return dasAPIVersion
	case resourceManagerActions[action]:
		return resourceManagerAPIVersion
	}
	return apiVersion
}

// autoScaleCheckDelay is how long free space must stay at or below the threshold before the cloud
// grows the disk (assumption: DAS samples usage; the real interval is not documented).
const autoScaleCheckDelay = time.Minute

// autoScaleThresholds are StorageThreshold's documented values (free space, percent).
var autoScaleThresholds = map[int64]bool{10: true, 20: true, 30: true, 40: true, 50: true}

// storageAutoScale is an instance's autoscaling configuration and the state of its check.
type storageAutoScale struct {
	Enabled    bool  `json:"enabled"`
	Threshold  int64 `json:"threshold"`   // free space, percent
	UpperBound int64 `json:"upper_bound"` // GB
	// LowSince is when free space was first seen at or below the threshold (zero: it is not).
	LowSince time.Time `json:"low_since"`
	// Growths counts the disk growths the cloud made.
	Growths int `json:"growths"`
}

// autoScaleMaxStorage is the largest StorageUpperBound per storage type (ModifyDasInstanceConfig
// reference: 32,000 GB for ESSDs, 6,000 GB for standard SSDs).
func autoScaleMaxStorage(storageType string) int64 {
	if storageType == "cloud_ssd" {
		return 6000
	}
	return 32000
}

// autoScaleRefusal is why an instance cannot have autoscaling, or nil.
func autoScaleRefusal(in *instance) *apiError {
	switch {
	case in.MasterID != "":
		return newErr(400, "OperationDenied", "Storage autoscaling is configured on the primary instance %s, not on read-only instance %s.", in.MasterID, in.ID)
	case in.Engine == "MySQL" && in.Category != "HighAvailability":
		return newErr(400, "OperationDenied", "Storage autoscaling needs RDS High-availability Edition; %s is %s.", in.ID, in.Category)
	case in.StorageType == "local_ssd":
		return newErr(400, "OperationDenied", "Storage autoscaling needs cloud disks; %s uses local_ssd.", in.ID)
	}
	return nil
}

func (s *Simulator) modifyDasInstanceConfig(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	mode, e := c.p.required("StorageAutoScale")
	if e != nil {
		return nil, e
	}
	if mode != "Enable" && mode != "Disable" {
		return nil, errInvalid("StorageAutoScale", "%q is not Enable or Disable", truncate(mode))
	}
	if in.Status != statusRunning {
		return nil, errBusy(in.ID, in.Status)
	}
	if mode == "Disable" {
		if in.AutoScale != nil {
			in.AutoScale.Enabled, in.AutoScale.LowSince = false, time.Time{}
			c.dirty = true
		}
		return map[string]any{}, nil
	}
	if e := autoScaleRefusal(in); e != nil {
		return nil, e
	}
	cfg, e := autoScaleRequest(c.p, in)
	if e != nil {
		return nil, e
	}
	if in.AutoScale != nil {
		cfg.Growths = in.AutoScale.Growths
	}
	in.AutoScale = cfg
	c.dirty = true
	s.checkAutoScale(in, c.now)
	return map[string]any{}, nil
}

// autoScaleRequest reads an Enable request's threshold and upper bound.
func autoScaleRequest(p params, in *instance) (*storageAutoScale, *apiError) {
	threshold, ok, e := p.integer("StorageThreshold")
	switch {
	case e != nil:
		return nil, e
	case !ok:
		return nil, errMissing("StorageThreshold")
	case !autoScaleThresholds[threshold]:
		return nil, errInvalid("StorageThreshold", "%d is not one of 10, 20, 30, 40, 50", threshold)
	}
	upper, ok, e := p.integer("StorageUpperBound")
	switch {
	case e != nil:
		return nil, e
	case !ok:
		return nil, errMissing("StorageUpperBound")
	case upper < in.Storage:
		return nil, errInvalid("StorageUpperBound", "%d GB is below the instance's current storage, %d GB", upper, in.Storage)
	case upper > autoScaleMaxStorage(in.StorageType):
		return nil, errInvalid("StorageUpperBound", "%d GB is above %d GB, the maximum for %s", upper, autoScaleMaxStorage(in.StorageType), in.StorageType)
	}
	return &storageAutoScale{Enabled: true, Threshold: threshold, UpperBound: upper}, nil
}

// describeAutoScalingConfig answers DAS's DescribeAutoScalingConfig with its Storage part: Upgrade
// (enabled), MaxStorage (the upper bound) and DiskUsageUpperThreshold (used space, percent: 100
// minus StorageThreshold, an assumption).
func (s *Simulator) describeAutoScalingConfig(c *call) (map[string]any, *apiError) {
	id, e := c.p.required("InstanceId")
	if e != nil {
		return nil, e
	}
	in, ok := s.state.Instances[id]
	if !ok {
		return nil, errNotFound(id)
	}
	storage := map[string]any{"Upgrade": false}
	if a := in.AutoScale; a != nil {
		storage = map[string]any{"Upgrade": a.Enabled, "MaxStorage": a.UpperBound, "DiskUsageUpperThreshold": 100 - a.Threshold}
	}
	return map[string]any{"Code": "200", "Success": "true", "Message": "Successful",
		"Data": map[string]any{"Storage": storage}}, nil
}

// autoScaleAll runs the autoscaling check of every instance at now.
func (s *Simulator) autoScaleAll(now time.Time) bool {
	changed := false
	for _, in := range s.state.Instances {
		if s.checkAutoScale(in, now) {
			changed = true
		}
	}
	return changed
}

// checkAutoScale notes when free space first falls to the threshold and grows the disk once it
// has stayed there for autoScaleCheckDelay.
func (s *Simulator) checkAutoScale(in *instance, now time.Time) bool {
	a := in.AutoScale
	if a == nil || !a.Enabled || in.Status != statusRunning || in.Storage <= 0 {
		return false
	}
	low := (in.Storage-in.DiskUsedGB)*100 <= a.Threshold*in.Storage
	switch {
	case !low:
		changed := !a.LowSince.IsZero()
		a.LowSince = time.Time{}
		return changed
	case a.LowSince.IsZero():
		a.LowSince = now
		return true
	case now.Sub(a.LowSince) < autoScaleCheckDelay || in.Storage >= a.UpperBound:
		return false
	}
	grown := min(in.Storage+autoScaleStep(in.Storage), a.UpperBound)
	for _, ro := range s.state.Instances {
		if ro.MasterID == in.ID && ro.Storage < grown {
			ro.Storage = grown
		}
	}
	in.Storage = grown
	a.Growths++
	a.LowSince = time.Time{}
	return true
}

// autoScaleStep is one growth: the larger of 15% of the storage and 5 GB, rounded up to the
// storage step.
func autoScaleStep(storage int64) int64 {
	step := max((storage*15+99)/100, 5)
	return (step + storageStep - 1) / storageStep * storageStep
}

// SetDiskUsage sets the space an instance's data uses, in GB (the Go form of POST
// /_simulator/instances/{id}/disk-usage); the autoscaling check sees it at once.
func (s *Simulator) SetDiskUsage(id string, usedGB int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cloudNow()
	s.advance(now)
	in, ok := s.state.Instances[id]
	if !ok {
		return fmt.Errorf("no instance %s", id)
	}
	if usedGB < 0 || usedGB > in.Storage {
		return fmt.Errorf("used space %d GB is outside 0-%d GB, the storage of %s", usedGB, in.Storage, id)
	}
	in.DiskUsedGB = usedGB
	s.checkAutoScale(in, now)
	return s.saveLocked()
}

// AutoScaleGrowths is how many times the cloud grew an instance's disk.
func (s *Simulator) AutoScaleGrowths(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in, ok := s.state.Instances[id]; ok && in.AutoScale != nil {
		return in.AutoScale.Growths
	}
	return 0
}
