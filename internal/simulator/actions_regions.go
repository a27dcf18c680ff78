package simulator

// describeRegions: DescribeRegions lists one item per zone of every region RDS is offered in. The
// simulator serves one region (Options.Region), so it lists that region's zone, as the provider
// would see from an account that has only this region. Zones are named <region>-i, the default
// zone of a new instance here. DescribeRegions takes no RegionId.
func (s *Simulator) describeRegions(*call) (map[string]any, *apiError) {
	region := s.opts.Region
	item := map[string]any{
		"RegionId":       region,
		"ZoneId":         region + "-i",
		"LocalName":      region,
		"ZoneName":       region + " Zone I",
		"RegionEndpoint": "rds.aliyuncs.com",
	}
	return map[string]any{"Regions": map[string]any{"RDSRegion": []map[string]any{item}}}, nil
}
