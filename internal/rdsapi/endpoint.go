package rdsapi

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
)

// CentralEndpoint is the RDS endpoint shared by the regions in centralRegions.
const CentralEndpoint = "rds.aliyuncs.com"

// centralRegions are served by CentralEndpoint (spec §1); every other region has its own host.
var centralRegions = map[string]bool{
	"cn-qingdao": true, "cn-beijing": true, "cn-hangzhou": true, "cn-shanghai": true,
	"cn-shenzhen": true, "cn-heyuan": true, "cn-hongkong": true, "ap-southeast-1": true,
	"us-west-1": true, "us-east-1": true,
}

// KnownRegions are the RDS regions of the endpoint table in the simulator README (spec §1),
// maintained by hand. A region outside this list is checked with DescribeRegions before use, so a
// region added by the cloud later still works.
var KnownRegions = []string{
	"ap-northeast-1", "ap-southeast-1", "ap-southeast-3", "ap-southeast-5", "ap-southeast-6", "cn-beijing",
	"cn-chengdu", "cn-guangzhou", "cn-hangzhou", "cn-heyuan", "cn-hongkong", "cn-huhehaote", "cn-qingdao",
	"cn-shanghai", "cn-shenzhen", "cn-wulanchabu", "cn-zhangjiakou", "eu-central-1", "eu-west-1", "me-east-1",
	"us-east-1", "us-west-1",
}

// IsKnownRegion reports whether region is in KnownRegions.
func IsKnownRegion(region string) bool {
	for _, r := range KnownRegions {
		if r == region {
			return true
		}
	}
	return false
}

var regionPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`)

// EndpointForRegion returns the RDS host of a region: the central endpoint for the regions listed
// in the spec (including the finance and gov regions), rds.<region>.aliyuncs.com otherwise.
func EndpointForRegion(region string) string {
	if centralRegions[region] || strings.Contains(region, "-finance") || strings.Contains(region, "-gov") {
		return CentralEndpoint
	}
	return "rds." + region + ".aliyuncs.com"
}

// resolveEndpoint turns the configured region and optional override into the base URL of every
// request. Plain http is refused for non-loopback hosts unless insecure is set, because request
// parameters and the STS token would travel in clear text.
func resolveEndpoint(region, override string, insecure bool) (*url.URL, error) {
	if !regionPattern.MatchString(region) {
		return nil, fmt.Errorf("rdsapi: region %q is not a valid region id (like cn-hangzhou)", region)
	}
	override = strings.TrimSpace(override)
	if override == "" {
		return &url.URL{Scheme: "https", Host: EndpointForRegion(region), Path: "/"}, nil
	}
	raw := override
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if urlErr := (*url.Error)(nil); errors.As(err, &urlErr) {
		err = urlErr.Err // url.Error repeats the whole URL, password included
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("rdsapi: endpoint is not a valid URL: %w", err)
	case u.User != nil:
		return nil, errors.New("rdsapi: endpoint must not contain user information")
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, fmt.Errorf("rdsapi: endpoint %q: scheme must be https or http", override)
	case u.Hostname() == "":
		return nil, fmt.Errorf("rdsapi: endpoint %q has no host", override)
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.Fragment != "":
		return nil, fmt.Errorf("rdsapi: endpoint %q must be a host with an optional port, without path or query", override)
	case u.Scheme == "http" && !insecure && !isLoopback(u.Hostname()):
		return nil, fmt.Errorf("rdsapi: endpoint %q uses plain http on a non-loopback host; use https, or set insecure to allow it", override)
	}
	// An empty port ("host:") would be signed differently from the Host header Go sends.
	host := strings.TrimSuffix(u.Host, ":")
	return &url.URL{Scheme: u.Scheme, Host: host, Path: "/"}, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
