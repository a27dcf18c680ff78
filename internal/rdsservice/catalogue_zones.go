package rdsservice

import (
	"context"
	"slices"
	"strings"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Zone is one zone of DescribeAvailableZones with what it offers, and the zones its secondary
// node may be placed in (the multi-zone entries that pair it with others, with what they offer).
type Zone struct {
	ID string
	// Offers are "version/category/storage_type" keys, category in lower case.
	Offers offers
	pairs  map[string]offers
}

type offers map[string]bool

// has reports whether a version, edition and storage type is offered ("" matches any).
func (o offers) has(version, category, storageType string) bool {
	for key := range o {
		parts := strings.SplitN(key, "/", 3)
		if (version == "" || parts[0] == version) && (category == "" || strings.EqualFold(parts[1], category)) &&
			(storageType == "" || parts[2] == storageType) {
			return true
		}
	}
	return false
}

// OffersFor reports whether the zone offers a version, edition and storage type ("" matches any).
func (z Zone) OffersFor(version, category, storageType string) bool {
	return z.Offers.has(version, category, storageType)
}

// Secondary lists, sorted, the zones a multi-zone entry pairs this zone with for a version,
// edition and storage type ("" matches any).
func (z Zone) Secondary(version, category, storageType string) []string {
	var out []string
	for id, o := range z.pairs {
		if o.has(version, category, storageType) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Zones returns the zones of the region that offer an engine (and version when req names one),
// one DescribeAvailableZones call per engine and version for the life of the process.
func (c *Catalogue) Zones(ctx context.Context, api rdsapi.API, req rdsapi.DescribeAvailableZonesRequest) ([]Zone, error) {
	return c.zones.Get(req, func() ([]Zone, error) {
		out, err := api.DescribeAvailableZones(ctx, &req)
		if err != nil {
			return nil, err
		}
		return ZonesFromAPI(req.RegionID, out.AvailableZones), nil
	})
}

// ZonesFromAPI folds multi-zone entries (<region>-MAZ<n>(a,b)) into the secondary zones of each
// zone they pair; a multi-zone entry offers what its zones offer together.
func ZonesFromAPI(region string, items []rdsapi.AvailableZone) []Zone {
	byID := map[string]*Zone{}
	var order []string
	zone := func(id string) *Zone {
		if z, ok := byID[id]; ok {
			return z
		}
		byID[id] = &Zone{ID: id, Offers: offers{}, pairs: map[string]offers{}}
		order = append(order, id)
		return byID[id]
	}
	for _, item := range items {
		members := multiZoneMembers(region, item.ZoneID)
		if members == nil {
			addOffers(zone(item.ZoneID).Offers, item)
			continue
		}
		for _, m := range members {
			z := zone(m)
			for _, other := range members {
				if other == m {
					continue
				}
				if z.pairs[other] == nil {
					z.pairs[other] = offers{}
				}
				addOffers(z.pairs[other], item)
			}
		}
	}
	out := make([]Zone, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	slices.SortFunc(out, func(a, b Zone) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func addOffers(o offers, item rdsapi.AvailableZone) {
	for _, e := range item.SupportedEngines {
		for _, v := range e.SupportedEngineVersions {
			for _, c := range v.SupportedCategorys {
				for _, st := range c.SupportedStorageTypes {
					o[v.Version+"/"+strings.ToLower(c.Category)+"/"+st.StorageType] = true
				}
			}
		}
	}
}

// multiZoneMembers reads cn-hangzhou-MAZ6(b,c) as [cn-hangzhou-b cn-hangzhou-c]; nil for a
// single zone.
func multiZoneMembers(region, id string) []string {
	rest, ok := strings.CutPrefix(id, region+"-MAZ")
	open, closing := strings.Index(rest, "("), strings.LastIndex(rest, ")")
	if !ok || open < 0 || closing < open {
		return nil
	}
	var members []string
	for _, suffix := range strings.Split(rest[open+1:closing], ",") {
		if suffix = strings.TrimSpace(suffix); suffix != "" {
			members = append(members, region+"-"+suffix)
		}
	}
	return members
}
