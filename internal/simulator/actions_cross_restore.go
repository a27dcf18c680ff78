package simulator

import (
	"strconv"
	"strings"
)

// CreateDdrInstance restores a cross-region copy to a new instance in the copy's region (README
// "Cross-region backups", CR6-CR8): RegionId is the destination, a region the simulator serves,
// and the new instance is created there (DescribeDBInstances lists it in that region only);
// SourceRegion and SourceDBInstanceName name the instance the copy was made from.

func init() {
	actions["CreateDdrInstance"] = (*Simulator).createDdrInstance
	idempotentActions["CreateDdrInstance"] = true
}

// createDdrInstance: RestoreType 0 (a backup set, BackupSetId) only; 1 (a point in time) is
// refused (assumption CR7).
func (s *Simulator) createDdrInstance(c *call) (map[string]any, *apiError) {
	copyOf, e := s.ddrCopy(c)
	if e != nil {
		return nil, e
	}
	engine, version, e := requiredEngineVersion(c.p)
	if e != nil {
		return nil, e
	}
	if version != copyOf.EngineVer {
		return nil, errInvalid("EngineVersion", "%s differs from the backup set's %s", truncate(version), copyOf.EngineVer)
	}
	class, e := requiredClass(c.p, engine)
	if e != nil {
		return nil, e
	}
	storageType, e := c.p.oneOf("DBInstanceStorageType", copyOf.StorageType, storageTypes...)
	if e != nil {
		return nil, e
	}
	storage, e := requiredStorage(c.p, storageType)
	if e != nil {
		return nil, e
	}
	payType, e := requiredPayType(c.p)
	if e != nil {
		return nil, e
	}
	common, e := commonCreateFields(c.p)
	if e != nil {
		return nil, e
	}
	in := &instance{ID: s.newID(engine, false), RegionID: copyOf.Region, Engine: engine, EngineVersion: version, Class: class,
		Storage: storage, StorageType: storageType, Category: firstOf(copyOf.Category, "HighAvailability"), PayType: payType,
		NetType: "Intranet", CreationTime: c.now, PurchaseTime: copyOf.PurchaseTime}
	if in.PurchaseTime.IsZero() {
		in.PurchaseTime = c.now
	}
	in.Optimized = copyOf.Optimized && in.eligible()
	in.ShownOptimized = in.Optimized
	common.apply(in)
	return s.insert(c, in), nil
}

// ddrCopy finds the copy a CreateDdrInstance restores: RestoreType 0, BackupSetId a copy of
// SourceDBInstanceName made from SourceRegion and held in RegionId, not expired.
func (s *Simulator) ddrCopy(c *call) (*crossBackup, *apiError) {
	p := c.p
	if t, e := p.oneOf("RestoreType", "", "0", "1"); e != nil {
		return nil, e
	} else if t != "0" {
		return nil, errInvalid("RestoreType", "the simulator restores a backup set (0) only; RestoreType is required")
	}
	vals := map[string]string{}
	for _, name := range []string{"RegionId", "SourceRegion", "SourceDBInstanceName", "BackupSetId"} {
		v, e := p.required(name)
		if e != nil {
			return nil, e
		}
		vals[name] = strings.TrimSpace(v)
	}
	if _, e := s.requestRegion(p); e != nil {
		return nil, e
	}
	if !s.serves(vals["SourceRegion"]) {
		return nil, newErr(400, "InvalidSourceRegion.NotFound", "The source region %q does not exist; this simulator serves %s.",
			truncate(vals["SourceRegion"]), strings.Join(s.servedRegions(), ", "))
	}
	set, err := strconv.ParseInt(vals["BackupSetId"], 10, 64)
	if err != nil {
		return nil, errInvalid("BackupSetId", "%q is not an integer", truncate(vals["BackupSetId"]))
	}
	if s.expireCrossBackups(c.now) {
		c.dirty = true
	}
	for _, b := range s.state.CrossBackups {
		if b.ID == set && b.InstanceID == vals["SourceDBInstanceName"] && b.Source == vals["SourceRegion"] && b.Region == vals["RegionId"] && !b.expired(c.now) {
			return b, nil
		}
	}
	return nil, newErr(404, "InvalidBackupSetID.NotFound", "No cross-region backup %d of %s is held in %s.", set, truncate(vals["SourceDBInstanceName"]), truncate(vals["RegionId"]))
}

func firstOf(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
