package simulator

import (
	"fmt"
	"strings"
)

// Discovery (README "Zones and class details"): DescribeAvailableZones lists what each zone of the
// region offers, derived from the same catalogue DescribeAvailableClasses answers from, so a zone
// is listed for a combination exactly when it offers a class of it; ListClasses gives each class's
// CPU, memory, connection and IOPS ceilings and architecture.

func init() {
	actions["DescribeAvailableZones"] = (*Simulator).describeAvailableZones
	actions["ListClasses"] = (*Simulator).listClasses
}

// classDetail is one ListClasses row (assumption: representative figures in the shape of
// Alibaba's instance-type tables; README cites them).
type classDetail struct {
	cpu, memoryGB, maxConnections, maxIOPS int
	group                                  string
}

var classDetails = map[string]classDetail{
	"mysql.n2.medium.2c": {2, 4, 2000, 10000, "General"}, "mysql.n2.large.2c": {4, 8, 4000, 20000, "General"},
	"mysql.n4.medium.2c": {2, 8, 6000, 20000, "General"}, "mysql.x2.large.2c": {4, 8, 4000, 25000, "Dedicated"},
	"mysql.x4.medium.2c": {2, 8, 6000, 25000, "Dedicated"}, "mysql.x4.large.2c": {4, 16, 8000, 50000, "Dedicated"},
	"mysql.n2m.medium.2c": {2, 4, 2000, 10000, "General"}, "mysql.n2m.large.2c": {4, 8, 4000, 20000, "General"},
	"mysql.x2m.large.2c": {4, 8, 4000, 25000, "Dedicated"}, "mysql.x4m.medium.2c": {2, 8, 6000, 25000, "Dedicated"},
	"mysql.n2.medium.1": {2, 4, 2000, 10000, "General"}, "mysql.n2.large.1": {4, 8, 4000, 20000, "General"},
	"mysql.n2.medium.xc": {2, 4, 2000, 10000, "General"}, "mysql.n2e.medium.xc": {2, 4, 2000, 10000, "General"},
	"mysql.x2e.large.xc":   {4, 8, 4000, 25000, "Dedicated"},
	"mysqlro.n2.medium.1c": {2, 4, 2000, 10000, "General"}, "mysqlro.n2.large.1c": {4, 8, 4000, 20000, "General"},
	"mysqlro.n2m.small.1c": {1, 2, 1200, 5000, "General"}, "mysqlro.x2m.large.1c": {4, 8, 4000, 25000, "Dedicated"},
	"pg.n2.medium.2c": {2, 4, 400, 10000, "General"}, "pg.n2.large.2c": {4, 8, 800, 20000, "General"},
}

// listClasses: ListClasses (CommodityCode and OrderType required) lists every class of the
// catalogue, optionally of one engine (EngineType); InstructionSetArch is arm or empty (x86), and
// MaxIOMBPS the class's throughput cap, the one DescribeDBInstanceAttribute bounds MaxIOMBPS by.
func (s *Simulator) listClasses(c *call) (map[string]any, *apiError) {
	region, e := s.requestRegion(c.p)
	if e != nil {
		return nil, e
	}
	for _, name := range []string{"CommodityCode", "OrderType"} {
		if _, e := c.p.required(name); e != nil {
			return nil, e
		}
	}
	prefix := ""
	if engine := c.p.get("EngineType"); engine != "" {
		canonical := canonicalEngine(engine)
		if canonical == "" {
			return nil, errInvalid("EngineType", "%q is not one of MySQL, PostgreSQL, SQLServer, MariaDB", truncate(engine))
		}
		prefix = classPrefixes[canonical][0]
	}
	items := []map[string]any{}
	for _, class := range sortedKeys(classDetails) {
		if prefix != "" && !strings.HasPrefix(class, prefix) {
			continue
		}
		d := classDetails[class]
		arch := ""
		if architecture(class) == "arm" {
			arch = "arm"
		}
		items = append(items, map[string]any{"ClassCode": class, "ClassGroup": d.group, "Cpu": fmt.Sprint(d.cpu),
			"MemoryClass": fmt.Sprintf("%dGB", d.memoryGB), "MaxConnections": fmt.Sprint(d.maxConnections),
			"MaxIOPS": fmt.Sprint(d.maxIOPS), "MaxIOMBPS": fmt.Sprint(specOf(class).classIOMBPS), "InstructionSetArch": arch,
			"ReferencePrice": "0"})
	}
	return map[string]any{"RegionId": region, "Items": items}, nil
}

// describeAvailableZones: DescribeAvailableZones (Engine required) lists each zone, and each pair
// of zones as a multi-zone entry <region>-MAZ<n>(a,b) for the editions that have a secondary node,
// with the versions, editions and storage types whose catalogue has a class there.
func (s *Simulator) describeAvailableZones(c *call) (map[string]any, *apiError) {
	region, e := s.requestRegion(c.p)
	if e != nil {
		return nil, e
	}
	engineRaw, e := c.p.required("Engine")
	if e != nil {
		return nil, e
	}
	engine := canonicalEngine(engineRaw)
	if engine == "" {
		return nil, errInvalid("Engine", "%q is not one of MySQL, PostgreSQL, SQLServer, MariaDB", truncate(engineRaw))
	}
	versions := engineVersions[engine]
	if v := c.p.get("EngineVersion"); v != "" {
		if !validVersion(engine, v) {
			return nil, errInvalid("EngineVersion", "%q is not a %s version", truncate(v), engine)
		}
		versions = []string{v}
	}
	zones := []map[string]any{}
	for _, z := range simZones {
		if offer := s.zoneOffer(engine, versions, c.p.get("Category"), false, z); offer != nil {
			zones = append(zones, map[string]any{"RegionId": region, "ZoneId": region + "-" + z.suffix, "SupportedEngines": offer})
		}
	}
	n := 0
	for i, a := range simZones {
		for _, b := range simZones[i+1:] {
			n++
			if offer := s.zoneOffer(engine, versions, c.p.get("Category"), true, a, b); offer != nil {
				id := fmt.Sprintf("%s-MAZ%d(%s,%s)", region, n, a.suffix, b.suffix)
				zones = append(zones, map[string]any{"RegionId": region, "ZoneId": id, "SupportedEngines": offer})
			}
		}
	}
	return map[string]any{"AvailableZones": zones}, nil
}

// zoneOffer is the SupportedEngines of a zone (or, multi, of zones together: what all of them
// offer, for the editions with a secondary node); nil when it offers nothing.
func (s *Simulator) zoneOffer(engine string, versions []string, category string, multi bool, zones ...simZone) []map[string]any {
	var versionItems []map[string]any
	for _, v := range versions {
		var categoryItems []map[string]any
		for _, cat := range categories {
			if (category != "" && !strings.EqualFold(category, cat)) || (multi && strings.EqualFold(cat, "Basic")) {
				continue
			}
			var storageItems []map[string]any
			for _, st := range storageTypes {
				if zonesOffer(zones, availableClasses(engine, cat, st, "")) {
					storageItems = append(storageItems, map[string]any{"StorageType": st})
				}
			}
			if storageItems != nil {
				categoryItems = append(categoryItems, map[string]any{"Category": cat, "SupportedStorageTypes": storageItems})
			}
		}
		if categoryItems != nil {
			versionItems = append(versionItems, map[string]any{"Version": v, "SupportedCategorys": categoryItems})
		}
	}
	if versionItems == nil {
		return nil
	}
	return []map[string]any{{"Engine": engine, "SupportedEngineVersions": versionItems}}
}

// zonesOffer: every zone offers at least one of the classes.
func zonesOffer(zones []simZone, classes []string) bool {
	for _, z := range zones {
		offered := false
		for _, class := range classes {
			offered = offered || z.offersClass(class)
		}
		if !offered {
			return false
		}
	}
	return true
}
