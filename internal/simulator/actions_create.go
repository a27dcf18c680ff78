package simulator

import (
	"crypto/rand"
	"slices"
	"strings"
	"time"
	"unicode"
)

// requiredEngineVersion reads Engine (any case, answered in the API's spelling) and an
// EngineVersion that engine offers.
func requiredEngineVersion(p params) (engine, version string, e *apiError) {
	engineRaw, e := p.required("Engine")
	if e != nil {
		return "", "", e
	}
	engine = canonicalEngine(engineRaw)
	if engine == "" {
		return "", "", errInvalid("Engine", "%q is not one of MySQL, PostgreSQL, SQLServer, MariaDB", truncate(engineRaw))
	}
	version, e = p.required("EngineVersion")
	if e != nil {
		return "", "", e
	}
	if !validVersion(engine, version) {
		return "", "", errInvalid("EngineVersion", "%q is not a %s version", truncate(version), engine)
	}
	return engine, version, nil
}

// createDBInstance: CreateDBInstance (rules 1-4 at creation).
func (s *Simulator) createDBInstance(c *call) (map[string]any, *apiError) {
	p := c.p
	region, e := s.requestRegion(p)
	if e != nil {
		return nil, e
	}
	engine, version, e := requiredEngineVersion(p)
	if e != nil {
		return nil, e
	}
	class, e := requiredClass(p, engine)
	if e != nil {
		return nil, e
	}
	storageType, e := p.oneOf("DBInstanceStorageType", "cloud_essd", storageTypes...)
	if e != nil {
		return nil, e
	}
	storage, e := requiredStorage(p, storageType)
	if e != nil {
		return nil, e
	}
	if _, e := p.required("DBInstanceNetType"); e != nil {
		return nil, e
	}
	netType, e := p.oneOf("DBInstanceNetType", "Intranet", "Intranet", "Internet")
	if e != nil {
		return nil, e
	}
	ipsRaw, e := p.required("SecurityIPList")
	if e != nil {
		return nil, e
	}
	ips, e := validateIPList("SecurityIPList", ipsRaw)
	if e != nil {
		return nil, e
	}
	payType, e := requiredPayType(p)
	if e != nil {
		return nil, e
	}
	category, e := p.oneOf("Category", "HighAvailability", categories...)
	if e != nil {
		return nil, e
	}
	common, e := commonCreateFields(p)
	if e != nil {
		return nil, e
	}
	if amount, set, e := p.integer("Amount"); e != nil {
		return nil, e
	} else if set && amount != 1 {
		return nil, errInvalid("Amount", "the simulator creates one instance per request")
	}
	io, e := parseIoAcceleration(p, storageType)
	if e != nil {
		return nil, e
	}
	want, set, e := parseOptimizedWrites(p)
	if e != nil {
		return nil, e
	}
	supported := eligible(engine, version, storageType, class, c.now, false)
	if want && !supported {
		return nil, errOWNotSupported(notEligibleReason(engine, version, storageType, false))
	}
	if !set {
		// Q4: an eligible instance created without a choice gets it on (rule 4).
		want = supported
	}
	tags, e := parseTags(p)
	if e != nil {
		return nil, e
	}
	rg, e := optionalResourceGroup(p)
	if e != nil {
		return nil, e
	}
	minor, e := parseTargetMinor(p, version, c.now)
	if e != nil {
		return nil, e
	}
	sub, e := parseSubscription(p, payType, c.now)
	if e != nil {
		return nil, e
	}
	group, e := s.createParamGroup(p, version)
	if e != nil {
		return nil, e
	}
	if sub != nil && common.deletionProtection {
		return nil, errPrepaidProtection("the new instance")
	}
	if dry, e := p.boolean("DryRun"); e != nil {
		return nil, e
	} else if dry {
		return map[string]any{"DryRun": true, "DryRunResult": true}, nil
	}
	in := &instance{
		Tags: tags, ID: s.newID(engine, false), RegionID: region, Engine: engine, EngineVersion: version,
		Class: class, Storage: storage, StorageType: storageType, Category: category, PayType: payType,
		NetType: netType, SecurityIPs: map[string]string{"default": ips},
		CreationTime: c.now, PurchaseTime: c.now, Optimized: want, ShownOptimized: want, IoAcceleration: io,
		ResourceGroupID: rg, Minor: minor, Subscription: sub,
	}
	group.applyAtCreate(in, c.now)
	common.apply(in)
	return s.insert(c, in), nil
}

// createReadOnlyDBInstance: CreateReadOnlyDBInstance. The read-only instance inherits the
// primary's flag (rule 7); its eligibility follows its own class and storage.
func (s *Simulator) createReadOnlyDBInstance(c *call) (map[string]any, *apiError) {
	p := c.p
	if e := s.checkRegion(p); e != nil {
		return nil, e
	}
	primary, e := s.lookup(p)
	if e != nil {
		return nil, e
	}
	if primary.MasterID != "" {
		return nil, errInvalid("DBInstanceId", "%s is itself a read-only instance", primary.ID)
	}
	if primary.Status != statusRunning {
		return nil, newErr(400, "OperationDenied.MasterDBInstanceState", "The primary instance %s is %s, not Running.", primary.ID, primary.Status)
	}
	if e := primary.writable("CreateReadOnlyDBInstance"); e != nil {
		return nil, e
	}
	// One read-only create at a time per primary: users of the real API see LockTimeout (HTTP
	// 403) from concurrent CreateReadOnlyDBInstance calls.
	for _, id := range s.state.readOnlyIDs(primary.ID) {
		if ro := s.state.Instances[id]; ro.Status == statusCreating {
			return nil, newErr(403, "LockTimeout", "The primary instance %s is locked while read-only instance %s is created; try again later.", primary.ID, ro.ID)
		}
	}
	version, e := p.required("EngineVersion")
	if e != nil {
		return nil, e
	}
	if version != primary.EngineVersion {
		return nil, errInvalid("EngineVersion", "%q differs from the primary's %s", truncate(version), primary.EngineVersion)
	}
	class, e := requiredClass(p, primary.Engine)
	if e != nil {
		return nil, e
	}
	storageType, e := p.oneOf("DBInstanceStorageType", primary.StorageType, storageTypes...)
	if e != nil {
		return nil, e
	}
	storage, e := requiredStorage(p, storageType)
	if e != nil {
		return nil, e
	}
	if storage < primary.Storage {
		return nil, errInvalid("DBInstanceStorage", "%d GB is less than the primary's %d GB", storage, primary.Storage)
	}
	payType, e := requiredPayType(p)
	if e != nil {
		return nil, e
	}
	category, e := p.oneOf("Category", "HighAvailability", categories...)
	if e != nil {
		return nil, e
	}
	common, e := commonCreateFields(p)
	if e != nil {
		return nil, e
	}
	in := &instance{
		ID: s.newID(primary.Engine, true), RegionID: primary.RegionID, ZoneID: primary.ZoneID,
		Engine: primary.Engine, EngineVersion: version, Class: class, Storage: storage, StorageType: storageType,
		Category: category, PayType: payType, NetType: primary.NetType, NetworkType: primary.NetworkType,
		VpcID: primary.VpcID, VSwitchID: primary.VSwitchID, SecurityIPs: map[string]string{"default": "127.0.0.1"},
		CreationTime: c.now, PurchaseTime: c.now, MasterID: primary.ID,
	}
	// A read-only instance that is not eligible itself cannot carry the flag (Q6: never
	// optimized without init_optimized_writes).
	in.Optimized = primary.Optimized && in.eligible()
	in.ShownOptimized = in.Optimized
	common.apply(in)
	return s.insert(c, in), nil
}

// cloneDBInstance: CloneDBInstance from a backup or a point in time; the clone inherits the
// source's flag and product line (rule 8).
func (s *Simulator) cloneDBInstance(c *call) (map[string]any, *apiError) {
	p := c.p
	if p.has("RegionId") {
		if e := s.checkRegion(p); e != nil {
			return nil, e
		}
	}
	src, e := s.lookup(p)
	if e != nil {
		return nil, e
	}
	if src.Status == statusCreating || src.Status == statusDeleting {
		return nil, errBusy(src.ID, src.Status)
	}
	backupID, restoreTime := strings.TrimSpace(p.get("BackupId")), strings.TrimSpace(p.get("RestoreTime"))
	switch {
	case backupID == "" && restoreTime == "":
		return nil, newErr(400, "MissingParameter", "One of the parameters \"BackupId\" and \"RestoreTime\" is required.")
	case backupID != "" && restoreTime != "":
		return nil, errInvalid("RestoreTime", "give BackupId or RestoreTime, not both")
	case backupID != "":
		if e := s.checkCloneBackup(src, backupID, c.now); e != nil {
			return nil, e
		}
	case restoreTime != "":
		t, e := parseTimestamp("RestoreTime", restoreTime)
		if e != nil {
			return nil, e
		}
		if t.Before(src.CreationTime.Truncate(time.Second)) || t.After(c.now) {
			return nil, errInvalid("RestoreTime", "%s is outside the source's lifetime (%s to now)", restoreTime, src.CreationTime.Format(timestampLayout))
		}
	}
	payType, e := requiredPayType(p)
	if e != nil {
		return nil, e
	}
	class := src.Class
	if p.get("DBInstanceClass") != "" {
		if class, e = requiredClass(p, src.Engine); e != nil {
			return nil, e
		}
	}
	storageType, e := p.oneOf("DBInstanceStorageType", src.StorageType, storageTypes...)
	if e != nil {
		return nil, e
	}
	storage := src.Storage
	if p.get("DBInstanceStorage") != "" {
		if storage, e = requiredStorage(p, storageType); e != nil {
			return nil, e
		}
	} else if !validStorage(storage, storageType) {
		return nil, errStorage("DBInstanceStorage", storage, storageType)
	}
	category, e := p.oneOf("Category", src.Category, categories...)
	if e != nil {
		return nil, e
	}
	common, e := commonCreateFields(p)
	if e != nil {
		return nil, e
	}
	in := &instance{
		ID: s.newID(src.Engine, false), RegionID: src.RegionID, ZoneID: src.ZoneID, Engine: src.Engine,
		EngineVersion: src.EngineVersion, Class: class, Storage: storage, StorageType: storageType,
		Category: category, PayType: payType, NetType: src.NetType, NetworkType: src.NetworkType,
		VpcID: src.VpcID, VSwitchID: src.VSwitchID, SecurityIPs: copyIPs(src.SecurityIPs),
		CreationTime: c.now, PurchaseTime: src.PurchaseTime,
		ProductTypeChanged: src.ProductTypeChanged || crossesProductType(src, class),
	}
	in.Optimized = src.Optimized && in.eligible()
	in.ShownOptimized = in.Optimized
	common.apply(in)
	return s.insert(c, in), nil
}

// createFields are the optional placement and settings parameters shared by the create actions.
type createFields struct {
	zone, networkType, vpc, vswitch, description, port string
	slaveZones                                         []string
	deletionProtection                                 bool
}

func commonCreateFields(p params) (createFields, *apiError) {
	var f createFields
	f.zone = strings.TrimSpace(p.get("ZoneId"))
	f.slaveZones = createSlaveZones(p)
	var e *apiError
	if f.networkType, e = p.oneOf("InstanceNetworkType", "", "VPC", "Classic"); e != nil {
		return f, e
	}
	f.vpc, f.vswitch = strings.TrimSpace(p.get("VPCId")), strings.TrimSpace(p.get("VSwitchId"))
	if f.networkType == "" && f.vpc != "" {
		f.networkType = "VPC"
	}
	if d := p.get("DBInstanceDescription"); d != "" {
		if e := validateDescription(d); e != nil {
			return f, e
		}
		f.description = d
	}
	if port, set, e := p.integer("Port"); e != nil {
		return f, e
	} else if set {
		if port < 1000 || port > 65534 {
			return f, errInvalid("Port", "%d is outside 1000-65534", port)
		}
		f.port = itoa(port)
	}
	if f.deletionProtection, e = p.boolean("DeletionProtection"); e != nil {
		return f, e
	}
	return f, nil
}

func (f createFields) apply(in *instance) {
	if f.zone != "" {
		in.ZoneID = f.zone
	}
	if in.ZoneID == "" {
		in.ZoneID = in.RegionID + "-i"
	}
	if !strings.EqualFold(in.Category, "Basic") {
		in.SlaveZones = f.slaveZones
	}
	if f.networkType != "" {
		in.NetworkType, in.VpcID, in.VSwitchID = f.networkType, f.vpc, f.vswitch
	}
	if in.NetworkType == "" {
		in.NetworkType = "Classic"
	}
	in.Description = f.description
	in.DeletionProtection = f.deletionProtection
	in.Port = f.port
	if in.Port == "" {
		in.Port = defaultPort(in.Engine)
	}
	in.MaintainTime = "18:00Z-22:00Z"
}

// insert adds a new instance in Creating and returns the create response.
func (s *Simulator) insert(c *call, in *instance) map[string]any {
	startTransition(in, statusCreating, c.now, s.opts.CreateDuration)
	s.state.Instances[in.ID] = in
	c.dirty = true
	return map[string]any{
		"DBInstanceId":     in.ID,
		"OrderId":          itoa(s.nextOrder()), // a string here, an integer in ModifyDBInstanceSpec, as the SDK models say
		"ConnectionString": s.connectionString(in, c.now),
		"Port":             s.connectionPort(in, c.now),
	}
}

func (s *Simulator) nextOrder() int64 {
	s.state.NextOrder++
	return 100000000000 + s.state.NextOrder
}

func (s *Simulator) checkRegion(p params) *apiError {
	_, e := s.requestRegion(p)
	return e
}

// requestRegion is the request's RegionId, one of the regions the simulator serves: its own
// (Options.Region) and the destinations its cross-region backups copy to (README "Regions").
func (s *Simulator) requestRegion(p params) (string, *apiError) {
	region, e := p.required("RegionId")
	if e != nil {
		return "", e
	}
	if !s.serves(region) {
		return "", newErr(400, "InvalidRegionId.NotFound", "The specified region %q does not exist; this simulator serves %s.",
			truncate(region), strings.Join(s.servedRegions(), ", "))
	}
	return region, nil
}

// servedRegions are the simulator's own region and the regions it copies backups to.
func (s *Simulator) servedRegions() []string {
	return append([]string{s.opts.Region}, crossRegionsFrom(s.opts.Region)...)
}

func (s *Simulator) serves(region string) bool { return slices.Contains(s.servedRegions(), region) }

// lookup finds the instance named by DBInstanceId.
func (s *Simulator) lookup(p params) (*instance, *apiError) {
	id, e := p.required("DBInstanceId")
	if e != nil {
		return nil, e
	}
	in, ok := s.state.Instances[id]
	if !ok {
		return nil, errNotFound(id)
	}
	return in, nil
}

func requiredClass(p params, engine string) (string, *apiError) {
	class, e := p.required("DBInstanceClass")
	if e != nil {
		return "", e
	}
	if !validClass(engine, class) {
		return "", newErr(400, "InvalidDBInstanceClass.NotFound", "The specified instance class %q does not exist for %s.", truncate(class), engine)
	}
	return class, nil
}

func requiredStorage(p params, storageType string) (int64, *apiError) {
	if _, e := p.required("DBInstanceStorage"); e != nil {
		return 0, e
	}
	storage, _, e := p.integer("DBInstanceStorage")
	if e != nil {
		return 0, e
	}
	if !validStorage(storage, storageType) {
		return 0, errStorage("DBInstanceStorage", storage, storageType)
	}
	return storage, nil
}

func requiredPayType(p params) (string, *apiError) {
	if _, e := p.required("PayType"); e != nil {
		return "", e
	}
	return p.oneOf("PayType", "", "Postpaid", "Prepaid", "Serverless")
}

// parseIoAcceleration reads IoAccelerationEnabled ("1"/"0"); it needs general_essd.
func parseIoAcceleration(p params, storageType string) (bool, *apiError) {
	switch v := strings.TrimSpace(p.get("IoAccelerationEnabled")); v {
	case "", "0":
		return false, nil
	case "1":
		if storageType != "general_essd" {
			return false, errInvalid("IoAccelerationEnabled", "Buffer Pool Extension needs storage type general_essd, not %s", storageType)
		}
		return true, nil
	default:
		return false, errInvalid("IoAccelerationEnabled", "%q is not 1 or 0", truncate(v))
	}
}

// validateDescription: 2-255 characters, starting with a letter, not a URL.
func validateDescription(d string) *apiError {
	n := len([]rune(d))
	first := []rune(d)[0]
	if n < 2 || n > 255 || !unicode.IsLetter(first) || strings.HasPrefix(d, "http://") || strings.HasPrefix(d, "https://") {
		return errInvalid("DBInstanceDescription", "it must be 2-255 characters, start with a letter and not start with http:// or https://")
	}
	return nil
}

const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// newID makes an id with the engine's prefix: rm- (MySQL primary), rr- (MySQL read-only),
// pgm-/pgr- (PostgreSQL), rds- otherwise.
func (s *Simulator) newID(engine string, readOnly bool) string {
	prefix := map[string][2]string{"MySQL": {"rm-", "rr-"}, "PostgreSQL": {"pgm-", "pgr-"}}[engine]
	if prefix[0] == "" {
		prefix = [2]string{"rds-", "rds-"}
	}
	for {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
		}
		id := prefix[0]
		if readOnly {
			id = prefix[1]
		}
		id += string(b)
		if _, taken := s.state.Instances[id]; !taken {
			return id
		}
	}
}

func defaultPort(engine string) string {
	switch engine {
	case "PostgreSQL":
		return "5432"
	case "SQLServer":
		return "1433"
	}
	return "3306"
}

func connectionString(in *instance) string { return dnsName(in, in.internalPrefix()) }

func copyIPs(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
