package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aliyun/credentials-go/credentials"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// regionCheckTimeout bounds the DescribeRegions call that checks a region outside
// rdsapi.KnownRegions.
const regionCheckTimeout = 30 * time.Second

// checkRegion makes an unknown region a configuration error naming the valid ones (issue 12).
// Regions in rdsapi.KnownRegions need no call; any other is looked up with DescribeRegions, at the
// configured endpoint or, without one, at the central endpoint (a made-up region has no regional
// host to ask).
func checkRegion(ctx context.Context, s settings, cred credentials.Credential, client *rdsapi.Client) error {
	if rdsapi.IsKnownRegion(s.region) {
		return nil
	}
	asker := client
	if s.endpoint == "" {
		central, err := rdsapi.New(rdsapi.Config{RegionID: s.region, Endpoint: rdsapi.CentralEndpoint, Credentials: cred,
			CredentialSource: s.credentialSource(), MaxRetries: s.maxRetries})
		if err != nil {
			return err
		}
		asker = central
	}
	ctx, cancel := context.WithTimeout(ctx, regionCheckTimeout)
	defer cancel()
	out, err := asker.DescribeRegions(ctx)
	if err != nil {
		return fmt.Errorf("region %q is not one of the RDS regions this provider knows (%s), and asking %s with DescribeRegions "+
			"failed: %v. Set `region` (or ALIBABA_CLOUD_REGION) to an RDS region", s.region, strings.Join(rdsapi.KnownRegions, ", "), asker.Endpoint(), err)
	}
	valid := out.RegionIDs()
	if slices.Contains(valid, s.region) {
		return nil
	}
	return fmt.Errorf("region %q is not an RDS region. Valid regions (DescribeRegions at %s): %s. Set `region` (or "+
		"ALIBABA_CLOUD_REGION) to one of them", s.region, asker.Endpoint(), strings.Join(valid, ", "))
}
