package simulator

import (
	"net"
	"slices"
	"strconv"
	"strings"
)

// modifyDBInstanceSpec changes class, storage, storage type, 16K atomic write and Buffer Pool
// Extension in one order: one restart for all of them (rules 2, 3, 6, 7, 9).
func (s *Simulator) modifyDBInstanceSpec(c *call) (map[string]any, *apiError) {
	p := c.p
	in, e := s.lookup(p)
	if e != nil {
		return nil, e
	}
	// Q3: strict. At least one of class and storage, and only immediate changes.
	if p.get("DBInstanceClass") == "" && p.get("DBInstanceStorage") == "" {
		return nil, newErr(400, "MissingParameter", "At least one of the parameters \"DBInstanceClass\" and \"DBInstanceStorage\" is required.")
	}
	effective, e := p.oneOf("EffectiveTime", "Immediate", "Immediate", "MaintainTime")
	if e != nil {
		return nil, e
	}
	deferred := isWindowSpec(effective)
	if _, e := p.oneOf("Direction", "Up", "Up", "Down"); e != nil {
		return nil, e
	}
	if _, e := p.oneOf("PayType", "", "Postpaid", "Prepaid", "Serverless"); e != nil {
		return nil, e
	}
	class := in.Class
	if p.get("DBInstanceClass") != "" {
		if class, e = requiredClass(p, in.Engine); e != nil {
			return nil, e
		}
	}
	storageType, e := p.oneOf("DBInstanceStorageType", in.StorageType, storageTypes...)
	if e != nil {
		return nil, e
	}
	storage := in.Storage
	if p.get("DBInstanceStorage") != "" {
		if storage, e = requiredStorage(p, storageType); e != nil {
			return nil, e
		}
		if storage < in.Storage && !shrinkable(in.Engine, in.EngineVersion, storageType) {
			return nil, errInvalid("DBInstanceStorage", "%d GB is less than the current %d GB; storage is reduced only for MySQL 5.7/8.0 on ESSD", storage, in.Storage)
		}
		if in.MasterID != "" {
			if primary, ok := s.state.Instances[in.MasterID]; ok && storage < primary.Storage {
				return nil, errInvalid("DBInstanceStorage", "%d GB is less than the primary's %d GB", storage, primary.Storage)
			}
		}
	}
	if isCloudDisk(in.StorageType) && !isCloudDisk(storageType) {
		return nil, errInvalid("DBInstanceStorageType", "%s cannot change to %s: instances move from local disks to cloud disks, never back", in.StorageType, storageType)
	}
	category, e := editionAfter(in, p, class)
	if e != nil {
		return nil, e
	}
	if (class != in.Class || storageType != in.StorageType || category != in.Category) && !offeredAs(in, category, class, storageType) {
		return nil, newErr(400, "InvalidDBInstanceClass.NotFound", "The instance class %q is not offered for %s %s, category %s, storage type %s.",
			truncate(class), in.Engine, in.EngineVersion, category, storageType)
	}
	io := in.IoAcceleration
	if p.get("IoAccelerationEnabled") != "" {
		if io, e = parseIoAcceleration(p, storageType); e != nil {
			return nil, e
		}
	} else if io && storageType != "general_essd" {
		return nil, errInvalid("IoAccelerationEnabled", "Buffer Pool Extension is on and needs general_essd; send IoAccelerationEnabled=0 to leave general_essd")
	}
	want, set, e := parseOptimizedWrites(p)
	if e != nil {
		return nil, e
	}
	if e := in.writable("ModifyDBInstanceSpec"); e != nil {
		return nil, e
	}

	productTypeChanged := in.ProductTypeChanged || crossesProductType(in, class)
	supportedAfter := eligible(in.Engine, in.EngineVersion, storageType, class, in.PurchaseTime, productTypeChanged)
	switch {
	case !in.isMySQL():
		// Q2(c): OptimizedWrites is MySQL only; "none" is accepted and ignored elsewhere.
		if set && want {
			return nil, errOWNotSupported(notEligibleReason(in.Engine, in.EngineVersion, storageType, productTypeChanged))
		}
		want = false
	case !set:
		// An unchanged flag survives the change unless the instance stops being eligible.
		want = in.Optimized && supportedAfter
	}
	if want && !in.Optimized {
		if !supportedAfter {
			return nil, errOWNotSupported(notEligibleReason(in.Engine, in.EngineVersion, storageType, productTypeChanged))
		}
		if strings.EqualFold(in.Category, "Basic") {
			return nil, newErr(400, "OptimizedWrites.BasicEditionNotSupported", "16K atomic write cannot be turned on for the existing Basic-edition instance %s; Basic edition gets it only at creation.", in.ID)
		}
	}
	if want && !supportedAfter {
		return nil, errOWNotSupported(notEligibleReason(in.Engine, in.EngineVersion, storageType, productTypeChanged))
	}
	if !want && in.Optimized && in.MasterID != "" {
		if primary, ok := s.state.Instances[in.MasterID]; ok && primary.Optimized {
			return nil, newErr(400, "OptimizedWrites.PrimaryEnabled", "16K atomic write cannot be turned off for read-only instance %s while its primary %s has it on.", in.ID, primary.ID)
		}
	}
	// Rule 7 cascade: turning a primary on turns on its eligible read-only instances that
	// have it off; each of them must be able to restart now.
	var followers []*instance
	if want && !in.Optimized && in.MasterID == "" && !deferred {
		for _, id := range s.state.readOnlyIDs(in.ID) {
			ro := s.state.Instances[id]
			if ro.Optimized || !ro.eligible() {
				continue
			}
			if ro.Status != statusRunning {
				return nil, newErr(400, "OperationDenied.ReadDBInstanceStatus", "Read-only instance %s is %s; it must be Running to follow its primary.", ro.ID, ro.Status)
			}
			followers = append(followers, ro)
		}
	}

	resp := map[string]any{"DBInstanceId": in.ID, "OrderId": s.nextOrder()}
	c.dirty = true
	onlineGrowth := class == in.Class && storageType == in.StorageType && want == in.Optimized && io == in.IoAcceleration &&
		category == in.Category && storage > in.Storage && isCloudDisk(storageType)
	// Growing cloud-disk storage takes effect at once whatever EffectiveTime says (the
	// ModifyDBInstanceSpec reference); everything else waits for the window when asked to.
	if deferred && !onlineGrowth {
		s.scheduleSpecChange(in, c.now, specTarget{Class: class, Storage: storage, StorageType: storageType, Optimized: want, IoAcceleration: io,
			KeepsFlag: !set && in.isMySQL(), KeepsStorage: p.get("DBInstanceStorage") == "", Category: category})
		return resp, nil
	}
	// An immediate order supersedes a change waiting for the maintenance window: both carry the
	// whole target, so the latest one is what the instance gets.
	s.cancelPendingTasks(in.ID, taskTypeModifySpec, "superseded by an immediate order")
	// Q9: a request that changes nothing is a no-op without a restart.
	if class == in.Class && storage == in.Storage && storageType == in.StorageType && want == in.Optimized && io == in.IoAcceleration && category == in.Category {
		return resp, nil
	}
	switched := class != in.Class || storageType != in.StorageType || category != in.Category
	in.Class, in.Storage, in.StorageType, in.IoAcceleration, in.ProductTypeChanged = class, storage, storageType, io, productTypeChanged
	in.Category = category
	if onlineGrowth {
		// Growing cloud-disk storage of the same type happens online: no restart (README "Storage").
		return resp, nil
	}
	s.startRestart(in, statusClassChanging, c.now, want)
	s.noteProxyDrop(in, switched, c.now)
	// Followers are busy from now on but restart once their primary is back, so they are Running
	// again one restart duration after it.
	for _, ro := range followers {
		s.startRestart(ro, statusClassChanging, c.now.Add(s.opts.RestartDuration), true)
	}
	return resp, nil
}

// modifyDBInstanceDescription sets DBInstanceDescription.
func (s *Simulator) modifyDBInstanceDescription(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	d, e := c.p.required("DBInstanceDescription")
	if e != nil {
		return nil, e
	}
	if e := validateDescription(d); e != nil {
		return nil, e
	}
	if e := in.writable("ModifyDBInstanceDescription"); e != nil {
		return nil, e
	}
	in.Description = d
	c.dirty = true
	return map[string]any{}, nil
}

// modifySecurityIps replaces (Cover, default), extends (Append) or shrinks (Delete) one IP array.
func (s *Simulator) modifySecurityIps(c *call) (map[string]any, *apiError) {
	p := c.p
	in, e := s.lookup(p)
	if e != nil {
		return nil, e
	}
	raw, e := p.required("SecurityIps")
	if e != nil {
		return nil, e
	}
	ips, e := validateIPList("SecurityIps", raw)
	if e != nil {
		return nil, e
	}
	array := strings.TrimSpace(p.get("DBInstanceIPArrayName"))
	if array == "" {
		array = defaultIPArray
	}
	if len(array) > 64 {
		return nil, errInvalid("DBInstanceIPArrayName", "longer than 64 characters")
	}
	mode, e := p.oneOf("ModifyMode", "Cover", "Cover", "Append", "Delete")
	if e != nil {
		return nil, e
	}
	attribute, e := p.oneOf("DBInstanceIPArrayAttribute", "", "hidden")
	if e != nil {
		return nil, e
	}
	if e := in.writable("ModifySecurityIps"); e != nil {
		return nil, e
	}
	current := splitList(in.SecurityIPs[array])
	switch mode {
	case "Cover":
		current = splitList(ips)
	case "Append":
		for _, ip := range splitList(ips) {
			if !slices.Contains(current, ip) {
				current = append(current, ip)
			}
		}
	case "Delete":
		var kept []string
		for _, ip := range current {
			if !slices.Contains(splitList(ips), ip) {
				kept = append(kept, ip)
			}
		}
		current = kept
	}
	if e := in.ipQuota(array, current, len(s.allowedClients(in))-len(splitList(joinIPs(in.SecurityIPs)))); e != nil {
		return nil, e
	}
	// The default array always exists (it may be empty); another array goes with its last IP.
	if len(current) == 0 && array != defaultIPArray {
		delete(in.SecurityIPs, array)
		delete(in.IPArrayAttributes, array)
	} else {
		in.SecurityIPs[array] = strings.Join(current, ",")
		in.setIPArrayAttribute(array, attribute)
	}
	c.dirty = true
	return map[string]any{"TaskId": itoa(s.nextOrder())}, nil
}

// modifyDBInstanceDeletionProtection sets DeletionProtection.
func (s *Simulator) modifyDBInstanceDeletionProtection(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.required("DeletionProtection"); e != nil {
		return nil, e
	}
	on, e := c.p.boolean("DeletionProtection")
	if e != nil {
		return nil, e
	}
	if e := in.writable("ModifyDBInstanceDeletionProtection"); e != nil {
		return nil, e
	}
	if on && in.PayType == payPrepaid {
		return nil, errPrepaidProtection(in.ID)
	}
	in.DeletionProtection = on
	c.dirty = true
	return map[string]any{}, nil
}

// restartDBInstance: Rebooting for RestartDuration, then Running; counts a restart.
func (s *Simulator) restartDBInstance(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if e := in.writable("RestartDBInstance"); e != nil {
		return nil, e
	}
	s.startRestart(in, statusRebooting, c.now, in.Optimized)
	c.dirty = true
	return map[string]any{}, nil
}

// deleteDBInstance: Deleting for DeleteDuration, then gone, with the primary's read-only
// instances. Refused while deletion protection is on (Q10).
func (s *Simulator) deleteDBInstance(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if _, e := c.p.oneOf("ReleasedKeepPolicy", "None", "None", "Lastest", "All"); e != nil {
		return nil, e
	}
	if e := checkReleasedKeep(in, c.p.get("ReleasedKeepPolicy")); e != nil {
		return nil, e
	}
	if e := in.writable("DeleteDBInstance"); e != nil {
		return nil, e
	}
	if in.PayType == payPrepaid && in.MasterID == "" {
		return nil, errPrepaidDelete(in.ID)
	}
	if in.DeletionProtection {
		return nil, newErr(403, "OperationDenied.DeletionProtection", "Instance %s has deletion protection on; turn it off with ModifyDBInstanceDeletionProtection first.", in.ID)
	}
	// Releasing a primary releases its read-only instances with it, which must be able to go now.
	var readOnly []*instance
	for _, id := range s.state.readOnlyIDs(in.ID) {
		ro := s.state.Instances[id]
		if ro.Status != statusRunning {
			return nil, newErr(400, "OperationDenied.ReadDBInstanceStatus", "Read-only instance %s is %s; it must be Running to be released with its primary %s.", ro.ID, ro.Status, in.ID)
		}
		readOnly = append(readOnly, ro)
	}
	startTransition(in, statusDeleting, c.now, s.opts.DeleteDuration)
	in.ReleaseKeep = c.p.get("ReleasedKeepPolicy")
	for _, ro := range readOnly {
		startTransition(ro, statusDeleting, c.now, s.opts.DeleteDuration)
	}
	c.dirty = true
	return map[string]any{"RegionId": in.RegionID}, nil
}

// validateIPList checks a comma list of IPv4/IPv6 addresses and CIDR blocks (at most 1000) and
// returns it normalised (no spaces, no duplicates).
func validateIPList(name, raw string) (string, *apiError) {
	entries := strings.Split(raw, ",")
	if len(entries) > 1000 {
		return "", errInvalid(name, "%d entries; at most 1000 are allowed", len(entries))
	}
	var out []string
	for _, entry := range entries {
		entry = strings.TrimSpace(entry)
		ok := net.ParseIP(entry) != nil
		if !ok && strings.Contains(entry, "/") {
			_, _, err := net.ParseCIDR(entry)
			ok = err == nil
		}
		if !ok {
			return "", errInvalid(name, "%q is not an IP address or CIDR block", truncate(entry))
		}
		if !slices.Contains(out, entry) {
			out = append(out, entry)
		}
	}
	return strings.Join(out, ","), nil
}

// joinIPs lists every IP array, "default" first, as SecurityIPList does.
func joinIPs(arrays map[string]string) string {
	var out []string
	if v := arrays["default"]; v != "" {
		out = append(out, v)
	}
	for _, name := range sortedKeys(arrays) {
		if name != "default" && arrays[name] != "" {
			out = append(out, arrays[name])
		}
	}
	return strings.Join(out, ",")
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
