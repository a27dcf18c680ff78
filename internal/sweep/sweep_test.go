package sweep

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Names the real-cloud acceptance tests give what they create: instances (DBInstanceDescription)
// start with instancePrefix; accounts, whose names allow no hyphen, with accountPrefix.
const (
	instancePrefix = "tf-rds-acc-"
	accountPrefix  = "tf_rds_acc_"
)

// sweepers run in this order (each one's Dependencies come earlier): accounts and backups before
// the instances they are on, read-only instances of shared primaries before the primaries that
// take their own read-only instances with them. The provider calls no proxy action, so tests
// leave no proxies.
var sweepers = []*resource.Sweeper{
	{Name: "rds_account", F: withClient(sweepAccounts)},
	{Name: "rds_backup", F: withClient(sweepBackups)},
	{Name: "rds_read_only_instance", F: withClient(sweepReadOnlyInstances)},
	{Name: "rds_instance", Dependencies: []string{"rds_account", "rds_backup", "rds_read_only_instance"}, F: withClient(sweepInstances)},
}

func init() {
	for _, s := range sweepers {
		resource.AddTestSweepers(s.Name, s)
	}
}

// TestMain runs the sweepers with -sweep=<region>[,<region>] and the tests otherwise.
func TestMain(m *testing.M) { resource.TestMain(m) }

// withClient builds the client of a region from the environment the real-cloud suite uses
// (ALIBABA_CLOUD_ACCESS_KEY_ID, ALIBABA_CLOUD_ACCESS_KEY_SECRET, optional
// ALIBABA_CLOUD_SECURITY_TOKEN, and ALIBABA_CLOUD_RDS_ENDPOINT to reach a simulator).
func withClient(sweep func(context.Context, rdsapi.API) error) resource.SweeperFunc {
	return func(region string) error {
		id, secret := os.Getenv("ALIBABA_CLOUD_ACCESS_KEY_ID"), os.Getenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET")
		if id == "" || secret == "" {
			return errors.New("sweepers need ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET")
		}
		cfg := new(credentials.Config).SetType("access_key").SetAccessKeyId(id).SetAccessKeySecret(secret)
		if token := os.Getenv("ALIBABA_CLOUD_SECURITY_TOKEN"); token != "" {
			cfg = new(credentials.Config).SetType("sts").SetAccessKeyId(id).SetAccessKeySecret(secret).SetSecurityToken(token)
		}
		cred, err := credentials.NewCredential(cfg)
		if err != nil {
			return err
		}
		c, err := rdsapi.New(rdsapi.Config{RegionID: region, Endpoint: os.Getenv("ALIBABA_CLOUD_RDS_ENDPOINT"), Credentials: cred,
			MaxRetries: 3, UserAgent: "terraform-provider-rds-sweeper"})
		if err != nil {
			return err
		}
		return sweep(context.Background(), c)
	}
}

// instances lists every instance of the region (token paging).
func instances(ctx context.Context, api rdsapi.API) ([]rdsapi.DBInstanceSummary, error) {
	var out []rdsapi.DBInstanceSummary
	next := ""
	for {
		page, err := api.DescribeDBInstances(ctx, &rdsapi.DescribeDBInstancesRequest{MaxResults: 100, NextToken: next})
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items.DBInstance...)
		if next = page.NextToken; next == "" {
			return out, nil
		}
	}
}

func swept(in rdsapi.DBInstanceSummary) bool {
	return strings.HasPrefix(in.DBInstanceDescription, instancePrefix)
}

// sweepAccounts deletes the tf_rds_acc_* accounts of the instances that stay (those of swept
// instances go with them).
func sweepAccounts(ctx context.Context, api rdsapi.API) error {
	all, err := instances(ctx, api)
	if err != nil {
		return err
	}
	var errs []error
	for _, in := range all {
		if swept(in) || in.DBInstanceType == "Readonly" || in.DBInstanceStatus != "Running" {
			continue
		}
		accounts, err := api.DescribeAccounts(ctx, &rdsapi.DescribeAccountsRequest{DBInstanceID: in.DBInstanceID})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, a := range accounts.Accounts.DBInstanceAccount {
			if strings.HasPrefix(a.AccountName, accountPrefix) {
				log.Printf("[INFO] sweeping account %s of %s", a.AccountName, in.DBInstanceID)
				errs = append(errs, api.DeleteAccount(ctx, in.DBInstanceID, a.AccountName))
			}
		}
	}
	return errors.Join(errs...)
}

// sweepBackups deletes the manual backup sets of the swept instances that the retention rules let
// go, so that releasing them keeps no more than the cloud forces (the latest set of a cloud-disk
// instance); a set still under retention goes with its instance.
func sweepBackups(ctx context.Context, api rdsapi.API) error {
	all, err := instances(ctx, api)
	if err != nil {
		return err
	}
	var errs []error
	for _, in := range all {
		if !swept(in) || in.DBInstanceType == "Readonly" {
			continue
		}
		sets, err := api.DescribeBackups(ctx, &rdsapi.DescribeBackupsRequest{DBInstanceID: in.DBInstanceID, BackupMode: "Manual", PageSize: 100})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, b := range sets.Items.Backup {
			err := api.DeleteBackup(ctx, in.DBInstanceID, string(b.BackupID))
			if rdsapi.ErrorCode(err) == "OperationDenied.BackupRetention" {
				log.Printf("[INFO] backup set %s of %s is under retention: it goes with the instance", b.BackupID, in.DBInstanceID)
				continue
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// sweepReadOnlyInstances releases tf-rds-acc-* read-only instances of primaries that stay (a swept
// primary releases its own with it).
func sweepReadOnlyInstances(ctx context.Context, api rdsapi.API) error {
	all, err := instances(ctx, api)
	if err != nil {
		return err
	}
	primaries := map[string]rdsapi.DBInstanceSummary{}
	for _, in := range all {
		primaries[in.DBInstanceID] = in
	}
	var errs []error
	for _, in := range all {
		if in.DBInstanceType == "Readonly" && swept(in) && !swept(primaries[in.MasterInstanceID]) {
			errs = append(errs, release(ctx, api, in))
		}
	}
	return errors.Join(errs...)
}

// sweepInstances releases the tf-rds-acc-* primaries, with their read-only instances.
func sweepInstances(ctx context.Context, api rdsapi.API) error {
	all, err := instances(ctx, api)
	if err != nil {
		return err
	}
	var errs []error
	for _, in := range all {
		if in.DBInstanceType != "Readonly" && swept(in) {
			errs = append(errs, release(ctx, api, in))
		}
	}
	return errors.Join(errs...)
}

// release deletes one instance, turning deletion protection off first. A subscription (Prepaid)
// instance is paid for already: it is reported, not converted (a conversion refunds and charges).
func release(ctx context.Context, api rdsapi.API, in rdsapi.DBInstanceSummary) error {
	if in.DBInstanceStatus == "Deleting" {
		return nil
	}
	if in.PayType == rdsapi.PayTypePrepaid && in.DBInstanceType != "Readonly" {
		return fmt.Errorf("%s (%s) is a subscription instance: release it in the console", in.DBInstanceID, in.DBInstanceDescription)
	}
	log.Printf("[INFO] sweeping instance %s (%s)", in.DBInstanceID, in.DBInstanceDescription)
	attr, err := api.DescribeDBInstanceAttribute(ctx, in.DBInstanceID)
	if err != nil {
		return err
	}
	if attr.DeletionProtection {
		if err := api.ModifyDBInstanceDeletionProtection(ctx, in.DBInstanceID, false); err != nil {
			return err
		}
	}
	return api.DeleteDBInstance(ctx, in.DBInstanceID)
}
