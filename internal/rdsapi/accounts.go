package rdsapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Accounts, databases and privileges. Every action here is safe to resend: a resent create meets
// InvalidAccountName.Duplicate / InvalidDBName.Duplicate, which the caller reconciles; passwords
// travel in the signed form body, never in the URL (which debug logs show).

// Account types, statuses, database statuses and privileges as the API spells them.
const (
	AccountTypeNormal      = "Normal"
	AccountTypeSuper       = "Super"
	AccountStatusAvailable = "Available"
	DatabaseStatusRunning  = "Running"
	DatabaseStatusDeleting = "Deleting"
	PrivilegeReadWrite     = "ReadWrite"
	PrivilegeReadOnly      = "ReadOnly"
	PrivilegeDDLOnly       = "DDLOnly"
	PrivilegeDMLOnly       = "DMLOnly"
	// PrivilegeCustom is how DescribeAccounts reports a grant changed with SQL into none of the four.
	PrivilegeCustom = "Custom"
)

// Error codes of the account and database actions the provider branches on.
const (
	CodeAccountNotFound    = "InvalidAccountName.NotFound"
	CodeAccountDuplicate   = "InvalidAccountName.Duplicate"
	CodeDatabaseNotFound   = "InvalidDBName.NotFound"
	CodeDatabaseDuplicate  = "InvalidDBName.Duplicate"
	CodeIncorrectInstState = "IncorrectDBInstanceState"
)

// CreateAccountRequest holds the CreateAccount parameters. AccountPassword is sent in the body.
type CreateAccountRequest struct {
	DBInstanceID       string
	AccountName        string
	AccountPassword    string
	AccountType        string // Normal when empty
	AccountDescription string
}

// DescribeAccountsRequest lists an instance's accounts, or the one named AccountName.
type DescribeAccountsRequest struct {
	DBInstanceID string
	AccountName  string
	PageNumber   int64
	PageSize     int64 // 30-200; the cloud's default is 30
}

// DescribeAccountsResponse is one page of accounts.
type DescribeAccountsResponse struct {
	RequestID string `json:"RequestId"`
	Accounts  struct {
		DBInstanceAccount []DBInstanceAccount `json:"DBInstanceAccount"`
	} `json:"Accounts"`
	PageNumber       FlexInt `json:"PageNumber"`
	TotalRecordCount FlexInt `json:"TotalRecordCount"`
}

// DBInstanceAccount is one account of DescribeAccounts.
type DBInstanceAccount struct {
	DBInstanceID       string     `json:"DBInstanceId"`
	AccountName        string     `json:"AccountName"`
	AccountStatus      string     `json:"AccountStatus"`
	AccountType        string     `json:"AccountType"`
	AccountDescription string     `json:"AccountDescription"`
	PrivExceeded       FlexString `json:"PrivExceeded"`
	DatabasePrivileges struct {
		DatabasePrivilege []DatabasePrivilege `json:"DatabasePrivilege"`
	} `json:"DatabasePrivileges"`
}

// DatabasePrivilege is one database an account has a privilege on.
type DatabasePrivilege struct {
	DBName                 string `json:"DBName"`
	AccountPrivilege       string `json:"AccountPrivilege"`
	AccountPrivilegeDetail string `json:"AccountPrivilegeDetail"`
}

// CreateDatabaseRequest holds the CreateDatabase parameters.
type CreateDatabaseRequest struct {
	DBInstanceID     string
	DBName           string
	CharacterSetName string
	DBDescription    string
}

// DescribeDatabasesRequest lists an instance's databases, or the one named DBName.
type DescribeDatabasesRequest struct {
	DBInstanceID string
	DBName       string
	DBStatus     string
	PageNumber   int64
	PageSize     int64
}

// DescribeDatabasesResponse is one page of databases.
type DescribeDatabasesResponse struct {
	RequestID string `json:"RequestId"`
	Databases struct {
		Database []Database `json:"Database"`
	} `json:"Databases"`
	PageNumber       FlexInt `json:"PageNumber"`
	PageRecordCount  FlexInt `json:"PageRecordCount"`
	TotalRecordCount FlexInt `json:"TotalRecordCount"`
}

// Database is one database of DescribeDatabases.
type Database struct {
	DBInstanceID     string `json:"DBInstanceId"`
	DBName           string `json:"DBName"`
	DBStatus         string `json:"DBStatus"`
	Engine           string `json:"Engine"`
	CharacterSetName string `json:"CharacterSetName"`
	DBDescription    string `json:"DBDescription"`
	Accounts         struct {
		AccountPrivilegeInfo []AccountPrivilegeInfo `json:"AccountPrivilegeInfo"`
	} `json:"Accounts"`
}

// AccountPrivilegeInfo is one account's privilege on a database.
type AccountPrivilegeInfo struct {
	Account                string `json:"Account"`
	AccountPrivilege       string `json:"AccountPrivilege"`
	AccountPrivilegeDetail string `json:"AccountPrivilegeDetail"`
}

// GrantAccountPrivilegeRequest grants AccountPrivilege on each of DBNames.
type GrantAccountPrivilegeRequest struct {
	DBInstanceID     string
	AccountName      string
	DBNames          []string
	AccountPrivilege string
}

func accountParams(instanceID, accountName string) (params, error) {
	p, err := instanceParams(instanceID)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(accountName) == "" {
		return nil, errors.New("AccountName is required")
	}
	p.set("AccountName", accountName)
	return p, nil
}

func databaseParams(instanceID, dbName string) (params, error) {
	p, err := instanceParams(instanceID)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(dbName) == "" {
		return nil, errors.New("DBName is required")
	}
	p.set("DBName", dbName)
	return p, nil
}

func passwordBody(password string) (params, error) {
	if password == "" {
		return nil, errors.New("AccountPassword is required")
	}
	return params{"AccountPassword": password}, nil
}

// CreateAccount creates an account; the password goes in the request body.
func (c *Client) CreateAccount(ctx context.Context, req *CreateAccountRequest) error {
	p, err := accountParams(req.DBInstanceID, req.AccountName)
	if err != nil {
		return fmt.Errorf("RDS CreateAccount: %w", err)
	}
	body, err := passwordBody(req.AccountPassword)
	if err != nil {
		return fmt.Errorf("RDS CreateAccount: %w", err)
	}
	p.set("AccountType", firstNonEmpty(req.AccountType, AccountTypeNormal))
	p.set("AccountDescription", req.AccountDescription)
	return c.callWithBody(ctx, "CreateAccount", p, body, true, nil)
}

// DescribeAccounts returns one page of accounts.
func (c *Client) DescribeAccounts(ctx context.Context, req *DescribeAccountsRequest) (*DescribeAccountsResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeAccounts: %w", err)
	}
	p.set("AccountName", req.AccountName)
	p.setInt("PageNumber", req.PageNumber)
	p.setInt("PageSize", req.PageSize)
	var out DescribeAccountsResponse
	if err := c.call(ctx, "DescribeAccounts", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ResetAccountPassword sets an account's password; the password goes in the request body.
func (c *Client) ResetAccountPassword(ctx context.Context, instanceID, accountName, password string) error {
	p, err := accountParams(instanceID, accountName)
	if err != nil {
		return fmt.Errorf("RDS ResetAccountPassword: %w", err)
	}
	body, err := passwordBody(password)
	if err != nil {
		return fmt.Errorf("RDS ResetAccountPassword: %w", err)
	}
	return c.callWithBody(ctx, "ResetAccountPassword", p, body, true, nil)
}

// ModifyAccountDescription sets an account's description.
func (c *Client) ModifyAccountDescription(ctx context.Context, instanceID, accountName, description string) error {
	p, err := accountParams(instanceID, accountName)
	if err != nil {
		return fmt.Errorf("RDS ModifyAccountDescription: %w", err)
	}
	p.set("AccountDescription", description)
	return c.call(ctx, "ModifyAccountDescription", p, true, nil)
}

// DeleteAccount deletes an account; a resent delete meets InvalidAccountName.NotFound.
func (c *Client) DeleteAccount(ctx context.Context, instanceID, accountName string) error {
	p, err := accountParams(instanceID, accountName)
	if err != nil {
		return fmt.Errorf("RDS DeleteAccount: %w", err)
	}
	return c.call(ctx, "DeleteAccount", p, true, nil)
}

// CreateDatabase creates a database.
func (c *Client) CreateDatabase(ctx context.Context, req *CreateDatabaseRequest) error {
	p, err := databaseParams(req.DBInstanceID, req.DBName)
	if err != nil {
		return fmt.Errorf("RDS CreateDatabase: %w", err)
	}
	p.set("CharacterSetName", req.CharacterSetName)
	p.set("DBDescription", req.DBDescription)
	return c.call(ctx, "CreateDatabase", p, true, nil)
}

// DescribeDatabases returns one page of databases.
func (c *Client) DescribeDatabases(ctx context.Context, req *DescribeDatabasesRequest) (*DescribeDatabasesResponse, error) {
	p, err := instanceParams(req.DBInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDatabases: %w", err)
	}
	p.set("DBName", req.DBName)
	p.set("DBStatus", req.DBStatus)
	p.setInt("PageNumber", req.PageNumber)
	p.setInt("PageSize", req.PageSize)
	var out DescribeDatabasesResponse
	if err := c.call(ctx, "DescribeDatabases", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDBDescription sets a database's description.
func (c *Client) ModifyDBDescription(ctx context.Context, instanceID, dbName, description string) error {
	p, err := databaseParams(instanceID, dbName)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBDescription: %w", err)
	}
	p.set("DBDescription", description)
	return c.call(ctx, "ModifyDBDescription", p, true, nil)
}

// DeleteDatabase deletes a database; a resent delete meets InvalidDBName.NotFound.
func (c *Client) DeleteDatabase(ctx context.Context, instanceID, dbName string) error {
	p, err := databaseParams(instanceID, dbName)
	if err != nil {
		return fmt.Errorf("RDS DeleteDatabase: %w", err)
	}
	return c.call(ctx, "DeleteDatabase", p, true, nil)
}

// GrantAccountPrivilege grants one privilege on several databases in one request.
func (c *Client) GrantAccountPrivilege(ctx context.Context, req *GrantAccountPrivilegeRequest) error {
	p, err := accountParams(req.DBInstanceID, req.AccountName)
	if err != nil {
		return fmt.Errorf("RDS GrantAccountPrivilege: %w", err)
	}
	if len(req.DBNames) == 0 || req.AccountPrivilege == "" {
		return errors.New("RDS GrantAccountPrivilege: DBNames and AccountPrivilege are required")
	}
	privs := make([]string, len(req.DBNames))
	for i := range privs {
		privs[i] = req.AccountPrivilege
	}
	p.set("DBName", strings.Join(req.DBNames, ","))
	p.set("AccountPrivilege", strings.Join(privs, ","))
	return c.call(ctx, "GrantAccountPrivilege", p, true, nil)
}

// RevokeAccountPrivilege revokes the account's privileges on the databases.
func (c *Client) RevokeAccountPrivilege(ctx context.Context, instanceID, accountName string, dbNames []string) error {
	p, err := accountParams(instanceID, accountName)
	if err != nil {
		return fmt.Errorf("RDS RevokeAccountPrivilege: %w", err)
	}
	if len(dbNames) == 0 {
		return errors.New("RDS RevokeAccountPrivilege: DBNames are required")
	}
	p.set("DBName", strings.Join(dbNames, ","))
	return c.call(ctx, "RevokeAccountPrivilege", p, true, nil)
}
