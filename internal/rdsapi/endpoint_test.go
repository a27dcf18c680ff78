package rdsapi

import (
	"strings"
	"testing"
)

func TestEndpointForRegion(t *testing.T) {
	for region, want := range map[string]string{
		"cn-hangzhou":           "rds.aliyuncs.com",
		"cn-beijing":            "rds.aliyuncs.com",
		"cn-hongkong":           "rds.aliyuncs.com",
		"ap-southeast-1":        "rds.aliyuncs.com",
		"us-east-1":             "rds.aliyuncs.com",
		"cn-shanghai-finance-1": "rds.aliyuncs.com",
		"cn-north-2-gov-1":      "rds.aliyuncs.com",
		"cn-zhangjiakou":        "rds.cn-zhangjiakou.aliyuncs.com",
		"cn-wulanchabu":         "rds.cn-wulanchabu.aliyuncs.com",
		"ap-northeast-1":        "rds.ap-northeast-1.aliyuncs.com",
		"eu-central-1":          "rds.eu-central-1.aliyuncs.com",
		"me-east-1":             "rds.me-east-1.aliyuncs.com",
	} {
		if got := EndpointForRegion(region); got != want {
			t.Errorf("%s: %s, want %s", region, got, want)
		}
	}
}

func TestNewValidatesConfig(t *testing.T) {
	creds := staticCredentials(t)
	tests := []struct {
		name         string
		cfg          Config
		wantEndpoint string
		wantErr      string
	}{
		{"regional default", Config{RegionID: "eu-central-1", Credentials: creds}, "https://rds.eu-central-1.aliyuncs.com/", ""},
		{"central default", Config{RegionID: "cn-hangzhou", Credentials: creds}, "https://rds.aliyuncs.com/", ""},
		{"bare host override", Config{RegionID: "cn-hangzhou", Endpoint: "rds-vpc.cn-hangzhou.aliyuncs.com", Credentials: creds}, "https://rds-vpc.cn-hangzhou.aliyuncs.com/", ""},
		{"host and port", Config{RegionID: "cn-hangzhou", Endpoint: "rds.internal:8443", Credentials: creds}, "https://rds.internal:8443/", ""},
		{"https with slash", Config{RegionID: "cn-hangzhou", Endpoint: "https://rds.example.com/", Credentials: creds}, "https://rds.example.com/", ""},
		{"http loopback v4", Config{RegionID: "cn-hangzhou", Endpoint: "http://127.0.0.1:8080", Credentials: creds}, "http://127.0.0.1:8080/", ""},
		{"http loopback v6", Config{RegionID: "cn-hangzhou", Endpoint: "http://[::1]:8080", Credentials: creds}, "http://[::1]:8080/", ""},
		{"http localhost", Config{RegionID: "cn-hangzhou", Endpoint: "http://localhost:9", Credentials: creds}, "http://localhost:9/", ""},
		{"http remote with insecure", Config{RegionID: "cn-hangzhou", Endpoint: "http://10.1.2.3:80", Insecure: true, Credentials: creds}, "http://10.1.2.3:80/", ""},
		{"http remote refused", Config{RegionID: "cn-hangzhou", Endpoint: "http://rds.example.com", Credentials: creds}, "", "plain http on a non-loopback host"},
		{"http private IP refused", Config{RegionID: "cn-hangzhou", Endpoint: "http://10.1.2.3", Credentials: creds}, "", "plain http on a non-loopback host"},
		{"missing region", Config{Credentials: creds}, "", "region is required"},
		{"malformed region", Config{RegionID: "CN_Hangzhou", Credentials: creds}, "", "not a valid region id"},
		{"missing credentials", Config{RegionID: "cn-hangzhou"}, "", "credentials are required"},
		{"other scheme", Config{RegionID: "cn-hangzhou", Endpoint: "ftp://rds.example.com", Credentials: creds}, "", "scheme must be https or http"},
		{"path", Config{RegionID: "cn-hangzhou", Endpoint: "https://rds.example.com/api", Credentials: creds}, "", "without path or query"},
		{"query", Config{RegionID: "cn-hangzhou", Endpoint: "https://rds.example.com?x=1", Credentials: creds}, "", "without path or query"},
		{"user info", Config{RegionID: "cn-hangzhou", Endpoint: "https://u:secretpw@rds.example.com", Credentials: creds}, "", "user information"},
		{"user info with another problem", Config{RegionID: "cn-hangzhou", Endpoint: "ftp://u:secretpw@rds.example.com", Credentials: creds}, "", "user information"},
		{"unparsable with a password", Config{RegionID: "cn-hangzhou", Endpoint: "https://u:secretpw@rds.example.com:port", Credentials: creds}, "", "not a valid URL"},
		{"no host", Config{RegionID: "cn-hangzhou", Endpoint: "https://:443", Credentials: creds}, "", "no host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "secretpw") {
					t.Errorf("the error repeats the endpoint's password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Endpoint() != tt.wantEndpoint {
				t.Errorf("endpoint %s, want %s", c.Endpoint(), tt.wantEndpoint)
			}
		})
	}
}

func TestMaxRetriesIsLiteral(t *testing.T) {
	for _, configured := range []int{0, 3} {
		c, err := New(Config{RegionID: "cn-hangzhou", Credentials: staticCredentials(t), MaxRetries: configured})
		if err != nil {
			t.Fatal(err)
		}
		if c.maxRetries != configured {
			t.Errorf("MaxRetries %d gives %d retries", configured, c.maxRetries)
		}
	}
	if _, err := New(Config{RegionID: "cn-hangzhou", Credentials: staticCredentials(t), MaxRetries: -1}); err == nil {
		t.Error("negative MaxRetries accepted")
	}
}
