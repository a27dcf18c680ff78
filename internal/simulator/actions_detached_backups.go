package simulator

import (
	"strconv"
	"strings"
	"time"
)

// Backup sets of released instances (issue 41, item 5). A released instance keeps the sets its
// ReleasedKeepPolicy names (the DeleteDBInstance parameter, else its backup policy's): None keeps
// nothing, Lastest the newest set, All every set still within retention; DescribeDetachedBackups
// lists them (README, "Backups of released instances"). They are kept for the simulator's
// lifetime (assumption: the cloud keeps them by its own retention rules).

// detachedBackup is one kept set: the item DescribeBackups showed for it when its instance was
// released, with what the filters need.
type detachedBackup struct {
	InstanceID string         `json:"instance_id"`
	Region     string         `json:"region"`
	ID         int64          `json:"id"`
	Start      time.Time      `json:"start"`
	Mode       string         `json:"mode"`
	Item       map[string]any `json:"item"`
}

// keepReleasedBackups records the sets a released instance keeps.
func (s *Simulator) keepReleasedBackups(in *instance, now time.Time) {
	keep := in.ReleaseKeep
	if keep == "" {
		keep = in.policy().ReleasedKeep
	}
	var sets []*backupSet
	for _, b := range s.liveBackups(in, now) {
		if b.done(now) {
			sets = append(sets, b)
		}
	}
	switch {
	case strings.EqualFold(keep, "Lastest") && len(sets) > 0:
		newest := sets[0]
		for _, b := range sets {
			if b.Start.After(newest.Start) || (b.Start.Equal(newest.Start) && b.ID > newest.ID) {
				newest = b
			}
		}
		sets = []*backupSet{newest}
	case !strings.EqualFold(keep, "All"):
		sets = nil
	}
	for _, b := range sets {
		item := s.backupItem(in, b, now)
		item["StoreStatus"] = "Disabled"
		s.state.Detached = append(s.state.Detached, detachedBackup{InstanceID: in.ID, Region: in.RegionID, ID: b.ID, Start: b.Start, Mode: b.Mode, Item: item})
	}
}

// describeDetachedBackups: DescribeDetachedBackups (Region required; DBInstanceId, BackupId,
// BackupStatus, BackupMode, StartTime, EndTime, PageSize 30/50/100, PageNumber).
func (s *Simulator) describeDetachedBackups(c *call) (map[string]any, *apiError) {
	region, e := c.p.required("Region")
	if e != nil {
		return nil, e
	}
	from, to, e := backupWindow(c.p)
	if e != nil {
		return nil, e
	}
	size, number, e := pageParams(c.p, 30, 100)
	if e != nil {
		return nil, e
	}
	id, backup := strings.TrimSpace(c.p.get("DBInstanceId")), strings.TrimSpace(c.p.get("BackupId"))
	status, mode := c.p.get("BackupStatus"), c.p.get("BackupMode")
	items := []map[string]any{}
	for _, d := range s.state.Detached {
		if d.Region != region || (id != "" && id != d.InstanceID) || (backup != "" && backup != strconv.FormatInt(d.ID, 10)) ||
			(status != "" && status != "Success") || (mode != "" && mode != d.Mode) || d.Start.Before(from) || (!to.IsZero() && d.Start.After(to)) {
			continue
		}
		items = append(items, d.Item)
	}
	page := pageOf(items, size, number)
	return map[string]any{"Items": map[string]any{"Backup": page}, "PageNumber": itoa(number),
		"PageRecordCount": itoa(int64(len(page))), "TotalRecordCount": itoa(int64(len(items))),
		"TotalBackupSize": int64(len(items)) * backupSetSizeBytes}, nil
}
