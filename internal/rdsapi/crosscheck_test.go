package rdsapi

import (
	"context"
	"net/http"
	"testing"

	"github.com/alibabacloud-go/darabonba-openapi/v2/utils"
	"github.com/alibabacloud-go/tea/dara"
)

// TestAuthorizationMatchesDarabonba signs requests built by our client and checks, on the server
// side, that Alibaba's own darabonba-openapi signer computes the same Authorization from what
// arrived: same canonical query (including UTF-8, spaces, '*', '~', '+'), headers and hashing.
func TestAuthorizationMatchesDarabonba(t *testing.T) {
	var checked int
	verify := func(r seenRequest) {
		query := map[string]*string{}
		for name, values := range r.Query {
			query[name] = dara.String(values[0])
		}
		headers := map[string]*string{"host": dara.String(r.Host)}
		for name := range r.Header {
			headers[name] = dara.String(r.Header.Get(name))
		}
		delete(headers, "Authorization")
		want := utils.GetAuthorization(&dara.Request{
			Method:   dara.String(r.Method),
			Pathname: dara.String(r.Path),
			Query:    query,
			Headers:  headers,
		}, dara.String("ACS3-HMAC-SHA256"), dara.String(r.Header.Get("x-acs-content-sha256")), dara.String(testKeyID), dara.String(testSecret))
		if got := r.Header.Get("Authorization"); got != dara.StringValue(want) {
			t.Errorf("%s:\n ours       %s\n darabonba  %s", r.Action, got, dara.StringValue(want))
		}
		checked++
	}

	cloud, server := newFakeCloud(t, answers(success(`{"RequestId":"r","DBInstanceId":"rm-1"}`)))
	c := newTestClient(t, server, 0)
	ctx := context.Background()
	if _, err := c.CreateDBInstance(ctx, &CreateDBInstanceRequest{
		Engine: "MySQL", EngineVersion: "8.0", DBInstanceStorage: 20, SecurityIPList: "10.0.0.0/8,127.0.0.1",
		DBInstanceDescription: "订单库 (primary) * ~ a+b=c&d", OptimizedWrites: OptimizedWritesOn, VPCID: "vpc-1",
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ModifyDBInstanceSpec(ctx, &ModifyDBInstanceSpecRequest{DBInstanceID: "rm-uf6wjk5xxxxxxx", DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 100, OptimizedWrites: OptimizedWritesOff}); err != nil {
		t.Fatal(err)
	}
	// ModifyParameter's JSON string (quotes, braces, a formula with '*' and '/') in the query.
	if err := c.ModifyParameter(ctx, &ModifyParameterRequest{DBInstanceID: "rm-uf6wjk5xxxxxxx", Forcerestart: true,
		Parameters: map[string]string{"innodb_buffer_pool_size": "{DBInstanceClassMemory*7/10}", "sync_binlog": "1000"}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range cloud.requests() {
		if r.Method != http.MethodPost {
			t.Errorf("method %s", r.Method)
		}
		verify(r)
	}
	if checked != 3 {
		t.Errorf("checked %d requests, want 3", checked)
	}
}
