package simulator

import (
	"maps"
	"slices"
	"strconv"
)

// The data the cloud deletes for good (issue 46 §4): every deletion a request causes, or a release
// on the clock, is recorded in Stats.Deleted until the next ResetStats, so that a test can compare
// the plan's data-loss warnings with what really went. Expiry on the clock (a set or copy older
// than its retention) is not a deletion a plan causes and is not recorded.

// Kinds of deleted data (Deletion.Kind).
const (
	DeletedBackupSet   = "backup set"          // ModifyBackupPolicy with a shorter retention, DeleteBackup
	DeletedCrossRegion = "cross-region backup" // ModifyInstanceCrossBackupPolicy with a shorter retention, the release of a cloud-disk instance
	DeletedAuditLogs   = "sql audit logs"      // ModifySqlLogConfig with a shorter retention, or turning audit off
	DeletedDatabase    = "database"            // DeleteDatabase, the release of its primary
)

// Deletion is one piece of data deleted for good: its kind, the instance it belonged to and which
// (a backup set or copy id, a database name, the time of the oldest log deleted).
type Deletion struct {
	Instance string `json:"instance"`
	Kind     string `json:"kind"`
	What     string `json:"what"`
}

// recordDeleted notes a deletion (s.mu held).
func (s *Simulator) recordDeleted(instance, kind, what string) {
	s.stats.Deleted = append(s.stats.Deleted, Deletion{Instance: instance, Kind: kind, What: what})
}

// recordGoneSets notes the sets of before that after no longer holds.
func (s *Simulator) recordGoneSets(id string, before, after []*backupSet) {
	for _, b := range before {
		if !slices.Contains(after, b) {
			s.recordDeleted(id, DeletedBackupSet, strconv.FormatInt(b.ID, 10))
		}
	}
}

// recordGoneCopies notes the cross-region copies of instance id that before held and
// s.state.CrossBackups no longer does.
func (s *Simulator) recordGoneCopies(id string, before []*crossBackup) {
	for _, b := range before {
		if b.InstanceID == id && !slices.Contains(s.state.CrossBackups, b) {
			s.recordDeleted(id, DeletedCrossRegion, strconv.FormatInt(b.ID, 10))
		}
	}
}

// recordReleasedDatabases notes the databases of a primary that go with its release (a read-only
// instance's are its primary's).
func (s *Simulator) recordReleasedDatabases(in *instance) {
	if in.MasterID != "" {
		return
	}
	names := slices.Sorted(maps.Keys(in.Databases))
	for _, name := range names {
		if in.Databases[name].GoneAt.IsZero() {
			s.recordDeleted(in.ID, DeletedDatabase, name)
		}
	}
}

// DataDeleted is Stats().Deleted once the cloud's clock has run to now (a release that is due
// has deleted what goes with it).
func (s *Simulator) DataDeleted() []Deletion {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.advance(s.cloudNow()) {
		_ = s.saveLocked()
	}
	return slices.Clone(s.stats.Deleted)
}
