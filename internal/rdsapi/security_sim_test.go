package rdsapi_test

import (
	"context"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// SSL and TDE round-trip against the simulator: the switch and the expiry read back; TDE reads
// back Enabled; a missing ConnectionString is refused before any request.
func TestSecurityActionsAgainstSimulator(t *testing.T) {
	ctx := context.Background()
	_, c := simulatorClient(t, simulator.Options{}, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, 0)
	created, err := c.CreateDBInstance(ctx, newMySQL("security"))
	if err != nil {
		t.Fatal(err)
	}
	id := created.DBInstanceID
	attr, err := c.DescribeDBInstanceAttribute(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ModifyDBInstanceSSL(ctx, &rdsapi.ModifyDBInstanceSSLRequest{DBInstanceID: id}); err == nil {
		t.Fatal("ModifyDBInstanceSSL without ConnectionString was sent")
	}
	if err := c.ModifyDBInstanceSSL(ctx, &rdsapi.ModifyDBInstanceSSLRequest{DBInstanceID: id, ConnectionString: attr.ConnectionString, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	ssl, err := c.DescribeDBInstanceSSL(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !ssl.Enabled() || ssl.SSLExpireTime == "" || ssl.ConnectionString != attr.ConnectionString {
		t.Fatalf("SSL %+v", ssl)
	}
	if err := c.ModifyDBInstanceTDE(ctx, &rdsapi.ModifyDBInstanceTDERequest{DBInstanceID: id, EncryptionKey: "key-1", RoleARN: "acs:ram::1:role/r"}); err != nil {
		t.Fatal(err)
	}
	tde, err := c.DescribeDBInstanceTDE(ctx, id)
	if err != nil || !tde.Enabled() {
		t.Fatalf("TDE %+v, %v", tde, err)
	}
	if (rdsapi.DBInstanceSSL{SSLEnabled: "No"}).Enabled() || !(rdsapi.DBInstanceSSL{SSLEnabled: "on"}).Enabled() {
		t.Fatal("SSLEnabled spellings")
	}
}
