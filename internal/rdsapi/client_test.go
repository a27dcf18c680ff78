package rdsapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

func TestCreateDBInstanceRequestShapeAndSignature(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(success(
		`{"RequestId":"r-1","DBInstanceId":"rm-new","OrderId":1234567890123,"ConnectionString":"rm-new.mysql.rds.aliyuncs.com","Port":3306}`)))
	c := newTestClient(t, server, 0)

	resp, err := c.CreateDBInstance(context.Background(), &CreateDBInstanceRequest{
		ZoneID: "cn-hangzhou-i", Engine: "MySQL", EngineVersion: "8.0", DBInstanceClass: "mysql.n2m.medium.2c",
		DBInstanceStorage: 100, DBInstanceStorageType: "cloud_essd", Category: "HighAvailability",
		VPCID: "vpc-1", VSwitchID: "vsw-1", SecurityIPList: "10.0.0.0/8,192.168.1.1",
		DBInstanceDescription: "Orders ~ *primary* 数据库 a+b", DeletionProtection: true,
		OptimizedWrites: OptimizedWritesOn,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.DBInstanceID != "rm-new" || resp.OrderID != "1234567890123" || resp.Port != "3306" || resp.RequestID != "r-1" {
		t.Errorf("decoded response %+v", resp)
	}

	seen := cloud.requests()
	if len(seen) != 1 {
		t.Fatalf("%d requests, want 1", len(seen))
	}
	r := seen[0]
	if r.Method != http.MethodPost || r.Path != "/" || len(r.Body) != 0 {
		t.Errorf("request line %s %s with %d body bytes, want POST / and an empty body", r.Method, r.Path, len(r.Body))
	}
	token := r.Query.Get("ClientToken")
	if !strings.HasPrefix(token, "tf-rds-") || len(token) > 64 {
		t.Errorf("ClientToken %q", token)
	}
	want := map[string]string{
		"RegionId": "cn-hangzhou", "ZoneId": "cn-hangzhou-i", "Engine": "MySQL", "EngineVersion": "8.0",
		"DBInstanceClass": "mysql.n2m.medium.2c", "DBInstanceStorage": "100", "DBInstanceStorageType": "cloud_essd",
		"Category": "HighAvailability", "PayType": "Postpaid", "DBInstanceNetType": "Intranet",
		"InstanceNetworkType": "VPC", "VPCId": "vpc-1", "VSwitchId": "vsw-1",
		"SecurityIPList": "10.0.0.0/8,192.168.1.1", "DBInstanceDescription": "Orders ~ *primary* 数据库 a+b",
		"DeletionProtection": "true", "OptimizedWrites": "optimized", "Format": "JSON", "ClientToken": token,
	}
	if len(r.Query) != len(want) {
		t.Errorf("query has %d parameters, want %d: %v", len(r.Query), len(want), r.Query)
	}
	for name, value := range want {
		if got := r.Query.Get(name); got != value {
			t.Errorf("query %s = %q, want %q", name, got, value)
		}
	}
	headers := map[string]string{
		"x-acs-action": "CreateDBInstance", "x-acs-version": "2014-08-15",
		"x-acs-content-sha256": acssign.EmptyBodySHA256, "Accept": "application/json",
	}
	for name, value := range headers {
		if got := r.Header.Get(name); got != value {
			t.Errorf("header %s = %q, want %q", name, got, value)
		}
	}
	date, err := time.Parse(acssign.TimestampLayout, r.Header.Get("x-acs-date"))
	if err != nil || time.Since(date).Abs() > time.Minute {
		t.Errorf("x-acs-date %q is not the current UTC time", r.Header.Get("x-acs-date"))
	}
	parts, err := acssign.ParseV3Authorization(r.Header.Get("Authorization"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(parts.SignedHeaders, ";"); parts.AccessKeyID != testKeyID ||
		got != "host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version" {
		t.Errorf("credential %q, signed headers %q", parts.AccessKeyID, got)
	}
	if r.Header.Get("x-acs-security-token") != "" {
		t.Error("static keys must not send a security token")
	}
}

func TestEncodingDefaultsAndOmissions(t *testing.T) {
	minimal, err := encodeCreateDBInstance(&CreateDBInstanceRequest{Engine: "MySQL", ClientToken: "tok"}, "cn-beijing")
	if err != nil {
		t.Fatal(err)
	}
	wantMinimal := params{"RegionId": "cn-beijing", "Engine": "MySQL", "PayType": "Postpaid", "DBInstanceNetType": "Intranet", "ClientToken": "tok"}
	assertParams(t, "minimal create", minimal, wantMinimal)

	explicit, _ := encodeCreateDBInstance(&CreateDBInstanceRequest{RegionID: "eu-central-1", PayType: "Prepaid", DBInstanceNetType: "Internet",
		InstanceNetworkType: "Classic", VPCID: "vpc-1", ClientToken: "tok"}, "cn-beijing")
	assertParams(t, "explicit create", explicit, params{"RegionId": "eu-central-1", "PayType": "Prepaid", "DBInstanceNetType": "Internet",
		"InstanceNetworkType": "Classic", "VPCId": "vpc-1", "ClientToken": "tok"})

	readOnly, _ := encodeCreateReadOnlyDBInstance(&CreateReadOnlyDBInstanceRequest{PrimaryDBInstanceID: "rm-1", DBInstanceStorage: 20, VPCID: "vpc-1", ClientToken: "tok"}, "cn-hangzhou")
	assertParams(t, "read-only", readOnly, params{"RegionId": "cn-hangzhou", "DBInstanceId": "rm-1", "DBInstanceStorage": "20",
		"PayType": "Postpaid", "InstanceNetworkType": "VPC", "VPCId": "vpc-1", "ClientToken": "tok"})

	clone, _ := encodeCloneDBInstance(&CloneDBInstanceRequest{SourceDBInstanceID: "rm-1", BackupID: "b-1", ClientToken: "tok"}, "cn-hangzhou")
	assertParams(t, "clone", clone, params{"RegionId": "cn-hangzhou", "DBInstanceId": "rm-1", "BackupId": "b-1", "PayType": "Postpaid", "ClientToken": "tok"})

	spec, _ := encodeModifyDBInstanceSpec(&ModifyDBInstanceSpecRequest{DBInstanceID: "rm-1", DBInstanceClass: "mysql.n2.medium.2c", DBInstanceStorage: 50, OptimizedWrites: OptimizedWritesOff})
	assertParams(t, "spec", spec, params{"DBInstanceId": "rm-1", "DBInstanceClass": "mysql.n2.medium.2c", "DBInstanceStorage": "50",
		"EffectiveTime": "Immediate", "OptimizedWrites": "none"})

	ips, _ := encodeModifySecurityIps(&ModifySecurityIpsRequest{DBInstanceID: "rm-1", SecurityIps: "1.2.3.4"})
	assertParams(t, "security ips", ips, params{"DBInstanceId": "rm-1", "SecurityIps": "1.2.3.4", "DBInstanceIPArrayName": "default"})
	named, _ := encodeModifySecurityIps(&ModifySecurityIpsRequest{DBInstanceID: "rm-1", SecurityIps: "1.2.3.4", DBInstanceIPArrayName: "office", ModifyMode: "Delete"})
	assertParams(t, "named security ips", named, params{"DBInstanceId": "rm-1", "SecurityIps": "1.2.3.4", "DBInstanceIPArrayName": "office", "ModifyMode": "Delete"})

	classes := encodeDescribeAvailableClasses(&DescribeAvailableClassesRequest{ZoneID: "z", Engine: "MySQL"}, "cn-hangzhou")
	assertParams(t, "classes", classes, params{"RegionId": "cn-hangzhou", "ZoneId": "z", "Engine": "MySQL", "InstanceChargeType": "Postpaid"})

	p := params{}
	p.setBool("DeletionProtection", false)
	if p.encode() != "DeletionProtection=false" {
		t.Errorf("a false boolean that must be sent encodes as %q", p.encode())
	}
	if got := (params{"B": "a b*~", "A": "1"}).encode(); got != "A=1&B=a%20b%2A~" {
		t.Errorf("encode = %q", got)
	}

	for name, encode := range map[string]func() error{
		"clone with backup and time": func() error {
			_, err := encodeCloneDBInstance(&CloneDBInstanceRequest{SourceDBInstanceID: "rm-1", BackupID: "b", RestoreTime: "2025-01-01T00:00:00Z"}, "r")
			return err
		},
		"read-only without primary": func() error {
			_, err := encodeCreateReadOnlyDBInstance(&CreateReadOnlyDBInstanceRequest{}, "r")
			return err
		},
		"token too long": func() error {
			_, err := encodeCreateDBInstance(&CreateDBInstanceRequest{ClientToken: strings.Repeat("x", 65)}, "r")
			return err
		},
		"token not ASCII": func() error {
			_, err := encodeCreateDBInstance(&CreateDBInstanceRequest{ClientToken: "jeton-é"}, "r")
			return err
		},
		"spec without id": func() error { _, err := encodeModifyDBInstanceSpec(&ModifyDBInstanceSpecRequest{}); return err },
	} {
		if encode() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func assertParams(t *testing.T, name string, got, want params) {
	t.Helper()
	if got.encode() != want.encode() {
		t.Errorf("%s:\n got  %s\n want %s", name, got.encode(), want.encode())
	}
}

func TestSTSTokenIsSignedAndCredentialsAreReadPerRequest(t *testing.T) {
	cloud, server := newFakeCloud(t, answers(success(`{"RequestId":"r"}`)))
	cloud.secrets = map[string]string{"sts-id-1": "sts-secret-1", "sts-id-2": "sts-secret-2"}
	c, err := New(Config{RegionID: "cn-hangzhou", Endpoint: server.URL, Credentials: &rotatingCredentials{}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := c.RestartDBInstance(context.Background(), "rm-1"); err != nil {
			t.Fatal(err)
		}
	}
	seen := cloud.requests()
	for i, r := range seen {
		if got, want := r.Header.Get("x-acs-security-token"), fmt.Sprintf("sts-token-%d", i+1); got != want {
			t.Errorf("request %d: security token %q, want %q (refreshed per request)", i, got, want)
		}
		if !strings.Contains(r.Header.Get("Authorization"), "SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-security-token;") {
			t.Errorf("request %d: token not signed: %s", i, r.Header.Get("Authorization"))
		}
	}
	if seen[0].Query.Get("ClientToken") == "" || seen[0].Query.Get("ClientToken") == seen[1].Query.Get("ClientToken") {
		t.Error("each restart call needs its own ClientToken")
	}
}

func TestDescribeDBInstanceAttributeDecoding(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		check   func(t *testing.T, a *DBInstanceAttribute)
		wantErr string
	}{{
		name: "numbers where strings are documented, strings where numbers are",
		body: attributeJSON("rm-1", `"EngineVersion":8.0,"Port":3306,"DBInstanceStorage":"100","DeletionProtection":"true",`+
			`"IoAccelerationEnabled":1,"ReadOnlyDBInstanceIds":{"ReadOnlyDBInstanceId":[{"DBInstanceId":"rr-1"},{"DBInstanceId":"rr-2"}]}`),
		check: func(t *testing.T, a *DBInstanceAttribute) {
			if a.EngineVersion != "8.0" || a.Port != "3306" || a.DBInstanceStorage != 100 || !bool(a.DeletionProtection) ||
				a.IoAccelerationEnabled != "1" || strings.Join(a.ReadOnlyDBInstanceIDs, ",") != "rr-1,rr-2" {
				t.Errorf("decoded %+v", a)
			}
		},
	}, {
		name: "OptimizedWritesInfo parsed into two booleans",
		body: attributeJSON("rm-1", `"OptimizedWritesInfo":"{\"optimized_writes\":false,\"init_optimized_writes\":true}"`),
		check: func(t *testing.T, a *DBInstanceAttribute) {
			if a.OptimizedWrites == nil || a.OptimizedWrites.Enabled || !a.OptimizedWrites.Supported {
				t.Errorf("OptimizedWrites = %+v", a.OptimizedWrites)
			}
		},
	}, {
		name: "OptimizedWritesInfo absent (PostgreSQL)",
		body: attributeJSON("rm-1", `"Engine":"PostgreSQL"`),
		check: func(t *testing.T, a *DBInstanceAttribute) {
			if a.OptimizedWrites != nil {
				t.Errorf("OptimizedWrites = %+v, want nil", a.OptimizedWrites)
			}
		},
	}, {
		name:    "OptimizedWritesInfo not JSON",
		body:    attributeJSON("rm-1", `"OptimizedWritesInfo":"optimized"`),
		wantErr: "OptimizedWritesInfo is not the expected JSON object",
	}, {
		name:    "OptimizedWritesInfo missing a key",
		body:    attributeJSON("rm-1", `"OptimizedWritesInfo":"{\"optimized_writes\":true}"`),
		wantErr: "lacks optimized_writes or init_optimized_writes",
	}, {
		name:    "OptimizedWritesInfo as a nested object rather than a string",
		body:    attributeJSON("rm-1", `"OptimizedWritesInfo":{"optimized_writes":true,"init_optimized_writes":true}`),
		wantErr: "decoding the response",
	}, {
		name:    "a number that is not one",
		body:    attributeJSON("rm-1", `"DBInstanceStorage":"lots"`),
		wantErr: "expected an integer",
	}, {
		name:    "empty list",
		body:    `{"RequestId":"r-9","Items":{"DBInstanceAttribute":[]}}`,
		wantErr: "InvalidDBInstanceId.NotFound",
	}, {
		name:    "another instance only",
		body:    attributeJSON("rm-other", ""),
		wantErr: "InvalidDBInstanceId.NotFound",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, server := newFakeCloud(t, answers(success(tt.body)))
			attr, err := newTestClient(t, server, 0).DescribeDBInstanceAttribute(context.Background(), "rm-1")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				if strings.Contains(tt.wantErr, "NotFound") && !IsNotFound(err) {
					t.Errorf("IsNotFound(%v) = false", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, attr)
		})
	}
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name       string
		answer     answer
		wantCode   string
		wantStatus int
		wantText   []string
	}{
		{"standard body", rawAnswer(404, `{"Code":"InvalidDBInstanceId.NotFound","HostId":"rds.aliyuncs.com","Message":"DBInstanceIdentifier does not refer to an existing DB instance.","Recommend":"https://x","RequestId":"8FF05C9D"}`),
			"InvalidDBInstanceId.NotFound", 404, []string{"HTTP 404", "8FF05C9D"}},
		{"lowercase keys", rawAnswer(400, `{"code":"OperationDenied.DBInstanceStatus","message":"busy","requestId":"abc"}`),
			"OperationDenied.DBInstanceStatus", 400, []string{"busy", "abc"}},
		{"HTML page", rawAnswer(403, "<html><head><title>403 Forbidden</title></head><body>"+strings.Repeat("x", 5000)+"</body></html>"),
			"", 0, []string{"HTTP 403 without an API error body", "<html><head><title>403 Forbidden"}},
		{"truncated JSON", rawAnswer(400, `{"Code":"InvalidParam`), "", 0, []string{"HTTP 400", `{\"Code\":\"InvalidParam`}},
		{"JSON without a code", rawAnswer(400, `{"Message":"no code"}`), "", 0, []string{"HTTP 400"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, server := newFakeCloud(t, answers(tt.answer))
			err := newTestClient(t, server, 0).DeleteDBInstance(context.Background(), "rm-1")
			if err == nil {
				t.Fatal("no error")
			}
			mustContain(t, err.Error(), tt.wantText...)
			if len(err.Error()) > 400 {
				t.Errorf("error quotes too much of the body (%d characters)", len(err.Error()))
			}
			var apiErr *Error
			if isAPI := errors.As(err, &apiErr); isAPI != (tt.wantCode != "") {
				t.Fatalf("errors.As(*Error) = %v for %v", isAPI, err)
			}
			if apiErr != nil && (apiErr.Code != tt.wantCode || apiErr.HTTPStatus != tt.wantStatus) {
				t.Errorf("got %s/%d, want %s/%d", apiErr.Code, apiErr.HTTPStatus, tt.wantCode, tt.wantStatus)
			}
		})
	}
}

func TestSuccessBodiesThatAreNotJSON(t *testing.T) {
	for name, body := range map[string]string{
		"HTML":      "<!DOCTYPE html><html><body>Service Temporarily Unavailable</body></html>",
		"truncated": `{"RequestId":"r","Items":{"DBInstanceAttribute":[{"DBInstanceId":"rm-1","Engine":"My`,
		"empty":     "",
		"array":     `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			_, server := newFakeCloud(t, answers(success(body)))
			_, err := newTestClient(t, server, 0).DescribeDBInstanceAttribute(context.Background(), "rm-1")
			if err == nil {
				t.Fatal("no error")
			}
			mustContain(t, err.Error(), "RDS DescribeDBInstanceAttribute", "body starts")
			quoted := strconv.Quote(body)
			mustContain(t, err.Error(), quoted[:min(len(quoted)-1, 12)])
			if errors.As(err, new(*Error)) {
				t.Errorf("a malformed answer is not an API error: %v", err)
			}
		})
	}
}

func TestDescribeDBInstancesPagination(t *testing.T) {
	t.Run("token", func(t *testing.T) {
		pages := map[string]string{
			"":   `{"RequestId":"r","Items":{"DBInstance":[{"DBInstanceId":"rm-1","EngineVersion":8.0},{"DBInstanceId":"rm-2"}]},"PageNumber":1,"TotalRecordCount":2,"NextToken":"t2"}`,
			"t2": `{"RequestId":"r","Items":{"DBInstance":[{"DBInstanceId":"rm-3"}]},"PageNumber":"1","TotalRecordCount":"1","NextToken":""}`,
		}
		var cloud *fakeCloud
		cloud, server := newFakeCloud(t, func(n int) answer {
			return success(pages[cloud.requests()[n].Query.Get("NextToken")])
		})
		c := newTestClient(t, server, 0)
		var ids []string
		req := &DescribeDBInstancesRequest{Engine: "MySQL", MaxResults: 2}
		for {
			page, err := c.DescribeDBInstances(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range page.Items.DBInstance {
				ids = append(ids, item.DBInstanceID)
			}
			if page.NextToken == "" {
				break
			}
			req.NextToken = page.NextToken
		}
		if strings.Join(ids, ",") != "rm-1,rm-2,rm-3" {
			t.Errorf("ids %v", ids)
		}
		for _, r := range cloud.requests() {
			if r.Query.Get("MaxResults") != "2" || r.Query.Has("PageSize") || r.Query.Has("PageNumber") || r.Query.Get("RegionId") != "cn-hangzhou" {
				t.Errorf("token page query %v", r.Query)
			}
		}
	})
	t.Run("classic", func(t *testing.T) {
		var cloud *fakeCloud
		cloud, server := newFakeCloud(t, func(n int) answer {
			q := cloud.requests()[n].Query
			if q.Get("PageSize") != "2" || q.Has("MaxResults") || q.Has("NextToken") {
				t.Errorf("classic page query %v", q)
			}
			if q.Get("PageNumber") == "1" {
				return success(`{"Items":{"DBInstance":[{"DBInstanceId":"rm-1"},{"DBInstanceId":"rm-2"}]},"PageNumber":1,"PageRecordCount":2,"TotalRecordCount":3}`)
			}
			return success(`{"Items":{"DBInstance":[{"DBInstanceId":"rm-3"}]},"PageNumber":"2","PageRecordCount":"1","TotalRecordCount":"3"}`)
		})
		c := newTestClient(t, server, 0)
		var ids []string
		for page := int64(1); ; page++ {
			resp, err := c.DescribeDBInstances(context.Background(), &DescribeDBInstancesRequest{PageSize: 2, PageNumber: page})
			if err != nil {
				t.Fatal(err)
			}
			if int64(resp.PageNumber) != page || resp.TotalRecordCount != 3 {
				t.Errorf("page %d decoded as %d of %d", page, resp.PageNumber, resp.TotalRecordCount)
			}
			for _, item := range resp.Items.DBInstance {
				ids = append(ids, item.DBInstanceID)
			}
			if int64(resp.PageRecordCount) < 2 {
				break
			}
		}
		if strings.Join(ids, ",") != "rm-1,rm-2,rm-3" {
			t.Errorf("ids %v", ids)
		}
	})
	t.Run("mixed modes are refused before sending", func(t *testing.T) {
		cloud, server := newFakeCloud(t, answers(success(`{}`)))
		c := newTestClient(t, server, 0)
		for _, req := range []*DescribeDBInstancesRequest{
			{MaxResults: 10, PageSize: 10},
			{NextToken: "t", PageNumber: 2},
			{PageSize: -1},
		} {
			if _, err := c.DescribeDBInstances(context.Background(), req); err == nil {
				t.Errorf("%+v: no error", req)
			}
		}
		if n := len(cloud.requests()); n != 0 {
			t.Errorf("%d requests sent", n)
		}
	})
}

func TestEveryActionSendsItsNameAndDecodes(t *testing.T) {
	cloud, server := newFakeCloud(t, func(n int) answer {
		return success(`{"RequestId":"r","DBInstanceId":"rm-1","OrderId":"7","DBInstanceClasses":[{"DBInstanceClass":"mysql.n2.medium.2c","DBInstanceStorageRange":{"MinValue":20,"MaxValue":"32000","Step":5}}]}`)
	})
	c := newTestClient(t, server, 0)
	ctx := context.Background()
	calls := map[string]func() error{
		"CreateReadOnlyDBInstance": func() error {
			_, err := c.CreateReadOnlyDBInstance(ctx, &CreateReadOnlyDBInstanceRequest{PrimaryDBInstanceID: "rm-1"})
			return err
		},
		"CloneDBInstance": func() error {
			_, err := c.CloneDBInstance(ctx, &CloneDBInstanceRequest{SourceDBInstanceID: "rm-1"})
			return err
		},
		"ModifyDBInstanceSpec": func() error {
			resp, err := c.ModifyDBInstanceSpec(ctx, &ModifyDBInstanceSpecRequest{DBInstanceID: "rm-1", DBInstanceStorage: 20})
			if err == nil && resp.OrderID != "7" {
				err = fmt.Errorf("OrderId %q", resp.OrderID)
			}
			return err
		},
		"DescribeAvailableClasses": func() error {
			resp, err := c.DescribeAvailableClasses(ctx, &DescribeAvailableClassesRequest{Engine: "MySQL"})
			if err == nil && (len(resp.DBInstanceClasses) != 1 || resp.DBInstanceClasses[0].DBInstanceStorageRange.MaxValue != 32000) {
				err = fmt.Errorf("classes %+v", resp.DBInstanceClasses)
			}
			return err
		},
		"ModifyDBInstanceDescription": func() error { return c.ModifyDBInstanceDescription(ctx, "rm-1", "d") },
		"ModifySecurityIps": func() error {
			return c.ModifySecurityIps(ctx, &ModifySecurityIpsRequest{DBInstanceID: "rm-1", SecurityIps: "1.1.1.1"})
		},
		"ModifyDBInstanceDeletionProtection": func() error { return c.ModifyDBInstanceDeletionProtection(ctx, "rm-1", false) },
		"RestartDBInstance":                  func() error { return c.RestartDBInstance(ctx, "rm-1") },
		"DeleteDBInstance":                   func() error { return c.DeleteDBInstance(ctx, "rm-1") },
	}
	for action, call := range calls {
		before := len(cloud.requests())
		if err := call(); err != nil {
			t.Errorf("%s: %v", action, err)
			continue
		}
		seen := cloud.requests()
		if len(seen) != before+1 || seen[before].Action != action {
			t.Errorf("%s: sent %v", action, seen[before:])
		}
	}
	if err := c.DeleteDBInstance(ctx, " "); err == nil {
		t.Error("an empty instance id must be refused")
	}
}
