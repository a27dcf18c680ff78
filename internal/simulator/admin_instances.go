package simulator

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// instanceAdminPath splits /_simulator/instances/{id}[/{sub}].
func instanceAdminPath(path string) (id, sub string, ok bool) {
	rest, found := strings.CutPrefix(path, "/_simulator/instances/")
	if !found || rest == "" {
		return "", "", false
	}
	id, sub, _ = strings.Cut(rest, "/")
	return id, sub, id != "" && !strings.Contains(sub, "/")
}

// instanceFacts are what the cloud knows about an instance but the API does not show: tests read
// them to check a prediction against the simulated truth.
type instanceFacts struct {
	ID                 string            `json:"id"`
	Status             string            `json:"status"`
	CreationTime       time.Time         `json:"creation_time"`
	PurchaseTime       time.Time         `json:"purchase_time"`
	ProductTypeChanged bool              `json:"product_type_changed"`
	Eligible           bool              `json:"init_optimized_writes"`
	LockMode           string            `json:"lock_mode"`
	LockReason         string            `json:"lock_reason"`
	IPArrays           map[string]string `json:"ip_arrays"`
}

func (s *Simulator) serveInstanceAdmin(w http.ResponseWriter, r *http.Request, id, sub string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.advance(s.cloudNow()) {
		_ = s.saveLocked()
	}
	in, ok := s.state.Instances[id]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no instance " + truncate(id)})
		return
	}
	decode := func(v any) bool {
		dec := json.NewDecoder(io.LimitReader(r.Body, maxBodyBytes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": sub + " body: " + err.Error()})
			return false
		}
		return true
	}
	switch {
	case r.Method == http.MethodGet && sub == "":
	case r.Method == http.MethodPost && sub == "state":
		var ch InstanceState
		if !decode(&ch) {
			return
		}
		if err := s.setInstanceState(id, ch); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
	case r.Method == http.MethodPost && sub == "ip-arrays":
		var arr struct {
			Name      string `json:"name"`
			IPs       string `json:"ips"`
			Attribute string `json:"attribute"`
		}
		if !decode(&arr) {
			return
		}
		if e := in.addForeignIPArray(arr.Name, arr.IPs, arr.Attribute); e != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": e.message})
			return
		}
	case r.Method == http.MethodPost && sub == "disk-usage":
		var usage struct {
			UsedGB int64 `json:"used_gb"`
		}
		if !decode(&usage) {
			return
		}
		if usage.UsedGB < 0 || usage.UsedGB > in.Storage {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("used_gb %d is outside 0-%d", usage.UsedGB, in.Storage)})
			return
		}
		in.DiskUsedGB = usage.UsedGB
		s.checkAutoScale(in, s.cloudNow())
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown admin endpoint " + r.Method + " " + truncate(r.URL.Path)})
		return
	}
	if r.Method == http.MethodPost {
		if err := s.saveLocked(); err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "saving the state file failed: " + err.Error()})
			return
		}
	}
	writeJSON(w, http.StatusOK, instanceFacts{
		ID: in.ID, Status: in.Status, CreationTime: in.CreationTime, PurchaseTime: in.PurchaseTime,
		ProductTypeChanged: in.ProductTypeChanged, Eligible: in.eligible(), LockMode: in.lockMode(),
		LockReason: in.LockReason, IPArrays: copyIPs(in.SecurityIPs),
	})
}
