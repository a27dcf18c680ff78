package simulator

import (
	"encoding/json"
	"io"
	"net/http"
)

// serveAdmin answers the unsigned test endpoints; faults never apply to them.
//
//	GET  /_simulator/stats        {"requests":{"<Action>":n},"restarts":{"<DBInstanceId>":n},"internal_errors":n}
//	POST /_simulator/stats/reset  zeroes the counters
//	GET  /_simulator/faults       the current faults
//	POST /_simulator/faults       {"throttle_rate":..,"error_rate":..,"latency_ms":..,"drop_response_rate":..}
//	GET  /_simulator/instances/{id}            hidden facts: purchase time, product-type history, lock
//	POST /_simulator/instances/{id}/state      {"status":"Stopped|Running|Deleting","lock_mode":..,"lock_reason":..,"for_ms":..}
//	POST /_simulator/instances/{id}/ip-arrays  {"name":"ali_dms_group","ips":"100.104.0.0/16","attribute":"hidden"}
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
	default:
		if id, sub, ok := instanceAdminPath(r.URL.Path); ok {
			s.serveInstanceAdmin(w, r, id, sub)
			return
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown admin endpoint " + r.Method + " " + truncate(r.URL.Path)})
	}
}
