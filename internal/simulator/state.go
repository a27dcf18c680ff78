package simulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// errBadState prefixes every state-file error.
var errBadState = errors.New("simulator: state file")

// stateVersion guards against loading a file written by an incompatible simulator.
const stateVersion = 1

// state is everything the simulated cloud remembers; it is what the state file holds.
type state struct {
	Version   int                    `json:"version"`
	Seeded    bool                   `json:"seeded"`
	NextOrder int64                  `json:"next_order"`
	Instances map[string]*instance   `json:"instances"`
	Tokens    map[string]tokenRecord `json:"client_tokens"`
	// Tasks are spec changes deferred to maintenance windows, kept as the task centre keeps them.
	Tasks    []*task `json:"tasks,omitempty"`
	NextTask int64   `json:"next_task,omitempty"`
	// NextBackup numbers backup jobs and sets (actions_backup_sets.go).
	NextBackup int64 `json:"next_backup,omitempty"`
	// Detached are the backup sets released instances kept (actions_detached_backups.go).
	Detached []detachedBackup `json:"detached_backups,omitempty"`
	// ParamGroups are the parameter groups by id (actions_parameter_groups.go).
	ParamGroups map[string]*paramGroup `json:"param_groups,omitempty"`
	// CrossBackups are the copies of backup sets in other regions (actions_cross_region.go).
	CrossBackups []*crossBackup `json:"cross_backups,omitempty"`
	NextCross    int64          `json:"next_cross,omitempty"`
	// Templates are the whitelist templates by id (whitelist_templates.go).
	Templates    map[int64]*whitelistTemplate `json:"whitelist_templates,omitempty"`
	NextTemplate int64                        `json:"next_whitelist_template,omitempty"`
}

// instance is one simulated DB instance. Times are absolute, so transitions survive a restart of
// the simulator.
type instance struct {
	ID                 string            `json:"id"`
	RegionID           string            `json:"region_id"`
	ZoneID             string            `json:"zone_id"`
	Engine             string            `json:"engine"`
	EngineVersion      string            `json:"engine_version"`
	Class              string            `json:"class"`
	Storage            int64             `json:"storage"`
	StorageType        string            `json:"storage_type"`
	Category           string            `json:"category"`
	PayType            string            `json:"pay_type"`
	Description        string            `json:"description"`
	NetType            string            `json:"net_type"`
	NetworkType        string            `json:"network_type"`
	VpcID              string            `json:"vpc_id"`
	VSwitchID          string            `json:"vswitch_id"`
	Port               string            `json:"port"`
	SecurityIPs        map[string]string `json:"security_ips"` // IP array name -> comma list
	CreationTime       time.Time         `json:"creation_time"`
	PurchaseTime       time.Time         `json:"purchase_time"` // product-line date for rule 2
	ProductTypeChanged bool              `json:"product_type_changed"`
	// Optimized is the flag's true value, used by the rules; Describe shows ShownOptimized
	// until FlagVisibleAt (the lag after a toggle), then Optimized.
	Optimized          bool              `json:"optimized"`
	ShownOptimized     bool              `json:"shown_optimized"`
	FlagVisibleAt      time.Time         `json:"flag_visible_at"`
	IoAcceleration     bool              `json:"io_acceleration"` // Buffer Pool Extension
	DeletionProtection bool              `json:"deletion_protection"`
	MasterID           string            `json:"master_id,omitempty"` // set on read-only instances
	Tags               map[string]string `json:"tags,omitempty"`
	ResourceGroupID    string            `json:"resource_group_id,omitempty"` // "": the default group
	Status             string            `json:"status"`
	StatusUntil        time.Time         `json:"status_until"` // end of a transitional status
	MaintainTime       string            `json:"maintain_time"`

	// LockMode and LockReason as DescribeDBInstanceAttribute reports them; "" is Unlock.
	LockMode   string `json:"lock_mode,omitempty"`
	LockReason string `json:"lock_reason,omitempty"`
	// LockedStorage is the storage a disk-quota lock began on; UnlockAt when the lock lifts once
	// the instance runs on more (unusual_states.go).
	LockedStorage int64     `json:"locked_storage,omitempty"`
	UnlockAt      time.Time `json:"unlock_at,omitempty"`
	// IPArrayAttributes holds DBInstanceIPArrayAttribute per IP array ("hidden" for the arrays
	// other Alibaba services keep out of the console); absent means "".
	IPArrayAttributes map[string]string `json:"ip_array_attributes,omitempty"`
	// SecurityGroups are the ECS security groups the instance is added to (security_groups.go).
	SecurityGroups []string `json:"security_groups,omitempty"`
	// Accounts and Databases (actions_accounts.go) go with the instance when it is deleted.
	Accounts  map[string]*account  `json:"accounts,omitempty"`
	Databases map[string]*database `json:"databases,omitempty"`
	// ParamRunning and ParamConfig are what ModifyParameter set: values in effect, and values
	// waiting for a restart (actions_parameters.go).
	ParamRunning map[string]string `json:"param_running,omitempty"`
	ParamConfig  map[string]string `json:"param_config,omitempty"`
	// ParamGroupID is the parameter group last applied with ModifyParameter's ParameterGroupId, and
	// when (actions_parameter_groups.go).
	ParamGroupID      string    `json:"param_group_id,omitempty"`
	ParamGroupApplied time.Time `json:"param_group_applied,omitempty"`
	// BackupPolicy (nil: the defaults) and Backups are in actions_backups.go.
	BackupPolicy *backupPolicy `json:"backup_policy,omitempty"`
	Backups      []*backupSet  `json:"backups,omitempty"`
	// CrossBackup is its cross-region backup policy (nil: off; actions_cross_region.go).
	CrossBackup *crossPolicy `json:"cross_backup,omitempty"`
	// ReleaseKeep is the ReleasedKeepPolicy its release was asked with ("": its backup policy's).
	ReleaseKeep string `json:"release_keep,omitempty"`
	// HA is the primary and secondary node (actions_ha.go); nil until first described.
	HA *haNodes `json:"ha,omitempty"`
	// HASwitch is the automatic switchover configuration (actions_ha_switch.go); nil: Auto.
	HASwitch *haSwitch `json:"ha_switch,omitempty"`
	// MonitorPeriod is the monitoring period in seconds set with ModifyDBInstanceMonitor; 0: the default (actions_monitor.go).
	MonitorPeriod int64 `json:"monitor_period,omitempty"`
	// Security is SSL and TDE (actions_security.go); nil: both off.
	Security *security `json:"security,omitempty"`
	// Minor is the minor version (actions_minor_version.go); nil: the latest, upgraded automatically.
	Minor *minorVersion `json:"minor,omitempty"`
	// SlaveZones are the secondary zones (actions_zone.go).
	SlaveZones []string `json:"slave_zones,omitempty"`
	// AutoScale and DiskUsedGB: storage autoscaling (actions_storage_autoscale.go).
	AutoScale  *storageAutoScale `json:"auto_scale,omitempty"`
	SQLAudit   *sqlAudit         `json:"sql_audit,omitempty"`
	DiskUsedGB int64             `json:"disk_used_gb,omitempty"`
	// Subscription is a Prepaid instance's billing (actions_billing.go); nil for pay-as-you-go.
	Subscription *subscription `json:"subscription,omitempty"`
	// Proxy is a primary's database proxy (actions_proxy.go); nil: never started.
	Proxy *dbProxy `json:"proxy,omitempty"`
	// ReplicationDelay is a read-only instance's simulated delay in seconds (SetReplicationDelay).
	ReplicationDelay int64 `json:"replication_delay,omitempty"`

	// InternalPrefix is the internal endpoint's prefix when changed ("": the id) and Public the public endpoint
	// (actions_netinfo.go).
	InternalPrefix string          `json:"internal_prefix,omitempty"`
	Public         *publicEndpoint `json:"public,omitempty"`
	// ReadWriteSplitting is the old read/write-splitting feature's endpoint (rw_splitting.go); nil: none.
	ReadWriteSplitting *publicEndpoint `json:"read_write_splitting,omitempty"`
}

// tokenRecord remembers the result of an idempotent request.
type tokenRecord struct {
	Fingerprint string          `json:"fingerprint"`
	Response    json.RawMessage `json:"response"`
}

func newState() *state {
	return &state{Version: stateVersion, Instances: map[string]*instance{}, Tokens: map[string]tokenRecord{}}
}

// loadState reads path; a missing file (or no path) gives an empty state, a corrupt one an error.
func loadState(path string) (*state, error) {
	if path == "" {
		return newState(), nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return newState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", errBadState, path, err)
	}
	st := newState()
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("%w %s is corrupt (not the simulator's JSON): %v; move it away or fix it", errBadState, path, err)
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("%w %s has version %d, this simulator writes version %d", errBadState, path, st.Version, stateVersion)
	}
	if st.Instances == nil {
		st.Instances = map[string]*instance{}
	}
	if st.Tokens == nil {
		st.Tokens = map[string]tokenRecord{}
	}
	for id, in := range st.Instances {
		if in == nil || in.ID != id {
			return nil, fmt.Errorf("%w %s is corrupt: instance entry %q does not match its id", errBadState, path, id)
		}
		if in.SecurityIPs == nil {
			in.SecurityIPs = map[string]string{}
		}
	}
	return st, nil
}

func (s *Simulator) save() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saveLocked()
}

// saveLocked writes the state atomically: a temporary file in the same directory, fsync,
// rename over the old file, fsync of the directory. A crash leaves the old or the new file,
// never a torn one.
func (s *Simulator) saveLocked() error {
	path := s.opts.StatePath
	if path == "" {
		return nil
	}
	data, err := json.MarshalIndent(s.state, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data)
}

func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// sortedInstances lists instances in creation order (then id), the order DescribeDBInstances pages in.
func (st *state) sortedInstances() []*instance {
	out := make([]*instance, 0, len(st.Instances))
	for _, in := range st.Instances {
		out = append(out, in)
	}
	sortByCreation(out)
	return out
}

// sortByCreation orders instances by creation time, then id: the order the API lists them in.
func sortByCreation(out []*instance) {
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreationTime.Equal(out[j].CreationTime) {
			return out[i].CreationTime.Before(out[j].CreationTime)
		}
		return out[i].ID < out[j].ID
	})
}

// readOnlyIDs lists a primary's read-only instances in creation order. Every
// DescribeDBInstanceAttribute asks, so it picks the few and sorts only those.
func (st *state) readOnlyIDs(primaryID string) []string {
	var followers []*instance
	for _, in := range st.Instances {
		if in.MasterID == primaryID {
			followers = append(followers, in)
		}
	}
	sortByCreation(followers)
	ids := make([]string, 0, len(followers))
	for _, in := range followers {
		ids = append(ids, in.ID)
	}
	return ids
}
