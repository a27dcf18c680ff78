package simulator

import (
	"slices"
	"strconv"
	"time"
)

// Cross-region backups (issue 46 §2; README "Cross-region backups"). ModifyInstanceCrossBackupPolicy
// turns copying on (a destination DescribeAvailableCrossRegion lists, Retention 7-1825 days) or
// off; every data backup set that completes while it is on is copied to the destination region,
// on the simulator's clock, and kept Retention days from its start: a shorter Retention deletes
// the older copies at once. Releasing a cloud-disk instance deletes its copies; an instance on
// local disks keeps them until they expire.

func init() {
	for name, h := range map[string]handler{
		"ModifyInstanceCrossBackupPolicy":   (*Simulator).modifyCrossBackupPolicy,
		"DescribeInstanceCrossBackupPolicy": (*Simulator).describeCrossBackupPolicy,
		"DescribeAvailableCrossRegion":      (*Simulator).describeAvailableCrossRegion,
		"DescribeCrossRegionBackups":        (*Simulator).describeCrossRegionBackups,
	} {
		actions[name] = h
	}
}

const (
	firstCrossBackupID = 14562 // the reference's example CrossBackupId
	crossTimeLayout    = "2006-01-02T15:04:05Z"
)

// crossDestinations are the destinations offered from any source region (the reference's
// example for cn-hangzhou, plus cn-beijing; assumption CR2), less the source itself.
var crossDestinations = []string{"cn-qingdao", "cn-beijing", "cn-shanghai", "cn-shenzhen"}

func crossRegionsFrom(source string) []string {
	return slices.DeleteFunc(slices.Clone(crossDestinations), func(r string) bool { return r == source })
}

// crossPolicy is an instance's cross-region backup policy.
type crossPolicy struct {
	Region     string    `json:"region"`
	Retention  int64     `json:"retention"`
	LogEnabled bool      `json:"log_enabled"`
	EnabledAt  time.Time `json:"enabled_at"`
}

// crossBackup is one copy of a data backup set in another region.
type crossBackup struct {
	ID          int64     `json:"id"`
	InstanceID  string    `json:"instance_id"`
	Source      string    `json:"source_region"`
	Region      string    `json:"region"`
	SetID       int64     `json:"set_id"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	StorageType string    `json:"storage_type"`
	EngineVer   string    `json:"engine_version"`
	Category    string    `json:"category"`
	// Optimized and PurchaseTime are the source's 16K flag and product line when the set was
	// copied: a restore of the copy inherits them, as a clone inherits its source's (16K rule 8).
	Optimized    bool      `json:"optimized,omitempty"`
	PurchaseTime time.Time `json:"purchase_time,omitzero"`
	// Retention is the days the copy is kept from its start (the policy's, last it was applied).
	Retention int64 `json:"retention"`
}

func (c *crossBackup) expired(now time.Time) bool {
	return now.Sub(c.Start) > time.Duration(c.Retention)*24*time.Hour
}

// copyCrossBackups copies the instance's completed sets made since copying was turned on, and
// deletes the copies past the retention; it reports whether anything changed.
func (s *Simulator) copyCrossBackups(in *instance, now time.Time) bool {
	p := in.CrossBackup
	if p == nil {
		return false
	}
	changed := s.runAutomaticBackups(in, now)
	for _, b := range in.Backups {
		if !b.done(now) || b.End.Before(p.EnabledAt) || s.copied(in.ID, b.ID) {
			continue
		}
		s.state.NextCross++
		s.state.CrossBackups = append(s.state.CrossBackups, &crossBackup{ID: firstCrossBackupID + s.state.NextCross,
			InstanceID: in.ID, Source: in.RegionID, Region: p.Region, SetID: b.ID, Start: b.Start, End: b.End,
			StorageType: in.StorageType, EngineVer: in.EngineVersion, Category: in.Category, Retention: p.Retention,
			Optimized: in.Optimized, PurchaseTime: in.PurchaseTime})
		changed = true
	}
	for _, c := range s.state.CrossBackups {
		if c.InstanceID == in.ID {
			c.Retention = p.Retention
		}
	}
	return s.expireCrossBackups(now) || changed
}

// expireCrossBackups deletes the copies past their retention, a released instance's too.
func (s *Simulator) expireCrossBackups(now time.Time) bool {
	before := len(s.state.CrossBackups)
	s.state.CrossBackups = slices.DeleteFunc(s.state.CrossBackups, func(c *crossBackup) bool { return c.expired(now) })
	return len(s.state.CrossBackups) != before
}

func (s *Simulator) copied(id string, setID int64) bool {
	return slices.ContainsFunc(s.state.CrossBackups, func(c *crossBackup) bool { return c.InstanceID == id && c.SetID == setID })
}

// copyAllCrossBackups runs copyCrossBackups for every instance (advance).
func (s *Simulator) copyAllCrossBackups(now time.Time) bool {
	changed := s.expireCrossBackups(now)
	for _, in := range s.state.Instances {
		changed = s.copyCrossBackups(in, now) || changed
	}
	return changed
}

// releaseCrossBackups is the release of in: a cloud-disk instance's copies go with it.
func (s *Simulator) releaseCrossBackups(in *instance, now time.Time) {
	s.copyCrossBackups(in, now)
	if in.cloudDisk() {
		before := slices.Clone(s.state.CrossBackups)
		s.state.CrossBackups = slices.DeleteFunc(s.state.CrossBackups, func(c *crossBackup) bool { return c.InstanceID == in.ID })
		s.recordGoneCopies(in.ID, before)
	}
}

// modifyCrossBackupPolicy answers ModifyInstanceCrossBackupPolicy.
func (s *Simulator) modifyCrossBackupPolicy(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, true)
	if e != nil {
		return nil, e
	}
	enabled, e := c.p.oneOf("BackupEnabled", "1", "0", "1")
	if e != nil {
		return nil, e
	}
	s.copyCrossBackups(in, c.now)
	if enabled == "0" {
		in.CrossBackup = nil
		c.dirty = true
		return crossPolicyAnswer(in, "Disabled"), nil
	}
	next, e := crossPolicyOn(c.p, in, c.now)
	if e != nil {
		return nil, e
	}
	if prior := in.CrossBackup; prior != nil && prior.Region == next.Region {
		next.EnabledAt = prior.EnabledAt
	}
	in.CrossBackup = next
	before := slices.Clone(s.state.CrossBackups)
	s.copyCrossBackups(in, c.now) // a shorter retention deletes the older copies at once
	s.recordGoneCopies(in.ID, before)
	c.dirty = true
	return crossPolicyAnswer(in, "Enable"), nil
}

// crossPolicyOn reads the parameters of a ModifyInstanceCrossBackupPolicy that turns copying on.
func crossPolicyOn(p params, in *instance, now time.Time) (*crossPolicy, *apiError) {
	region, e := p.required("CrossBackupRegion")
	if e != nil {
		return nil, e
	}
	if !slices.Contains(crossRegionsFrom(in.RegionID), region) {
		return nil, newErr(400, "InvalidCrossBackupRegion", "The specified CrossBackupRegion %q does not support cross-region backup from %s.", truncate(region), in.RegionID)
	}
	if _, e := p.oneOf("CrossBackupType", "1", "1"); e != nil {
		return nil, e
	}
	if _, e := p.oneOf("RetentType", "1", "1"); e != nil {
		return nil, e
	}
	retention, e := intIn(p, "Retention", 7, 1825, false)
	if e != nil {
		return nil, e
	}
	if retention == 0 {
		retention = 7
	}
	logOn, e := p.oneOf("LogBackupEnabled", "0", "0", "1")
	if e != nil {
		return nil, e
	}
	return &crossPolicy{Region: region, Retention: retention, LogEnabled: logOn == "1", EnabledAt: now}, nil
}

func crossPolicyAnswer(in *instance, enabled string) map[string]any {
	out := map[string]any{"DBInstanceId": in.ID, "RegionId": in.RegionID, "BackupEnabled": enabled, "LogBackupEnabled": "Disabled",
		"CrossBackupType": "1", "RetentType": 1, "Retention": 0, "CrossBackupRegion": "", "StorageOwner": "", "StorageType": "", "Endpoint": ""}
	if p := in.CrossBackup; p != nil {
		out["CrossBackupRegion"], out["Retention"] = p.Region, p.Retention
		if p.LogEnabled {
			out["LogBackupEnabled"] = "Enable"
		}
	}
	return out
}

// describeCrossBackupPolicy answers DescribeInstanceCrossBackupPolicy.
func (s *Simulator) describeCrossBackupPolicy(c *call) (map[string]any, *apiError) {
	in, e := s.backupTarget(c, false)
	if e != nil {
		return nil, e
	}
	enabled, since, logSince := "Disabled", "", ""
	if p := in.CrossBackup; p != nil {
		enabled, since = "Enable", p.EnabledAt.UTC().Format(crossTimeLayout)
		if p.LogEnabled {
			logSince = since
		}
	}
	out := crossPolicyAnswer(in, enabled)
	for k, v := range map[string]any{"BackupEnabledTime": since, "LogBackupEnabledTime": logSince, "DBInstanceStatus": in.Status,
		"DBInstanceStatusDesc": in.Status, "LockMode": in.lockMode(), "Engine": in.Engine, "EngineVersion": in.EngineVersion,
		"DBInstanceDescription": in.Description, "RelService": "", "RelServiceId": ""} {
		out[k] = v
	}
	return out, nil
}

// describeAvailableCrossRegion answers DescribeAvailableCrossRegion (RegionId required).
func (s *Simulator) describeAvailableCrossRegion(c *call) (map[string]any, *apiError) {
	region, e := c.p.required("RegionId")
	if e != nil {
		return nil, e
	}
	return map[string]any{"Regions": map[string]any{"Region": crossRegionsFrom(region)}}, nil
}

// describeCrossRegionBackups answers DescribeCrossRegionBackups: an instance's copies (a released
// instance's kept copies too), asked in the instance's own region (RegionId), by CrossBackupId or started in [StartTime, EndTime], optionally in
// one CrossBackupRegion, paged by PageSize 30, 50 or 100.
func (s *Simulator) describeCrossRegionBackups(c *call) (map[string]any, *apiError) {
	id, e := c.p.required("DBInstanceId")
	if e != nil {
		return nil, e
	}
	region, e := s.requestRegion(c.p)
	if e != nil {
		return nil, e
	}
	if in, ok := s.state.Instances[id]; ok && in.RegionID == region && s.copyCrossBackups(in, c.now) {
		c.dirty = true
	} else if (ok && in.RegionID != region) || (!ok && !slices.ContainsFunc(s.state.CrossBackups, func(b *crossBackup) bool {
		return b.InstanceID == id && b.Source == region
	})) {
		return nil, errNotFound(id) // the instance is looked up in RegionId, its own region (assumption CR9)
	}
	match, e := crossBackupFilter(c.p)
	if e != nil {
		return nil, e
	}
	size, number, e := pageParams(c.p, 30, 100)
	if e != nil {
		return nil, e
	}
	var items []map[string]any
	for _, b := range s.state.CrossBackups {
		if b.InstanceID == id && match(b) {
			items = append(items, crossBackupItem(b))
		}
	}
	page := pageOf(items, size, number)
	return map[string]any{"Items": map[string]any{"Item": page}, "PageNumber": number, "PageRecordCount": len(page),
		"TotalRecordCount": len(items), "RegionId": region, "StartTime": c.p.get("StartTime"), "EndTime": c.p.get("EndTime")}, nil
}

// crossBackupFilter reads CrossBackupId, or StartTime and EndTime (one of the two is required),
// and CrossBackupRegion.
func crossBackupFilter(p params) (func(*crossBackup) bool, *apiError) {
	region := p.get("CrossBackupRegion")
	if idText := p.get("CrossBackupId"); idText != "" {
		want, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			return nil, errInvalid("CrossBackupId", "%q is not an integer", truncate(idText))
		}
		return func(b *crossBackup) bool { return b.ID == want && (region == "" || b.Region == region) }, nil
	}
	var bounds [2]time.Time
	for i, name := range []string{"StartTime", "EndTime"} {
		v, e := p.required(name)
		if e != nil {
			return nil, e
		}
		t, err := time.Parse(crossTimeLayout, v)
		if err != nil {
			return nil, errInvalid(name, "%q is not yyyy-MM-ddTHH:mm:ssZ", truncate(v))
		}
		bounds[i] = t
	}
	if bounds[1].Before(bounds[0]) {
		return nil, errInvalid("EndTime", "is before StartTime")
	}
	return func(b *crossBackup) bool {
		return !b.Start.Before(bounds[0]) && !b.Start.After(bounds[1]) && (region == "" || b.Region == region)
	}, nil
}

func crossBackupItem(b *crossBackup) map[string]any {
	return map[string]any{"CrossBackupId": b.ID, "CrossBackupRegion": b.Region, "DBInstanceId": b.InstanceID, "BackupSetStatus": 0,
		"BackupStartTime": b.Start.UTC().Format(crossTimeLayout), "BackupEndTime": b.End.UTC().Format(crossTimeLayout),
		"ConsistentTime": b.End.UTC().Format(crossTimeLayout), "BackupMethod": "Physical", "BackupType": "FullBackup",
		"CrossBackupSetSize": backupSetSizeBytes, "DBInstanceStorageType": b.StorageType, "Engine": "MySQL",
		"EngineVersion": b.EngineVer, "Category": b.Category, "BackupSetScale": 0, "InstanceId": 0,
		"CrossBackupSetFile": "", "CrossBackupSetLocation": b.Region, "CrossBackupDownloadLink": "", "CrossIntranetDownloadLink": "",
		"RestoreRegions": map[string]any{"RestoreRegion": []string{b.Region}}}
}

// CrossRegionBackups counts the cross-region copies of instance id the simulator holds now.
func (s *Simulator) CrossRegionBackups(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.cloudNow())
	n := 0
	for _, b := range s.state.CrossBackups {
		if b.InstanceID == id {
			n++
		}
	}
	return n
}
