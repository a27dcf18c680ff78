package simulator

import (
	"slices"
	"strings"
)

// defaultIPArray is the IP array an instance is created with and the one ModifySecurityIps
// changes when no DBInstanceIPArrayName is given.
const defaultIPArray = "default"

// ipArrayHidden is the DBInstanceIPArrayAttribute of arrays that other Alibaba services add and
// the console does not show.
const ipArrayHidden = "hidden"

func (in *instance) setIPArrayAttribute(array, attribute string) {
	if attribute == "" {
		return
	}
	if in.IPArrayAttributes == nil {
		in.IPArrayAttributes = map[string]string{}
	}
	in.IPArrayAttributes[array] = attribute
}

// ipArrayNames lists the arrays "default" first, then by name.
func (in *instance) ipArrayNames() []string {
	names := sortedKeys(in.SecurityIPs)
	if i := slices.Index(names, defaultIPArray); i > 0 {
		names = append([]string{defaultIPArray}, slices.Delete(names, i, i+1)...)
	}
	return names
}

// The instance-wide limits of ModifySecurityIps (README "IP arrays"): 1,000 entries across every
// array and 200 arrays. The error codes are the simulator's own (assumption IA1).
const (
	maxIPEntries = 1000
	maxIPArrays  = 200
)

// ipQuota refuses the array's new entries when the instance would exceed a limit; linked are the
// entries of its linked whitelist templates.
func (in *instance) ipQuota(array string, entries []string, linked int) *apiError {
	total, arrays := len(entries)+linked, 1
	for name, list := range in.SecurityIPs {
		if name != array {
			total, arrays = total+len(splitList(list)), arrays+1
		}
	}
	if total > maxIPEntries {
		return newErr(400, "QuotaExceeded.SecurityIps", "The instance would have %d IP addresses and CIDR blocks across its IP arrays; at most %d are allowed.", total, maxIPEntries)
	}
	if _, exists := in.SecurityIPs[array]; !exists && len(entries) > 0 && arrays > maxIPArrays {
		return newErr(400, "QuotaExceeded.DBInstanceIPArray", "The instance would have %d IP arrays; at most %d are allowed.", arrays, maxIPArrays)
	}
	return nil
}

// describeDBInstanceIPArrayList: every IP array of the instance, hidden ones included, each with
// its DBInstanceIPArrayAttribute; WhitelistNetworkType filters (MIX, Classic, VPC; the simulator
// keeps every array as MIX).
func (s *Simulator) describeDBInstanceIPArrayList(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	network, e := c.p.oneOf("WhitelistNetworkType", "", "MIX", "Classic", "VPC")
	if e != nil {
		return nil, e
	}
	items := []map[string]any{}
	if network == "" || network == "MIX" {
		for _, name := range in.ipArrayNames() {
			items = append(items, map[string]any{
				"DBInstanceIPArrayName":      name,
				"DBInstanceIPArrayAttribute": in.IPArrayAttributes[name],
				"SecurityIPType":             "IPv4",
				"SecurityIPList":             in.SecurityIPs[name],
				"WhitelistNetworkType":       "MIX",
			})
		}
	}
	return map[string]any{"Items": map[string]any{"DBInstanceIPArray": items}}, nil
}

// addForeignIPArray is what another Alibaba service (DMS, DAS, DTS) does to an instance: it adds
// its own IP array, usually hidden. It backs POST /_simulator/instances/{id}/ip-arrays.
func (in *instance) addForeignIPArray(name, ips, attribute string) *apiError {
	if name == "" || len(name) > 64 || name == defaultIPArray {
		return errInvalid("name", "%q must be 1-64 characters and not %q", truncate(name), defaultIPArray)
	}
	if attribute != "" && attribute != ipArrayHidden {
		return errInvalid("attribute", "%q is not \"\" or %q", truncate(attribute), ipArrayHidden)
	}
	list, e := validateIPList("ips", ips)
	if e != nil {
		return e
	}
	in.SecurityIPs[name] = list
	if attribute != "" {
		in.setIPArrayAttribute(name, attribute)
	} else if in.IPArrayAttributes != nil {
		delete(in.IPArrayAttributes, name)
	}
	return nil
}

// dedupeIPs keeps the first occurrence of each entry of a comma list.
func dedupeIPs(list string) string {
	var out []string
	for _, ip := range splitList(list) {
		if !slices.Contains(out, ip) {
			out = append(out, ip)
		}
	}
	return strings.Join(out, ",")
}
