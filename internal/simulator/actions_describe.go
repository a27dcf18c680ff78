package simulator

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// readOnlyList is the nested {"ReadOnlyDBInstanceId":[{"DBInstanceId":…}]} form.
func readOnlyList(ids []string) map[string]any {
	items := make([]map[string]string, 0, len(ids))
	for _, id := range ids {
		items = append(items, map[string]string{"DBInstanceId": id})
	}
	return map[string]any{"ReadOnlyDBInstanceId": items}
}

func dbInstanceType(in *instance) string {
	if in.MasterID != "" {
		return "Readonly"
	}
	return "Primary"
}

// attribute is one DescribeDBInstanceAttribute item, with the SDK's field names and types.
func (s *Simulator) attribute(in *instance, now time.Time) map[string]any {
	spec := specOf(in.Class)
	item := map[string]any{
		"DBInstanceId":          in.ID,
		"DBInstanceDescription": in.Description,
		"RegionId":              in.RegionID,
		"ZoneId":                in.ZoneID,
		"Engine":                in.Engine,
		"EngineVersion":         in.EngineVersion,
		"DBInstanceClass":       in.Class,
		"DBInstanceCPU":         itoa(spec.cores),
		"DBInstanceMemory":      spec.memoryMB,
		"DBInstanceStorage":     in.Storage,
		"DBInstanceStorageType": in.StorageType,
		"DBInstanceStatus":      in.Status,
		"DBInstanceType":        dbInstanceType(in),
		"DBInstanceNetType":     in.NetType,
		"Category":              in.Category,
		"PayType":               in.PayType,
		"LockMode":              in.lockMode(),
		"LockReason":            in.LockReason,
		"CreationTime":          in.CreationTime.Format(timestampLayout),
		"ExpireTime":            expireTime(in),
		"ReadOnlyDBInstanceIds": readOnlyList(s.state.readOnlyIDs(in.ID)),
		"InstanceNetworkType":   in.NetworkType,
		"VpcId":                 in.VpcID,
		"VSwitchId":             in.VSwitchID,
		"ConnectionString":      s.connectionString(in, now),
		"Port":                  s.connectionPort(in, now),
		"SecurityIPList":        dedupeIPs(joinIPs(in.SecurityIPs)),
		"InstructionSetArch":    architecture(in.Class),
		"MaintainTime":          in.MaintainTime,
		"DeletionProtection":    in.DeletionProtection,
		"IoAccelerationEnabled": ioAcceleration(in),
		// Filled as the cloud fills them for an ordinary instance (README: DescribeDBInstanceAttribute fields).
		"DBInstanceClassType":         classType(in.Class),
		"ConnectionMode":              "Standard",
		"MaxConnections":              spec.maxConnections,
		"MaxIOPS":                     maxIOPS(in),
		"MaxIOMBPS":                   maxIOMBPS(in),
		"AccountMaxQuantity":          accountMaxQuantity,
		"DBMaxQuantity":               databaseMaxQuantity,
		"DBInstanceDiskUsed":          diskUsed(in),
		"AvailabilityValue":           "100.0%",
		"AutoUpgradeMinorVersion":     autoUpgradeOf(in),
		"CurrentKernelVersion":        s.kernelOf(in),
		"LatestKernelVersion":         latestMinor(in.EngineVersion),
		"MasterZone":                  in.ZoneID,
		"SlaveZones":                  slaveZones(in),
		"ResourceGroupId":             resourceGroupOf(in),
		"SecurityIPMode":              "normal",
		"IPType":                      "IPv4",
		"VpcCloudInstanceId":          vpcCloudInstanceID(in),
		"ProxyType":                   1,
		"CompressionMode":             "off",
		"SupportCompression":          false,
		"BurstingEnabled":             false,
		"ColdDataEnabled":             false,
		"CanTempUpgrade":              false,
		"IncrementSourceDBInstanceId": "",
	}
	if in.MasterID != "" {
		item["MasterInstanceId"] = in.MasterID
		item["IncrementSourceDBInstanceId"] = in.MasterID
	}
	// Q6: only MySQL carries OptimizedWritesInfo, in the exact byte form the cloud sends.
	if in.isMySQL() {
		item["OptimizedWritesInfo"] = `{"optimized_writes":` + strconv.FormatBool(in.shownOptimized(now)) +
			`,"init_optimized_writes":` + strconv.FormatBool(in.eligible()) + `}`
	}
	return item
}

// describeDBInstanceAttribute: one id, or a comma list (every id must exist).
func (s *Simulator) describeDBInstanceAttribute(c *call) (map[string]any, *apiError) {
	raw, e := c.p.required("DBInstanceId")
	if e != nil {
		return nil, e
	}
	var items []map[string]any
	for _, id := range strings.Split(raw, ",") {
		id = strings.TrimSpace(id)
		in, ok := s.state.Instances[id]
		if !ok {
			return nil, errNotFound(id)
		}
		items = append(items, s.attribute(in, c.now))
	}
	return map[string]any{"Items": map[string]any{"DBInstanceAttribute": items}}, nil
}

// ioAcceleration is IoAccelerationEnabled: "1" with Buffer Pool Extension on, else "0".
func ioAcceleration(in *instance) string {
	if in.IoAcceleration {
		return "1"
	}
	return "0"
}

// summary is one DescribeDBInstances item. With InstanceLevel=1 it also carries Category, CPU and
// memory; a read-only item carries no ReadOnlyDBInstanceIds.
func summary(s *Simulator, in *instance, instanceLevel bool) map[string]any {
	item := map[string]any{
		"DBInstanceId":          in.ID,
		"DBInstanceDescription": in.Description,
		"RegionId":              in.RegionID,
		"ZoneId":                in.ZoneID,
		"Engine":                in.Engine,
		"EngineVersion":         in.EngineVersion,
		"DBInstanceClass":       in.Class,
		"DBInstanceStorageType": in.StorageType,
		"DBInstanceStatus":      in.Status,
		"DBInstanceType":        dbInstanceType(in),
		"DBInstanceNetType":     in.NetType,
		"PayType":               in.PayType,
		"LockMode":              in.lockMode(),
		"LockReason":            in.LockReason,
		"CreateTime":            in.CreationTime.Format(timestampLayout),
		"ExpireTime":            expireTime(in),
		"InstanceNetworkType":   in.NetworkType,
		"VpcId":                 in.VpcID,
		"VSwitchId":             in.VSwitchID,
		"ConnectionString":      s.connectionString(in, s.cloudNow()),
		"MutriORsignle":         false,
		"ConnectionMode":        "Standard",
		"ResourceGroupId":       resourceGroupOf(in),
		"VpcCloudInstanceId":    vpcCloudInstanceID(in),
		"DeletionProtection":    in.DeletionProtection,
		"IoAccelerationEnabled": ioAcceleration(in),
	}
	if in.MasterID != "" {
		item["MasterInstanceId"] = in.MasterID
	} else {
		item["ReadOnlyDBInstanceIds"] = readOnlyList(s.state.readOnlyIDs(in.ID))
	}
	if instanceLevel {
		spec := specOf(in.Class)
		item["Category"] = in.Category
		item["DBInstanceCPU"] = itoa(spec.cores)
		item["DBInstanceMemory"] = spec.memoryMB
	}
	return item
}

// describeDBInstances: filters, and classic (PageNumber/PageSize) or token (MaxResults/NextToken)
// paging, 1-100 per page.
func (s *Simulator) describeDBInstances(c *call) (map[string]any, *apiError) {
	p := c.p
	region, e := s.requestRegion(p)
	if e != nil {
		return nil, e
	}
	tokenMode := p.get("MaxResults") != "" || p.get("NextToken") != ""
	if tokenMode && (p.get("PageSize") != "" || p.get("PageNumber") != "") {
		return nil, errInvalid("MaxResults", "token paging (MaxResults, NextToken) and classic paging (PageSize, PageNumber) cannot be combined")
	}
	size, e := pageSize(p, map[bool]string{true: "MaxResults", false: "PageSize"}[tokenMode])
	if e != nil {
		return nil, e
	}
	level, e := p.oneOf("InstanceLevel", "0", "0", "1")
	if e != nil {
		return nil, e
	}
	instanceLevel := level == "1"
	var ids map[string]bool
	if raw := strings.TrimSpace(p.get("DBInstanceId")); raw != "" {
		ids = map[string]bool{}
		for _, id := range strings.Split(raw, ",") {
			ids[strings.TrimSpace(id)] = true
		}
	}
	tags, e := parseTags(p)
	if e != nil {
		return nil, e
	}
	var matches []*instance
	for _, in := range s.state.sortedInstances() {
		if in.RegionID != region || !hasTags(in, tags) ||
			(ids != nil && !ids[in.ID]) ||
			(p.get("Engine") != "" && !strings.EqualFold(p.get("Engine"), in.Engine)) ||
			(p.get("EngineVersion") != "" && p.get("EngineVersion") != in.EngineVersion) ||
			(p.get("DBInstanceStatus") != "" && p.get("DBInstanceStatus") != in.Status) ||
			(p.get("DBInstanceType") != "" && !strings.EqualFold(p.get("DBInstanceType"), dbInstanceType(in))) ||
			(p.get("VpcId") != "" && p.get("VpcId") != in.VpcID) ||
			(p.get("DBInstanceClass") != "" && p.get("DBInstanceClass") != in.Class) ||
			(p.get("Category") != "" && !strings.EqualFold(p.get("Category"), in.Category)) {
			continue
		}
		matches = append(matches, in)
	}
	items := []map[string]any{}
	if tokenMode {
		start := 0
		if tok := p.get("NextToken"); tok != "" {
			after, ok := decodePageToken(tok)
			if !ok {
				return nil, errInvalid("NextToken", "%q is not a token this service issued", truncate(tok))
			}
			for start < len(matches) && !pageKeyAfter(matches[start], after) {
				start++
			}
		}
		end := min(start+size, len(matches))
		for _, in := range matches[start:end] {
			items = append(items, summary(s, in, instanceLevel))
		}
		next := ""
		if end < len(matches) {
			next = encodePageToken(matches[end-1])
		}
		return map[string]any{
			"Items": map[string]any{"DBInstance": items}, "NextToken": next,
			"PageNumber": 1, "PageRecordCount": len(items), "TotalRecordCount": len(items),
		}, nil
	}
	page, set, e := p.integer("PageNumber")
	if e != nil {
		return nil, e
	}
	if !set {
		page = 1
	}
	if page < 1 || page > 1_000_000 {
		return nil, errInvalid("PageNumber", "%d is not a page number (from 1)", page)
	}
	start := min(int(page-1)*size, len(matches))
	end := min(start+size, len(matches))
	for _, in := range matches[start:end] {
		items = append(items, summary(s, in, instanceLevel))
	}
	return map[string]any{
		"Items":      map[string]any{"DBInstance": items},
		"PageNumber": page, "PageRecordCount": len(items), "TotalRecordCount": len(matches),
	}, nil
}

func pageSize(p params, name string) (int, *apiError) {
	n, set, e := p.integer(name)
	if e != nil {
		return 0, e
	}
	if !set {
		return 30, nil
	}
	if n < 1 || n > 100 {
		return 0, errInvalid(name, "%d is outside 1-100", n)
	}
	return int(n), nil
}

// A page token is the sort key (creation time, id) of the last item returned, so paging stays
// correct when instances come and go between pages.
type pageKey struct {
	t  time.Time
	id string
}

func encodePageToken(in *instance) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(in.CreationTime.UnixNano(), 10) + "|" + in.ID))
}

func decodePageToken(tok string) (pageKey, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return pageKey{}, false
	}
	ns, id, ok := strings.Cut(string(raw), "|")
	n, err := strconv.ParseInt(ns, 10, 64)
	if !ok || err != nil || id == "" {
		return pageKey{}, false
	}
	return pageKey{t: time.Unix(0, n).UTC(), id: id}, true
}

func pageKeyAfter(in *instance, k pageKey) bool {
	if !in.CreationTime.Equal(k.t) {
		return in.CreationTime.After(k.t)
	}
	return in.ID > k.id
}

// describeAvailableClasses answers from the catalogue in catalogue.go.
func (s *Simulator) describeAvailableClasses(c *call) (map[string]any, *apiError) {
	p := c.p
	region, e := s.requestRegion(p)
	if e != nil {
		return nil, e
	}
	engine, _, e := requiredEngineVersion(p)
	if e != nil {
		return nil, e
	}
	if _, e := p.required("DBInstanceStorageType"); e != nil {
		return nil, e
	}
	storageType, e := p.oneOf("DBInstanceStorageType", "", storageTypes...)
	if e != nil {
		return nil, e
	}
	if _, e := p.required("Category"); e != nil {
		return nil, e
	}
	category, e := p.oneOf("Category", "", categories...)
	if e != nil {
		return nil, e
	}
	if _, e := p.oneOf("InstanceChargeType", "Postpaid", "Postpaid", "Prepaid", "Serverless"); e != nil {
		return nil, e
	}
	out := []map[string]any{}
	for _, class := range inZone(region, p.get("ZoneId"), availableClasses(engine, category, storageType, p.get("CommodityCode"))) {
		out = append(out, map[string]any{
			"DBInstanceClass":        class,
			"DBInstanceStorageRange": map[string]int64{"MinValue": minStorage, "MaxValue": maxStorage(storageType), "Step": storageStep},
		})
	}
	return map[string]any{"DBInstanceClasses": out}, nil
}
