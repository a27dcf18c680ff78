// Package rdsapi is the client side of the ApsaraDB RDS OpenAPI (version 2014-08-15): the API
// interface that resources depend on, typed requests and responses, the typed API error, and the
// HTTPS implementation.
package rdsapi

import "context"

// APIVersion is the RDS OpenAPI version every request names.
const APIVersion = "2014-08-15"

// API is the set of RDS actions the provider uses. Resources depend on this interface, never on
// HTTP, so that unit tests can hand them any implementation.
//
// Every method returns an *Error for a response the cloud rejected, and a plain error for
// transport or decoding failures.
type API interface {
	CreateDBInstance(ctx context.Context, req *CreateDBInstanceRequest) (*CreateDBInstanceResponse, error)
	CreateReadOnlyDBInstance(ctx context.Context, req *CreateReadOnlyDBInstanceRequest) (*CreateDBInstanceResponse, error)
	CloneDBInstance(ctx context.Context, req *CloneDBInstanceRequest) (*CreateDBInstanceResponse, error)

	// DescribeDBInstanceAttribute returns the one instance with the given id, or an *Error whose
	// IsNotFound is true.
	DescribeDBInstanceAttribute(ctx context.Context, dbInstanceID string) (*DBInstanceAttribute, error)
	// DescribeDBInstances returns one page; set MaxResults/NextToken for token paging, or
	// PageNumber/PageSize for classic paging.
	DescribeDBInstances(ctx context.Context, req *DescribeDBInstancesRequest) (*DescribeDBInstancesResponse, error)
	DescribeAvailableClasses(ctx context.Context, req *DescribeAvailableClassesRequest) (*DescribeAvailableClassesResponse, error)

	ModifyDBInstanceSpec(ctx context.Context, req *ModifyDBInstanceSpecRequest) (*ModifyDBInstanceSpecResponse, error)
	ModifyDBInstanceDescription(ctx context.Context, dbInstanceID, description string) error
	ModifySecurityIps(ctx context.Context, req *ModifySecurityIpsRequest) error
	ModifyDBInstanceDeletionProtection(ctx context.Context, dbInstanceID string, enabled bool) error
	RestartDBInstance(ctx context.Context, dbInstanceID string) error
	DeleteDBInstance(ctx context.Context, dbInstanceID string) error

	// DescribeParameterTemplates, DescribeParameters and ModifyParameter are in parameters.go.
	DescribeParameterTemplates(ctx context.Context, req *DescribeParameterTemplatesRequest) (*DescribeParameterTemplatesResponse, error)
	DescribeParameters(ctx context.Context, dbInstanceID string) (*DescribeParametersResponse, error)
	ModifyParameter(ctx context.Context, req *ModifyParameterRequest) error
}
