package simulator

import (
	"encoding/json"
	"io"
	"net/http"
	"time"
)

// serveAdmin answers the unsigned test endpoints; faults never apply to them.
//
//	GET  /_simulator/stats        {"requests":{..},"restarts":{"<DBInstanceId>":n},"throttled":{..},"internal_errors":n,"spans":{..}}
//	POST /_simulator/stats/reset  zeroes the counters
//	GET  /_simulator/faults       the current faults
//	POST /_simulator/faults       {"throttle_rate":..,"error_rate":..,"latency_ms":..,"drop_response_rate":..,"qps":{..}}
//	GET  /_simulator/clock        {"now":"<the cloud's time>"}
//	POST /_simulator/clock        {"advance":"8h"} moves the cloud's clock forward (maintenance windows)
//	POST /_simulator/maintenance/miss {"instance_id":".."} fails the instance's scheduled changes
//	GET  /_simulator/resolve?address=host:port {"address":"127.0.0.1:n"}: a connection string and port the API
//	     handed out, mapped to its MySQL endpoint (404 when no instance has it: changed or released)
//	GET  /_simulator/instances/{id}            hidden facts: purchase time, product-type history, lock
//	POST /_simulator/instances/{id}/state      {"status":"Stopped|Running|Deleting","lock_mode":..,"lock_reason":..,"for_ms":..}
//	POST /_simulator/instances/{id}/ip-arrays  {"name":"ali_dms_group","ips":"100.104.0.0/16","attribute":"hidden"}
//	POST /_simulator/instances/{id}/disk-usage {"used_gb":90} space the data uses (storage autoscaling)
func (s *Simulator) serveAdmin(w http.ResponseWriter, r *http.Request) {
	type route struct{ method, path string }
	switch (route{r.Method, r.URL.Path}) {
	case route{http.MethodGet, "/_simulator/stats"}:
		writeJSON(w, http.StatusOK, s.Stats())
	case route{http.MethodPost, "/_simulator/stats/reset"}:
		s.ResetStats()
		writeJSON(w, http.StatusOK, s.Stats())
	case route{http.MethodGet, "/_simulator/faults"}:
		s.mu.Lock()
		f := s.faults
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, f)
	case route{http.MethodPost, "/_simulator/faults"}:
		var f Faults
		dec := json.NewDecoder(io.LimitReader(r.Body, maxBodyBytes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "faults body: " + err.Error()})
			return
		}
		if err := f.validate(); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		s.SetFaults(f)
		writeJSON(w, http.StatusOK, f)
	case route{http.MethodGet, "/_simulator/clock"}:
		writeJSON(w, http.StatusOK, s.clockAnswer())
	case route{http.MethodPost, "/_simulator/clock"}:
		var body struct {
			Advance string `json:"advance"`
		}
		if !decodeAdmin(w, r, &body) {
			return
		}
		d, err := time.ParseDuration(body.Advance)
		if err != nil || d <= 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "advance must be a positive duration such as \"8h\""})
			return
		}
		s.AdvanceClock(d)
		writeJSON(w, http.StatusOK, s.clockAnswer())
	case route{http.MethodPost, "/_simulator/maintenance/miss"}:
		var body struct {
			InstanceID string `json:"instance_id"`
		}
		if !decodeAdmin(w, r, &body) {
			return
		}
		writeJSON(w, http.StatusOK, map[string]int{"failed": s.MissMaintenanceWindow(body.InstanceID)})
	case route{http.MethodGet, "/_simulator/resolve"}:
		address := r.URL.Query().Get("address")
		if loopback, ok := s.ResolveEndpoint(address); ok {
			writeJSON(w, http.StatusOK, map[string]string{"address": loopback})
			return
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": truncate(address) + " is no endpoint of any instance"})
	default:
		if id, sub, ok := instanceAdminPath(r.URL.Path); ok {
			s.serveInstanceAdmin(w, r, id, sub)
			return
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown admin endpoint " + r.Method + " " + truncate(r.URL.Path)})
	}
}

// decodeAdmin reads a strict JSON admin body, answering 400 when it is not one.
func decodeAdmin(w http.ResponseWriter, r *http.Request, into any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body: " + err.Error()})
		return false
	}
	return true
}

func (s *Simulator) clockAnswer() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]string{"now": s.cloudNow().Format(time.RFC3339)}
}
