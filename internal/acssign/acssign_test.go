package acssign

import (
	"net/http"
	"testing"
)

// Test vectors from shared/spec/rds-openapi.md §4.2.
func TestV1Vectors(t *testing.T) {
	tests := []struct {
		name, method, secret, want string
		params                     map[string]string
	}{
		{"V1-A ECS doc", "GET", "testsecret", "OLeaidS1JvxuMvnyHOwuJ+uX5qY=", map[string]string{
			"AccessKeyId": "testid", "Action": "DescribeRegions", "Format": "XML",
			"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
			"SignatureVersion": "1.0", "Timestamp": "2016-02-23T12:46:24Z", "Version": "2014-05-26",
		}},
		{"V1-B V2 doc", "GET", "testsecret", "9NaGiOspFP5UPcwX8Iwt2YJXXuk=", map[string]string{
			"AccessKeyId": "testid", "Action": "DescribeDedicatedHosts", "Format": "JSON", "RegionId": "cn-beijing",
			"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "edb2b34af0af9a6d14deaf7c1a5315eb",
			"SignatureVersion": "1.0", "Timestamp": "2023-03-13T08:34:30Z", "Version": "2014-05-26",
		}},
		{"V1-C SMS doc, UTF-8 and JSON values", "GET", "testSecret", "zJDF+Lrzhj/ThnlvIToysFRq6t4=", map[string]string{
			"AccessKeyId": "testId", "Action": "SendSms", "Format": "XML", "OutId": "123",
			"PhoneNumbers": "15300000001", "RegionId": "cn-hangzhou", "SignName": "阿里云短信测试专用",
			"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "45e25e9b-0a6f-4070-8c85-2956eda1b466",
			"SignatureVersion": "1.0", "TemplateCode": "SMS_71390007", "TemplateParam": `{"customer":"test"}`,
			"Timestamp": "2017-07-12T02:42:19Z", "Version": "2017-05-25",
		}},
		{"V1-D RDS doc with the TimeStamp typo", "GET", "testsecret", "BIPOMlu8LXBeZtLQkJTw6iFvw1E=", map[string]string{
			"AccessKeyId": "testid", "Action": "DescribeDBInstances", "Format": "XML", "RegionId": "region1",
			"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "NwDAxvLU6tFE0DVb", "SignatureVersion": "1.0",
			"TimeStamp": "2013-06-01T10:33:56Z", "Version": "2014-08-15",
		}},
		{"V1-D RDS doc with Timestamp", "GET", "testsecret", "jSgwMBJz7IHnP7lPLu8NeibG7Y4=", map[string]string{
			"AccessKeyId": "testid", "Action": "DescribeDBInstances", "Format": "XML", "RegionId": "region1",
			"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "NwDAxvLU6tFE0DVb", "SignatureVersion": "1.0",
			"Timestamp": "2013-06-01T10:33:56Z", "Version": "2014-08-15",
		}},
		{"V1-E darabonba unit test", "", "accessKeySecret", "jHx/oHoHNrbVfhncHEvPdHXZwHU=", map[string]string{"test": "ok"}},
		{"V1-F RDS POST", "POST", "testsecret", "ErIooAOWYTSTeyK+1w5M0CitXsY=", map[string]string{
			"AccessKeyId": "testid", "Action": "ModifyDBInstanceSpec", "DBInstanceId": "rm-uf6wjk5xxxxxxx",
			"Format": "JSON", "OptimizedWrites": "optimized", "RegionId": "cn-hangzhou",
			"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
			"SignatureVersion": "1.0", "Timestamp": "2025-06-01T12:00:00Z", "Version": "2014-08-15",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := V1Signature(tt.method, tt.params, tt.secret); got != tt.want {
				t.Fatalf("signature = %s, want %s\nstring to sign: %s", got, tt.want, V1StringToSign(tt.method, tt.params))
			}
		})
	}
}

func TestV1StringToSignVectorA(t *testing.T) {
	params := map[string]string{
		"AccessKeyId": "testid", "Action": "DescribeRegions", "Format": "XML",
		"SignatureMethod": "HMAC-SHA1", "SignatureNonce": "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
		"SignatureVersion": "1.0", "Timestamp": "2016-02-23T12:46:24Z", "Version": "2014-05-26",
		"Signature": "ignored",
	}
	want := "GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26"
	if got := V1StringToSign("GET", params); got != want {
		t.Fatalf("string to sign:\n got %s\nwant %s", got, want)
	}
}

func sha256OfCanonical(req V3Request) string {
	return SHA256Hex([]byte(V3CanonicalRequest(req, V3SignedHeaderNames(req.Headers))))
}

// Test vectors from shared/spec/rds-openapi.md §5.3.
func TestV3VectorA(t *testing.T) {
	req := V3Request{
		Method: "POST",
		Query: map[string]string{
			"ImageId":  "win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd",
			"RegionId": "cn-shanghai",
		},
		Headers: http.Header{
			"Host":                  {"ecs.cn-shanghai.aliyuncs.com"},
			"X-Acs-Action":          {"RunInstances"},
			"X-Acs-Version":         {"2014-05-26"},
			"X-Acs-Date":            {"2023-10-26T10:22:32Z"},
			"X-Acs-Signature-Nonce": {"3156853299f313e23d1673dc12e1703d"},
			"X-Acs-Content-Sha256":  {EmptyBodySHA256},
		},
		PayloadHash: EmptyBodySHA256,
	}
	if got, want := sha256OfCanonical(req), "7ea06492da5221eba5297e897ce16e55f964061054b7695beedaac1145b1e259"; got != want {
		t.Fatalf("hashed canonical request = %s, want %s", got, want)
	}
	want := "ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0"
	if got := V3Authorization(req, "YourAccessKeyId", "YourAccessKeySecret"); got != want {
		t.Fatalf("authorization:\n got %s\nwant %s", got, want)
	}
}

func TestV3VectorB(t *testing.T) {
	req := V3Request{
		Query:       map[string]string{"test": "ok", "empty": ""},
		Headers:     http.Header{"x-acs-test": {"http"}, "x-acs-TEST": {"https"}},
		PayloadHash: "55e12e91650d2fec56ec74e1d3e4ddbfce2ef3a65890c2a19ecf88a307e76a23",
	}
	want := "ACS3-HMAC-SHA256 Credential=acesskey,SignedHeaders=x-acs-test,Signature=4ab59fffe3c5738ff8a2729f90cc04fe18b02a4b15b2102cbaf92f9ff3df2ea3"
	if got := V3Authorization(req, "acesskey", "secret"); got != want {
		t.Fatalf("authorization:\n got %s\nwant %s", got, want)
	}
}

func TestV3VectorC(t *testing.T) {
	req := V3Request{
		Method: "POST",
		Query:  map[string]string{"DBInstanceId": "rm-uf6wjk5xxxxxxx", "OptimizedWrites": "optimized", "RegionId": "cn-hangzhou"},
		Headers: http.Header{
			"Host":                  {"rds.aliyuncs.com"},
			"X-Acs-Action":          {"ModifyDBInstanceSpec"},
			"X-Acs-Version":         {"2014-08-15"},
			"X-Acs-Date":            {"2025-06-01T12:00:00Z"},
			"X-Acs-Signature-Nonce": {"3156853299f313e23d1673dc12e1703d"},
			"X-Acs-Content-Sha256":  {EmptyBodySHA256},
		},
		PayloadHash: EmptyBodySHA256,
	}
	if got, want := sha256OfCanonical(req), "475c8cc40aadddde8911ae2360173bfb0bdbdcfa5bf92a57d594158cf732c0b3"; got != want {
		t.Fatalf("hashed canonical request = %s, want %s", got, want)
	}
	parts, err := ParseV3Authorization(V3Authorization(req, "testid", "testsecret"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a163f56b82d0f1d7ab3a10eeffab9fae21ae9bdbc72450560771f8e78a9ca62b"; parts.Signature != want {
		t.Fatalf("signature = %s, want %s", parts.Signature, want)
	}
	if parts.AccessKeyID != "testid" || len(parts.SignedHeaders) != 6 {
		t.Fatalf("parsed authorization = %+v", parts)
	}
}

func TestParseV3AuthorizationRejectsMalformed(t *testing.T) {
	for _, value := range []string{"", "HMAC Credential=a,Signature=b", "ACS3-HMAC-SHA256 Credential=a", "ACS3-HMAC-SHA256 Credential"} {
		if _, err := ParseV3Authorization(value); err == nil {
			t.Errorf("ParseV3Authorization(%q) succeeded", value)
		}
	}
}

func TestPercentEncode(t *testing.T) {
	for in, want := range map[string]string{"a b": "a%20b", "*": "%2A", "~": "~", "a+b": "a%2Bb", "/": "%2F", "é": "%C3%A9"} {
		if got := PercentEncode(in); got != want {
			t.Errorf("PercentEncode(%q) = %q, want %q", in, got, want)
		}
	}
}
