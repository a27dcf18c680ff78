package rdsservice

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// ClassDetail is one ListClasses row: CPU cores, memory, ceilings and architecture of a class.
type ClassDetail struct {
	Class                   string
	CPU                     int64
	MemoryGiB               float64
	MaxConnections, MaxIOPS int64
	// Architecture is arm or x86 (ListClasses writes x86 as empty).
	Architecture string
}

// Details returns the region's class details, one ListClasses call per region for the life of
// the process.
func (c *Catalogue) Details(ctx context.Context, api rdsapi.API, region string) (map[string]ClassDetail, error) {
	return c.details.Get(region, func() (map[string]ClassDetail, error) {
		out, err := api.ListClasses(ctx, &rdsapi.ListClassesRequest{RegionID: region})
		if err != nil {
			return nil, err
		}
		details := map[string]ClassDetail{}
		for _, item := range out.Items {
			arch := rdsapi.ArchitectureX86
			if strings.EqualFold(item.InstructionSetArch, rdsapi.ArchitectureARM) {
				arch = rdsapi.ArchitectureARM
			}
			details[item.ClassCode] = ClassDetail{Class: item.ClassCode, CPU: int64(leadingNumber(string(item.Cpu))),
				MemoryGiB: leadingNumber(string(item.MemoryClass)), MaxConnections: int64(leadingNumber(string(item.MaxConnections))),
				MaxIOPS: int64(leadingNumber(string(item.MaxIOPS))), Architecture: arch}
		}
		return details, nil
	})
}

// leadingNumber reads the number a text starts with ("4GB", "1 GB (RDS Basic Edition)"); 0 when none.
func leadingNumber(s string) float64 {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if end >= 0 {
		s = s[:end]
	}
	n, _ := strconv.ParseFloat(s, 64)
	return n
}

// ClassQuery is what the rds_instance_classes data source asks: a combination and filters.
type ClassQuery struct {
	Engine, EngineVersion, Category, StorageType string
	MinCPU                                       int64
	MinMemoryGiB                                 float64
	// Architecture is arm or x86; "" for both.
	Architecture string
	// AtomicWrite keeps only classes a new instance gets 16K atomic write on.
	AtomicWrite bool
	// Preferred, when set, keeps only these classes, in this order.
	Preferred []string
}

// ClassOffer is one class offered in one zone, with its details and storage range.
type ClassOffer struct {
	ZoneID string
	ClassDetail
	MinStorage, MaxStorage, Step int64
	// AtomicWriteSupported: a new instance of this class gets 16K atomic write (its default).
	AtomicWriteSupported bool
}

// SelectClasses keeps the offered classes (per zone, as ClassFacts lists them) that pass every
// filter, preferred classes first in their order, then by class and zone. When none passes,
// the problem names the filters that excluded the most candidates.
func SelectClasses(q ClassQuery, offered map[string][]OfferedClass, details map[string]ClassDetail) ([]ClassOffer, *Problem) {
	spec := NewInstanceSpec{Engine: q.Engine, EngineVersion: q.EngineVersion, StorageType: q.StorageType, Category: q.Category}
	reasons := EligibleForNew(spec)
	excluded := map[string]int{}
	var out []ClassOffer
	candidates := 0
	for _, zone := range sortedKeysOf(offered) {
		for _, o := range offered[zone] {
			candidates++
			offer := ClassOffer{ZoneID: zone, ClassDetail: details[o.Class], MinStorage: o.MinStorage, MaxStorage: o.MaxStorage,
				Step: o.Step, AtomicWriteSupported: len(reasons) == 0}
			offer.Class = o.Class
			if offer.Architecture == "" {
				offer.Architecture = Architecture(o.Class)
			}
			if failed := q.failedFilters(offer); len(failed) > 0 {
				for _, f := range failed {
					excluded[f]++
				}
				continue
			}
			out = append(out, offer)
		}
	}
	if len(out) == 0 {
		p := noFit(q, sortedKeysOf(offered), candidates, excluded, reasons)
		return nil, &p
	}
	slices.SortStableFunc(out, func(a, b ClassOffer) int {
		if d := q.rank(a.Class) - q.rank(b.Class); d != 0 {
			return d
		}
		return strings.Compare(a.Class+" "+a.ZoneID, b.Class+" "+b.ZoneID)
	})
	return out, nil
}

// failedFilters names the filters an offer fails, by their data source attribute.
func (q ClassQuery) failedFilters(o ClassOffer) []string {
	var failed []string
	if q.Architecture != "" && !strings.EqualFold(q.Architecture, o.Architecture) {
		failed = append(failed, "architecture")
	}
	if o.CPU < q.MinCPU {
		failed = append(failed, "min_cpu")
	}
	if o.MemoryGiB < q.MinMemoryGiB {
		failed = append(failed, "min_memory_gib")
	}
	if q.AtomicWrite && !o.AtomicWriteSupported {
		failed = append(failed, AttrAtomicWrite)
	}
	if len(q.Preferred) > 0 && !slices.Contains(q.Preferred, o.Class) {
		failed = append(failed, "preferred_instance_classes")
	}
	return failed
}

func (q ClassQuery) rank(class string) int {
	if i := slices.Index(q.Preferred, class); i >= 0 {
		return i
	}
	return len(q.Preferred)
}

// noFit renders the no-fit row: the filters by how many candidates each excluded, most first.
func noFit(q ClassQuery, zones []string, candidates int, excluded map[string]int, reasons []Problem) Problem {
	combination := fmt.Sprintf("%s %s, category %s, storage_type %s", q.Engine, q.EngineVersion, q.Category, q.StorageType)
	where := "in zone(s) " + strings.Join(zones, ", ")
	if candidates == 0 {
		return problem(RuleClassNoFit, "", combination, where, "the catalogue lists no class for this combination there (rds_zones lists what each zone offers)")
	}
	names := sortedKeysOf(excluded)
	slices.SortStableFunc(names, func(a, b string) int { return excluded[b] - excluded[a] })
	var parts []string
	for _, name := range names {
		part := fmt.Sprintf("%s excluded %d of %d", name, excluded[name], candidates)
		if name == AttrAtomicWrite && len(reasons) > 0 {
			part += " (" + strings.TrimSuffix(reasons[0].Detail, ".") + ")"
		}
		parts = append(parts, part)
	}
	return problem(RuleClassNoFit, names[0], combination, where, strings.Join(parts, "; "))
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
