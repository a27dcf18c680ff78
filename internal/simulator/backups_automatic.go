package simulator

import (
	"slices"
	"time"
)

// Automatic backups (README "Backups", BK7): RDS backs an instance up on the days of its
// PreferredBackupPeriod, in its PreferredBackupTime window. The simulator makes those sets lazily,
// on its clock, whenever a backup action looks at the instance: one set per window start that has
// passed since the instance was created (or since the sets it made last), within the retention.

// runAutomaticBackups adds the automatic sets due by now; it reports whether it added any.
func (s *Simulator) runAutomaticBackups(in *instance, now time.Time) bool {
	if in.MasterID != "" {
		return false // read-only instances have no backups of their own
	}
	p := in.policy()
	from := p.AutomaticThrough
	if from.IsZero() {
		from = in.CreationTime
	}
	if oldest := now.Add(-time.Duration(p.Retention) * 24 * time.Hour); from.Before(oldest) {
		from = oldest
	}
	hour := time.Duration(windowHour(p.Time)) * time.Hour
	added := false
	for day := from.Truncate(24 * time.Hour); !day.After(now); day = day.Add(24 * time.Hour) {
		at := day.Add(hour)
		if !at.After(from) || at.After(now) || !slices.Contains(p.Period, at.Weekday().String()) {
			continue
		}
		s.state.NextBackup++
		method := "Physical"
		if in.cloudDisk() {
			method = "Snapshot" // cloud-disk instances back up by snapshot (BK7)
		}
		in.Backups = append(in.Backups, &backupSet{ID: firstBackupID + s.state.NextBackup, JobID: s.state.NextBackup, Method: method,
			Strategy: "instance", Mode: "Automated", Start: at, End: at.Add(s.opts.RestartDuration)})
		added = true
	}
	if now.After(p.AutomaticThrough) {
		p.AutomaticThrough = now
	}
	return added
}

// windowHour is the start hour of a backup window "HH:00Z-HH:00Z".
func windowHour(window string) int {
	if len(window) < 2 {
		return 0
	}
	return int(window[0]-'0')*10 + int(window[1]-'0')
}

// initiator is BackupInitiator: the system for automatic sets, the user for CreateBackup's.
func initiator(b *backupSet) string {
	if b.Mode == "Automated" {
		return "System"
	}
	return "User"
}
