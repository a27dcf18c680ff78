package simulator

import "strings"

// describeRegions: DescribeRegions lists one item per zone of every region RDS is offered in. The
// simulator serves its own region (Options.Region) and the regions its cross-region backups copy
// to (README "Regions"), so it lists their zones (actions_zone.go), as the provider would see from
// an account that has only these regions. Zones are named <region>-i (the default zone of a new
// instance here), -j, -k and -h. DescribeRegions takes no RegionId.
func (s *Simulator) describeRegions(*call) (map[string]any, *apiError) {
	items := []map[string]any{}
	for _, region := range s.servedRegions() {
		for _, z := range simZones {
			items = append(items, map[string]any{
				"RegionId":       region,
				"ZoneId":         region + "-" + z.suffix,
				"LocalName":      region,
				"ZoneName":       region + " Zone " + strings.ToUpper(z.suffix),
				"RegionEndpoint": "rds.aliyuncs.com",
			})
		}
	}
	return map[string]any{"Regions": map[string]any{"RDSRegion": items}}, nil
}
