package simulator

import (
	"time"
)

// SQL audit (issue 46 §1) through the Database Autonomy Service: ModifySqlLogConfig turns it on
// with Retention (7, 30, 180 or 365 days) and HotRetention (1-7 days, at most Retention), or off;
// DescribeSqlLogConfig reads it back. Both are DAS actions (API 2020-01-16). On the simulator's
// clock, the logs kept are those written since audit was turned on and within the retention: a
// shorter retention deletes the older logs at once, and turning audit off deletes them all.
// Sources and assumptions: README.md, "SQL audit".

// sqlAuditRetentions are Retention's documented values (days).
var sqlAuditRetentions = map[int64]bool{7: true, 30: true, 180: true, 365: true}

// sqlAudit is an instance's SQL audit and the age of its oldest log.
type sqlAudit struct {
	Enabled      bool  `json:"enabled"`
	Retention    int64 `json:"retention"`
	HotRetention int64 `json:"hot_retention"`
	// LogsSince is when the oldest log kept was written (zero: no log).
	LogsSince time.Time `json:"logs_since"`
}

// logsSince is the oldest log kept at now: since audit was turned on, within the retention.
func (a *sqlAudit) logsSince(now time.Time) time.Time {
	if a == nil || !a.Enabled || a.LogsSince.IsZero() {
		return time.Time{}
	}
	return maxTime(a.LogsSince, now.Add(-time.Duration(a.Retention)*24*time.Hour))
}

// modifySqlLogConfig answers DAS's ModifySqlLogConfig.
func (s *Simulator) modifySqlLogConfig(c *call) (map[string]any, *apiError) {
	in, e := s.sqlAuditTarget(c)
	if e != nil {
		return nil, e
	}
	on, e := c.p.boolean("Enable")
	if e != nil {
		return nil, e
	}
	next := &sqlAudit{}
	if on {
		if next, e = sqlAuditOn(c.p); e != nil {
			return nil, e
		}
		// The logs kept so far stay (a shorter retention then hides the older ones for good, as
		// logsSince reads them); audit turned on afresh starts with no log.
		next.LogsSince = c.now
		if prior := in.SQLAudit.logsSince(c.now); !prior.IsZero() {
			next.LogsSince = prior
		}
	}
	if prior := in.SQLAudit.logsSince(c.now); !prior.IsZero() && next.logsSince(c.now) != prior {
		s.recordDeleted(in.ID, DeletedAuditLogs, "logs since "+prior.UTC().Format(crossTimeLayout))
	}
	in.SQLAudit = next
	c.dirty = true
	return map[string]any{"Code": "200", "Success": "true", "Message": "Successful"}, nil
}

// sqlAuditOn reads Retention and HotRetention of a ModifySqlLogConfig that turns audit on.
func sqlAuditOn(p params) (*sqlAudit, *apiError) {
	retention, ok, e := p.integer("Retention")
	switch {
	case e != nil:
		return nil, e
	case !ok || !sqlAuditRetentions[retention]:
		return nil, errInvalid("Retention", "%d days is not 7, 30, 180 or 365", retention)
	}
	hot, ok, e := p.integer("HotRetention")
	switch {
	case e != nil:
		return nil, e
	case !ok || hot < 1 || hot > 7 || hot > retention:
		return nil, errInvalid("HotRetention", "%d days is outside 1-7 or above Retention (%d)", hot, retention)
	}
	return &sqlAudit{Enabled: true, Retention: retention, HotRetention: hot}, nil
}

// sqlAuditTarget is the instance a DAS audit action names by InstanceId.
func (s *Simulator) sqlAuditTarget(c *call) (*instance, *apiError) {
	id, e := c.p.required("InstanceId")
	if e != nil {
		return nil, e
	}
	in, ok := s.state.Instances[id]
	if !ok {
		return nil, errNotFound(id)
	}
	return in, nil
}

// describeSqlLogConfig answers DAS's DescribeSqlLogConfig: SqlLogEnable, the retentions (the cold
// part is Retention minus HotRetention) and SqlLogVisibleTime, the oldest log kept (milliseconds).
func (s *Simulator) describeSqlLogConfig(c *call) (map[string]any, *apiError) {
	in, e := s.sqlAuditTarget(c)
	if e != nil {
		return nil, e
	}
	data := map[string]any{"SqlLogEnable": false, "RequestEnable": false, "Version": "V3"}
	if a := in.SQLAudit; a != nil && a.Enabled {
		data = map[string]any{"SqlLogEnable": true, "RequestEnable": true, "Version": "V3", "Retention": a.Retention,
			"HotRetention": a.HotRetention, "ColdRetention": a.Retention - a.HotRetention,
			"SqlLogVisibleTime": a.logsSince(c.now).UnixMilli()}
	}
	return map[string]any{"Code": "200", "Success": "true", "Message": "Successful", "Data": data}, nil
}

// AuditLogsSince is when the oldest SQL audit log of instance id kept now was written (zero: none).
func (s *Simulator) AuditLogsSince(id string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.state.Instances[id]
	if !ok {
		return time.Time{}
	}
	return in.SQLAudit.logsSince(s.cloudNow())
}
