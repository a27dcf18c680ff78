package rdsservice

import (
	"context"
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// Service operations on accounts and databases, shared by their resources and data sources.

// accessPageSize is the page size for DescribeAccounts (30-200) and DescribeDatabases (1-100).
const accessPageSize = 100

// maxAccessPages bounds a listing, so a cloud that keeps answering full pages cannot loop forever.
const maxAccessPages = 1000

// ListAllAccounts returns every account of an instance, page by page.
func ListAllAccounts(ctx context.Context, api rdsapi.API, instanceID string) ([]rdsapi.DBInstanceAccount, error) {
	var all []rdsapi.DBInstanceAccount
	for page := int64(1); page <= maxAccessPages; page++ {
		resp, err := api.DescribeAccounts(ctx, &rdsapi.DescribeAccountsRequest{DBInstanceID: instanceID, PageNumber: page, PageSize: accessPageSize})
		if err != nil {
			return nil, err
		}
		items := resp.Accounts.DBInstanceAccount
		all = append(all, items...)
		if len(items) < accessPageSize || (resp.TotalRecordCount > 0 && int64(len(all)) >= int64(resp.TotalRecordCount)) {
			return all, nil
		}
	}
	return nil, fmt.Errorf("DescribeAccounts %s: more than %d pages", instanceID, maxAccessPages)
}

// FindAccount returns the named account, or nil when the instance has none by that name.
func FindAccount(ctx context.Context, api rdsapi.API, instanceID, name string) (*rdsapi.DBInstanceAccount, error) {
	resp, err := api.DescribeAccounts(ctx, &rdsapi.DescribeAccountsRequest{DBInstanceID: instanceID, AccountName: name})
	if rdsapi.ErrorCode(err) == rdsapi.CodeAccountNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for i, a := range resp.Accounts.DBInstanceAccount {
		if a.AccountName == name {
			return &resp.Accounts.DBInstanceAccount[i], nil
		}
	}
	return nil, nil
}

// ListAllDatabases returns every database of an instance, page by page.
func ListAllDatabases(ctx context.Context, api rdsapi.API, instanceID string) ([]rdsapi.Database, error) {
	var all []rdsapi.Database
	for page := int64(1); page <= maxAccessPages; page++ {
		resp, err := api.DescribeDatabases(ctx, &rdsapi.DescribeDatabasesRequest{DBInstanceID: instanceID, PageNumber: page, PageSize: accessPageSize})
		if err != nil {
			return nil, err
		}
		items := resp.Databases.Database
		all = append(all, items...)
		if len(items) < accessPageSize || (resp.TotalRecordCount > 0 && int64(len(all)) >= int64(resp.TotalRecordCount)) {
			return all, nil
		}
	}
	return nil, fmt.Errorf("DescribeDatabases %s: more than %d pages", instanceID, maxAccessPages)
}

// FindDatabase returns the named database, or nil when the instance has none by that name.
func FindDatabase(ctx context.Context, api rdsapi.API, instanceID, name string) (*rdsapi.Database, error) {
	resp, err := api.DescribeDatabases(ctx, &rdsapi.DescribeDatabasesRequest{DBInstanceID: instanceID, DBName: name})
	if rdsapi.ErrorCode(err) == rdsapi.CodeDatabaseNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for i, d := range resp.Databases.Database {
		if d.DBName == name {
			return &resp.Databases.Database[i], nil
		}
	}
	return nil, nil
}

// AccessFactsFromAttribute fills the instance facts of the access rules from
// DescribeDBInstanceAttribute.
func AccessFactsFromAttribute(f *AccessFacts, attr *rdsapi.DBInstanceAttribute) {
	f.InstanceKnown = true
	f.InstanceID = attr.DBInstanceID
	f.Engine = attr.Engine
	f.EngineVersion = string(attr.EngineVersion)
	f.ReadOnly = attr.MasterInstanceID != "" || attr.DBInstanceType == rdsapi.InstanceTypeReadonly
	f.Status, f.LockMode, f.LockReason = attr.DBInstanceStatus, attr.LockMode, attr.LockReason
}
