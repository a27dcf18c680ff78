package simulator

import "time"

// noteProxyDrop counts, in Stats.ProxyDrops, the switchover of a spec change of in (switched: its
// class, storage type or edition changes) behind a started database proxy of its primary that
// keeps no persistent connections: Alibaba's usage notes for the database proxy say such a change
// switches the instance over, and only persistent connections keep the clients' connections to the
// proxy (README "Database proxy"). Other restarts are counted as restarts only. A proxy still
// Creating at the switchover (at) serves no client yet, so it has no connection to drop.
func (s *Simulator) noteProxyDrop(in *instance, switched bool, at time.Time) {
	primary := in
	if in.MasterID != "" {
		primary = s.state.Instances[in.MasterID]
	}
	if !switched || primary == nil || primary.Proxy == nil || !primary.Proxy.Started || primary.Proxy.Persistent {
		return
	}
	if px := primary.Proxy; px.Status != statusRunning && at.Before(px.StatusUntil) {
		return
	}
	s.stats.ProxyDrops[in.ID]++
}
