package simulator

import (
	"errors"
	"net/url"
	"testing"
	"time"

	openapi "github.com/alibabacloud-go/darabonba-openapi/v2/client"
	"github.com/alibabacloud-go/tea/dara"
	"github.com/alibabacloud-go/tea/tea"
)

// Cross-check with Alibaba's official generic client: its own V1 ("RPC", SignatureVersion 1.0)
// and V3 (ACS3-HMAC-SHA256) signing must be accepted, and a wrong key or secret refused.
func TestDarabonbaCrossCheck(t *testing.T) {
	_, srv := NewTestServer(t, Options{CreateDuration: 50 * time.Millisecond, RestartDuration: 50 * time.Millisecond,
		DeleteDuration: 50 * time.Millisecond, FlagLag: 20 * time.Millisecond})
	host := mustHost(t, srv.URL)

	newClient := func(t *testing.T, id, secret, algorithm string) *openapi.Client {
		cfg := &openapi.Config{AccessKeyId: dara.String(id), AccessKeySecret: dara.String(secret),
			Endpoint: dara.String(host), Protocol: dara.String("http"), RegionId: dara.String(DefaultRegion)}
		if algorithm != "" {
			cfg.SignatureAlgorithm = dara.String(algorithm)
		}
		c, err := openapi.NewClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	call := func(c *openapi.Client, action string, query map[string]string, inBody bool) (map[string]any, error) {
		params := &openapi.Params{Action: dara.String(action), Version: dara.String(apiVersion), Protocol: dara.String("HTTP"),
			Pathname: dara.String("/"), Method: dara.String("POST"), AuthType: dara.String("AK"), Style: dara.String("RPC"),
			ReqBodyType: dara.String("formData"), BodyType: dara.String("json")}
		req := &openapi.OpenApiRequest{}
		if inBody {
			body := map[string]any{}
			for k, v := range query {
				body[k] = v
			}
			req.Body = body
		} else {
			req.Query = map[string]*string{}
			for k, v := range query {
				req.Query[k] = dara.String(v)
			}
		}
		res, err := c.CallApi(params, req, &dara.RuntimeOptions{})
		if err != nil {
			return nil, err
		}
		body, _ := res["body"].(map[string]any)
		return body, nil
	}
	for _, tc := range []struct {
		name, algorithm string
		inBody          bool
	}{
		{"V3 query", "", false},
		{"V3 form body", "", true},
		{"V1 query", "v2", false},
		{"V1 form body", "v2", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, DefaultAccessKeyID, DefaultAccessKeySecret, tc.algorithm)
			must := func(action string, q map[string]string) map[string]any {
				t.Helper()
				body, err := call(c, action, q, tc.inBody)
				if err != nil {
					t.Fatalf("%s: %v", action, err)
				}
				return body
			}
			attr := func(id string) map[string]any {
				body := must("DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id})
				return body["Items"].(map[string]any)["DBInstanceAttribute"].([]any)[0].(map[string]any)
			}
			waitFor := func(id string, ok func(map[string]any) bool) {
				t.Helper()
				deadline := time.Now().Add(5 * time.Second)
				for !ok(attr(id)) {
					if time.Now().After(deadline) {
						t.Fatalf("%s: timed out; last %v", id, attr(id))
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			id := must("CreateDBInstance", mysqlCreate(map[string]string{"DBInstanceClass": "mysql.n2m.medium.2c", "OptimizedWrites": "none",
				"DBInstanceDescription": "cross check ünïcode"}))["DBInstanceId"].(string)
			waitFor(id, func(a map[string]any) bool { return a["DBInstanceStatus"] == statusRunning })
			if a := attr(id); a["OptimizedWritesInfo"] != owJSON(false, true) || a["DBInstanceDescription"] != "cross check ünïcode" {
				t.Fatalf("after create: %v", a)
			}
			must("ModifyDBInstanceSpec", map[string]string{"DBInstanceId": id, "DBInstanceClass": "mysql.n2m.medium.2c", "DBInstanceStorage": "100", "OptimizedWrites": "optimized"})
			waitFor(id, func(a map[string]any) bool {
				return a["DBInstanceStatus"] == statusRunning && a["OptimizedWritesInfo"] == owJSON(true, true)
			})
			must("DeleteDBInstance", map[string]string{"DBInstanceId": id})
			deadline := time.Now().Add(5 * time.Second)
			for {
				_, err := call(c, "DescribeDBInstanceAttribute", map[string]string{"DBInstanceId": id}, tc.inBody)
				if sdkCode(err) == "InvalidDBInstanceId.NotFound" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("instance not deleted: %v", err)
				}
				time.Sleep(20 * time.Millisecond)
			}

			_, err := call(newClient(t, DefaultAccessKeyID, "wrong-secret", tc.algorithm), "DescribeDBInstances", listParams, tc.inBody)
			if code := sdkCode(err); code != "SignatureDoesNotMatch" {
				t.Fatalf("wrong secret: %v", err)
			}
			_, err = call(newClient(t, "unknown-key", DefaultAccessKeySecret, tc.algorithm), "DescribeDBInstances", listParams, tc.inBody)
			if code := sdkCode(err); code != "InvalidAccessKeyId.NotFound" {
				t.Fatalf("wrong key: %v", err)
			}
		})
	}
}

func sdkCode(err error) string {
	var sdkErr *tea.SDKError
	if errors.As(err, &sdkErr) {
		return tea.StringValue(sdkErr.Code)
	}
	return ""
}

func mustHost(t *testing.T, raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}
