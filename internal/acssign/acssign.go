// Package acssign implements Alibaba Cloud's two RPC signature schemes: V1 (HMAC-SHA1,
// SignatureVersion=1.0) and V3 (ACS3-HMAC-SHA256 in the Authorization header). The client signs
// with V3; the simulator verifies both, since Alibaba's own clients still send V1.
//
// Entry points:
//   - V3, the client's scheme: [V3Authorization] builds the Authorization header of a [V3Request]
//     (from [V3CanonicalRequest] and [V3Signature]); [ParseV3Authorization] splits one apart for
//     the simulator to verify; [SHA256Hex] hashes the payload.
//   - V1, verified by the simulator: [V1Signature] over [V1StringToSign], with [PercentEncode].
package acssign

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// V3Algorithm is the algorithm name of the V3 signature.
const V3Algorithm = "ACS3-HMAC-SHA256"

// EmptyBodySHA256 is the lowercase hex SHA-256 of an empty payload.
const EmptyBodySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// TimestampLayout is the UTC time format of Timestamp and x-acs-date.
const TimestampLayout = "2006-01-02T15:04:05Z"

// PercentEncode encodes s as both schemes require: RFC 3986 unreserved characters stay, every
// other byte becomes %XX in upper case (space is %20, not +).
func PercentEncode(s string) string {
	return rfc3986.Replace(url.QueryEscape(s))
}

// rfc3986 turns url.QueryEscape's form encoding into RFC 3986's; built once, as a Replacer is
// meant to be (every signed request encodes each of its parameters).
var rfc3986 = strings.NewReplacer("+", "%20", "*", "%2A", "%7E", "~")

// canonicalQuery sorts params by name and joins name=value pairs, both percent-encoded.
func canonicalQuery(params map[string]string) string {
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	pairs := make([]string, 0, len(names))
	for _, name := range names {
		pairs = append(pairs, PercentEncode(name)+"="+PercentEncode(params[name]))
	}
	return strings.Join(pairs, "&")
}

// V1StringToSign builds METHOD&%2F&percentEncode(canonical query) over every parameter except
// Signature.
func V1StringToSign(method string, params map[string]string) string {
	withoutSignature := make(map[string]string, len(params))
	for name, value := range params {
		if name != "Signature" {
			withoutSignature[name] = value
		}
	}
	return method + "&" + PercentEncode("/") + "&" + PercentEncode(canonicalQuery(withoutSignature))
}

// V1Signature is Base64(HMAC-SHA1(secret + "&", V1StringToSign(method, params))).
func V1Signature(method string, params map[string]string, secret string) string {
	mac := hmac.New(sha1.New, []byte(secret+"&"))
	mac.Write([]byte(V1StringToSign(method, params)))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// V3Request is the part of a request the V3 signature covers.
type V3Request struct {
	Method string
	// Path is the canonical URI; empty means "/".
	Path  string
	Query map[string]string
	// Headers are the request headers; only host, content-type and x-acs-* are signed.
	Headers http.Header
	// PayloadHash is the lowercase hex SHA-256 of the body (the x-acs-content-sha256 value).
	PayloadHash string
}

// V3SignedHeaderNames lists, sorted and lowercased, the header names V3 signs.
func V3SignedHeaderNames(headers http.Header) []string {
	seen := map[string]bool{}
	for name := range headers {
		lower := strings.ToLower(name)
		if lower == "host" || lower == "content-type" || strings.HasPrefix(lower, "x-acs-") {
			seen[lower] = true
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// V3CanonicalRequest builds the canonical request over the named headers. The values of a
// repeated header (or of headers differing only in case) are sorted and joined with ",", as
// Alibaba's SDK does.
func V3CanonicalRequest(req V3Request, signedHeaders []string) string {
	path := req.Path
	if path == "" {
		path = "/"
	}
	values := map[string][]string{}
	for name, vals := range req.Headers {
		lower := strings.ToLower(name)
		for _, v := range vals {
			values[lower] = append(values[lower], strings.TrimSpace(v))
		}
	}
	var headerLines strings.Builder
	for _, name := range signedHeaders {
		vals := values[name]
		sort.Strings(vals)
		headerLines.WriteString(name + ":" + strings.Join(vals, ",") + "\n")
	}
	return strings.Join([]string{
		req.Method,
		path,
		canonicalQuery(req.Query),
		headerLines.String(),
		strings.Join(signedHeaders, ";"),
		req.PayloadHash,
	}, "\n")
}

// V3Signature is hex(HMAC-SHA256(secret, "ACS3-HMAC-SHA256\n" + hex(SHA256(canonical request)))).
func V3Signature(canonicalRequest, secret string) string {
	hashed := sha256.Sum256([]byte(canonicalRequest))
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(V3Algorithm + "\n" + hex.EncodeToString(hashed[:])))
	return hex.EncodeToString(mac.Sum(nil))
}

// V3Authorization computes the Authorization header value for req, signing every header V3 covers.
func V3Authorization(req V3Request, accessKeyID, secret string) string {
	signed := V3SignedHeaderNames(req.Headers)
	signature := V3Signature(V3CanonicalRequest(req, signed), secret)
	return fmt.Sprintf("%s Credential=%s,SignedHeaders=%s,Signature=%s",
		V3Algorithm, accessKeyID, strings.Join(signed, ";"), signature)
}

// V3AuthorizationParts is a parsed Authorization header.
type V3AuthorizationParts struct {
	AccessKeyID   string
	SignedHeaders []string
	Signature     string
}

// ParseV3Authorization splits an "ACS3-HMAC-SHA256 Credential=…,SignedHeaders=…,Signature=…" value.
func ParseV3Authorization(value string) (V3AuthorizationParts, error) {
	var parts V3AuthorizationParts
	rest, ok := strings.CutPrefix(strings.TrimSpace(value), V3Algorithm+" ")
	if !ok {
		return parts, fmt.Errorf("authorization does not start with %q", V3Algorithm)
	}
	for _, field := range strings.Split(rest, ",") {
		name, val, found := strings.Cut(strings.TrimSpace(field), "=")
		if !found {
			return parts, fmt.Errorf("authorization field %q has no value", field)
		}
		switch name {
		case "Credential":
			parts.AccessKeyID = val
		case "SignedHeaders":
			if val != "" {
				parts.SignedHeaders = strings.Split(val, ";")
			}
		case "Signature":
			parts.Signature = val
		}
	}
	if parts.AccessKeyID == "" || parts.Signature == "" {
		return parts, fmt.Errorf("authorization lacks Credential or Signature")
	}
	return parts, nil
}

// SHA256Hex is the lowercase hex SHA-256 of body.
func SHA256Hex(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
