package rdsapi

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aliyun/credentials-go/credentials"
	"github.com/google/uuid"
	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/openrds/terraform-provider-rds/internal/acssign"
)

// Backoff bounds between attempts; the cap keeps one wait short so the caller's deadline, not the
// client, decides how long a call may take.
const (
	defaultRetryWaitMin = 250 * time.Millisecond
	defaultRetryWaitMax = 5 * time.Second
	// maxIdleConnsPerHost keeps a connection for each of Terraform's parallel calls (-parallelism,
	// 10 by default) over HTTP/1.1; cleanhttp keeps GOMAXPROCS+1 and closes the rest after each
	// call, so most calls opened a new connection (a TLS handshake against the cloud).
	maxIdleConnsPerHost = 32
)

// Timeouts of one call. A healthy RDS endpoint connects in milliseconds and answers within a few
// seconds; these bounds make an endpoint that hangs or drops packets an error within about 20 s
// (issue 12: under 30 s for a plan or a refresh) instead of minutes. A create that runs into the
// per-call budget is sent again with its ClientToken (rdsservice), so a slow answer costs time,
// never a second instance.
const (
	DefaultConnectTimeout        = 5 * time.Second
	DefaultTLSHandshakeTimeout   = 5 * time.Second
	DefaultResponseHeaderTimeout = 10 * time.Second
	DefaultCallTimeout           = 20 * time.Second
)

const clientUserAgent = "terraform-provider-rds-rdsapi/1"

// Client is the HTTPS implementation of API: RPC-style POST requests signed with ACS3-HMAC-SHA256,
// retried on throttling, transient errors and connection failures.
type Client struct {
	endpoint    string // scheme://host[:port]/
	regionID    string
	credentials credentials.Credential
	// credentialSource is Config.CredentialSource.
	credentialSource string
	httpClient       *http.Client
	userAgent        string
	maxRetries       int
	retryWaitMin     time.Duration
	retryWaitMax     time.Duration
	// callTimeout bounds one call, all its attempts and backoff included.
	callTimeout time.Duration
	pacer       *pacer // paces calls per action (ratelimit.go)
	// now and newNonce are replaced in tests.
	now      func() time.Time
	newNonce func() string
	// cloudOffset is how far the cloud's clock (its last answer's Date header) is ahead of ours,
	// in nanoseconds; 0 while they agree within the header's one-second resolution.
	cloudOffset atomic.Int64
	// recorder writes a cassette per answer when recording is on (record.go); nil otherwise.
	recorder *recorder
}

// CloudOffset is how far the cloud's clock was ahead of the local one at its last answer (zero
// while they agree within a second or two): times the plan names, such as the next maintenance
// window, are the cloud's.
func (c *Client) CloudOffset() time.Duration { return time.Duration(c.cloudOffset.Load()) }

func (c *Client) observeDate(header string) {
	t, err := http.ParseTime(header)
	if err != nil {
		return
	}
	offset := t.Sub(c.now())
	if offset > -2*time.Second && offset < 2*time.Second {
		offset = 0
	}
	c.cloudOffset.Store(int64(offset))
}

var _ API = (*Client)(nil)

// New validates cfg and builds a client. MaxRetries is taken literally (0: one attempt only).
// Credentials are read on every request, so refreshed STS tokens apply.
func New(cfg Config) (*Client, error) {
	region := strings.TrimSpace(cfg.RegionID)
	if region == "" {
		return nil, errors.New("rdsapi: region is required")
	}
	if cfg.Credentials == nil {
		return nil, errors.New("rdsapi: credentials are required")
	}
	endpoint, err := resolveEndpoint(region, cfg.Endpoint, cfg.Insecure)
	if err != nil {
		return nil, err
	}
	if cfg.MaxRetries < 0 {
		return nil, fmt.Errorf("rdsapi: max retries must not be negative, got %d", cfg.MaxRetries)
	}
	if cfg.MaxRequestsPerSecond < 0 {
		return nil, fmt.Errorf("rdsapi: max requests per second must not be negative, got %v", cfg.MaxRequestsPerSecond)
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = newHTTPClient(cfg)
	}
	var rec *recorder
	if dir := firstNonEmpty(cfg.RecordDir, os.Getenv(RecordEnv)); dir != "" {
		if rec, err = newRecorder(dir); err != nil {
			return nil, err
		}
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	userAgent := clientUserAgent
	if ua := strings.TrimSpace(cfg.UserAgent); ua != "" {
		userAgent += " " + ua
	}
	return &Client{
		endpoint:         endpoint.String(),
		regionID:         region,
		credentials:      cfg.Credentials,
		credentialSource: cfg.CredentialSource,
		recorder:         rec,
		httpClient:       httpClient,
		userAgent:        userAgent,
		maxRetries:       cfg.MaxRetries,
		retryWaitMin:     defaultRetryWaitMin,
		retryWaitMax:     defaultRetryWaitMax,
		callTimeout:      orDefault(cfg.CallTimeout, DefaultCallTimeout),
		pacer:            newPacer(cfg.MaxRequestsPerSecond, time.Now),
		now:              now,
		newNonce:         uuid.NewString,
	}, nil
}

// newHTTPClient is a pooled client whose every phase has a timeout: connect, TLS handshake and
// the wait for the response header. The whole call is bounded separately (Config.CallTimeout).
func newHTTPClient(cfg Config) *http.Client {
	httpClient := cleanhttp.DefaultPooledClient()
	if transport, ok := httpClient.Transport.(*http.Transport); ok {
		transport.DialContext = (&net.Dialer{
			Timeout:   orDefault(cfg.ConnectTimeout, DefaultConnectTimeout),
			KeepAlive: 30 * time.Second,
		}).DialContext
		transport.TLSHandshakeTimeout = orDefault(cfg.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
		transport.ResponseHeaderTimeout = orDefault(cfg.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
		transport.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		transport.MaxIdleConnsPerHost = maxIdleConnsPerHost
	}
	return httpClient
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Endpoint is the base URL every request goes to.
func (c *Client) Endpoint() string { return c.endpoint }

// call sends one action and decodes a successful answer into out (nil: check it is JSON and
// discard it). replaySafe is explained on attemptLog.
func (c *Client) call(ctx context.Context, action string, p params, replaySafe bool, out any) error {
	return c.callWithBody(ctx, action, p, nil, replaySafe, out)
}

// callWithBody is call with some parameters in a signed form body instead of the query string:
// secrets (account passwords) go there, because the URL reaches debug logs.
func (c *Client) callWithBody(ctx context.Context, action string, p, form params, replaySafe bool, out any) error {
	caller := ctx
	// The call's budget starts when the action's pacing lets its first attempt go: a plan of many
	// instances under a small quota queues its calls, and the queue is not the call's time.
	placed := c.pacer.firstWait(caller, action)
	ctx, cancel := context.WithTimeout(ctx, c.callTimeout)
	defer cancel()
	p["Format"] = "JSON"
	var payload []byte
	payloadHash := acssign.EmptyBodySHA256
	if len(form) > 0 {
		payload = []byte(form.encode())
		payloadHash = acssign.SHA256Hex(payload)
	}
	endpoint, version := c.target(action)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, endpoint+"?"+p.encode(), payload)
	if err != nil {
		return fmt.Errorf("RDS %s: building the request: %w", action, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("x-acs-action", action)
	req.Header.Set("x-acs-version", version)
	req.Header.Set("x-acs-content-sha256", payloadHash)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if err := c.sign(req.Request); err != nil {
		if c.credentialSource != "" {
			return fmt.Errorf("RDS %s: %w (credentials from %s)", action, err, c.credentialSource)
		}
		return fmt.Errorf("RDS %s: %w", action, err)
	}

	log := &attemptLog{action: action, endpoint: endpoint, replaySafe: replaySafe}
	retrying := &retryablehttp.Client{
		HTTPClient:   c.httpClient,
		Logger:       tflogLogger{ctx: ctx},
		RetryWaitMin: c.retryWaitMin,
		RetryWaitMax: c.retryWaitMax,
		RetryMax:     c.maxRetries,
		CheckRetry:   log.checkRetry,
		Backoff:      exponentialJitter,
		// Every attempt gets a fresh date, nonce and signature: the cloud rejects a reused nonce.
		PrepareRetry: c.sign,
		ErrorHandler: func(resp *http.Response, err error, attempts int) (*http.Response, error) {
			if err == nil && resp != nil {
				return resp, nil // an error answer after the last retry: decoded below
			}
			if resp != nil {
				resp.Body.Close()
			}
			return nil, fmt.Errorf("giving up after %d attempt(s): %w", attempts, err)
		},
	}
	c.pacer.attach(retrying, action, placed)
	resp, err := retrying.Do(req)
	if err != nil {
		return c.callError(caller, ctx, action, log, err)
	}
	defer resp.Body.Close()
	c.observeDate(resp.Header.Get("Date"))
	body, err := io.ReadAll(resp.Body) // already buffered and bounded by checkRetry
	if err != nil {
		return fmt.Errorf("RDS %s: reading the response: %w", action, err)
	}
	c.recorder.record(endpoint, action, version, p, form, resp.StatusCode, body)
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		err := responseError(action, resp.StatusCode, body)
		if apiErr, ok := err.(*Error); ok {
			apiErr.InstanceID = p["DBInstanceId"]
			apiErr.CredentialSource = c.credentialSource
		}
		return err
	}
	return decodeBody(action, body, out)
}

// sign sets the V3 headers and Authorization on req with the current credentials, a fresh
// nonce and the current time. It replaces the header map rather than editing it, because
// retryablehttp's retry copies share the map with the request the transport may still hold.
func (c *Client) sign(req *http.Request) error {
	cred, err := c.credentials.GetCredential()
	if err != nil {
		return fmt.Errorf("getting credentials: %w", err)
	}
	if cred == nil || cred.AccessKeyId == nil || *cred.AccessKeyId == "" || cred.AccessKeySecret == nil || *cred.AccessKeySecret == "" {
		return errors.New("the credentials have no access key id or secret")
	}
	header := req.Header.Clone()
	header.Del("Authorization")
	header.Del("x-acs-security-token")
	header.Set("x-acs-date", c.now().UTC().Format(acssign.TimestampLayout))
	header.Set("x-acs-signature-nonce", c.newNonce())
	if cred.SecurityToken != nil && *cred.SecurityToken != "" {
		header.Set("x-acs-security-token", *cred.SecurityToken)
	}
	query := map[string]string{}
	for name, values := range req.URL.Query() {
		query[name] = values[0]
	}
	signed := header.Clone()
	signed.Set("host", req.URL.Host)
	header.Set("Authorization", acssign.V3Authorization(acssign.V3Request{
		Method:      req.Method,
		Path:        "/",
		Query:       query,
		Headers:     signed,
		PayloadHash: req.Header.Get("x-acs-content-sha256"),
	}, *cred.AccessKeyId, *cred.AccessKeySecret))
	req.Header = header
	return nil
}

// parseErrorBody reads the standard error body. JSON keys match case-insensitively, so the
// lowercase code/message/requestId form decodes too. ok is false when there is no error code.
func parseErrorBody(status int, body []byte) (*Error, bool) {
	var wire struct {
		Code      FlexString
		Message   FlexString
		RequestID FlexString `json:"RequestId"`
		HostID    FlexString `json:"HostId"`
		Recommend FlexString
	}
	if !looksLikeObject(body) {
		return nil, false
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		return nil, false //nolint:nilerr // a body that does not decode is not an error body; the caller reports the raw answer
	}
	if strings.TrimSpace(string(wire.Code)) == "" {
		return nil, false
	}
	return &Error{
		HTTPStatus: status,
		Code:       strings.TrimSpace(string(wire.Code)),
		Message:    string(wire.Message),
		RequestID:  string(wire.RequestID),
		HostID:     string(wire.HostID),
		Recommend:  string(wire.Recommend),
	}, true
}

// responseError turns an error answer into an *Error, or a plain error quoting the start of a
// body that is not the standard error JSON.
func responseError(action string, status int, body []byte) error {
	if apiErr, ok := parseErrorBody(status, body); ok {
		return apiErr
	}
	if strings.Contains(string(body), "HTTP request to an HTTPS server") {
		return fmt.Errorf("RDS %s: the endpoint speaks HTTPS, but the request was sent in plain HTTP: check the scheme of "+
			"`endpoint` (https://host[:port]); not retried", action)
	}
	return fmt.Errorf("RDS %s: HTTP %d without an API error body (body starts %s)", action, status, quoteForError(string(body)))
}

func looksLikeObject(body []byte) bool {
	trimmed := bytes.TrimSpace(body)
	return len(trimmed) > 0 && trimmed[0] == '{'
}

// decodeBody decodes a successful answer, refusing anything but a JSON object.
func decodeBody(action string, body []byte, out any) error {
	if out == nil {
		out = &struct{}{}
	}
	if !looksLikeObject(body) {
		return fmt.Errorf("RDS %s: the response is not a JSON object (body starts %s)", action, quoteForError(string(body)))
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("RDS %s: decoding the response: %w (body starts %s)", action, err, quoteForError(string(body)))
	}
	return nil
}

// decodeDBInstanceAttribute picks the instance out of a DescribeDBInstanceAttribute answer; an
// empty list means the instance does not exist.
func decodeDBInstanceAttribute(id string, body []byte) (*DBInstanceAttribute, error) {
	var out struct {
		RequestID string `json:"RequestId"`
		Items     struct {
			DBInstanceAttribute []DBInstanceAttribute
		}
	}
	if err := decodeBody("DescribeDBInstanceAttribute", body, &out); err != nil {
		return nil, err
	}
	items := out.Items.DBInstanceAttribute
	for i := range items {
		if items[i].DBInstanceID == id {
			return &items[i], nil
		}
	}
	return nil, &Error{
		HTTPStatus: http.StatusOK,
		Code:       "InvalidDBInstanceId.NotFound",
		Message:    fmt.Sprintf("DescribeDBInstanceAttribute returned no instance %q", id),
		RequestID:  out.RequestID,
	}
}

// CreateDBInstance creates a primary instance. The request's ClientToken (generated when empty)
// is sent on every attempt, so a retried create returns the first instance.
func (c *Client) CreateDBInstance(ctx context.Context, req *CreateDBInstanceRequest) (*CreateDBInstanceResponse, error) {
	p, err := encodeCreateDBInstance(req, c.regionID)
	if err != nil {
		return nil, fmt.Errorf("RDS CreateDBInstance: %w", err)
	}
	var out CreateDBInstanceResponse
	if err := c.call(ctx, "CreateDBInstance", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateReadOnlyDBInstance creates a read-only instance of PrimaryDBInstanceID, idempotently.
func (c *Client) CreateReadOnlyDBInstance(ctx context.Context, req *CreateReadOnlyDBInstanceRequest) (*CreateDBInstanceResponse, error) {
	p, err := encodeCreateReadOnlyDBInstance(req, c.regionID)
	if err != nil {
		return nil, fmt.Errorf("RDS CreateReadOnlyDBInstance: %w", err)
	}
	var out CreateDBInstanceResponse
	if err := c.call(ctx, "CreateReadOnlyDBInstance", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CloneDBInstance restores a new instance from SourceDBInstanceID, idempotently.
func (c *Client) CloneDBInstance(ctx context.Context, req *CloneDBInstanceRequest) (*CreateDBInstanceResponse, error) {
	p, err := encodeCloneDBInstance(req, c.regionID)
	if err != nil {
		return nil, fmt.Errorf("RDS CloneDBInstance: %w", err)
	}
	var out CreateDBInstanceResponse
	if err := c.call(ctx, "CloneDBInstance", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DescribeDBInstanceAttribute returns the instance, or an *Error with IsNotFound true.
func (c *Client) DescribeDBInstanceAttribute(ctx context.Context, dbInstanceID string) (*DBInstanceAttribute, error) {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return nil, fmt.Errorf("RDS DescribeDBInstanceAttribute: %w", err)
	}
	var raw json.RawMessage
	if err := c.call(ctx, "DescribeDBInstanceAttribute", p, true, &raw); err != nil {
		return nil, err
	}
	return decodeDBInstanceAttribute(dbInstanceID, raw)
}

// DescribeDBInstances returns one page, in token or classic paging mode (never both).
func (c *Client) DescribeDBInstances(ctx context.Context, req *DescribeDBInstancesRequest) (*DescribeDBInstancesResponse, error) {
	p, err := encodeDescribeDBInstances(req, c.regionID)
	if err != nil {
		return nil, fmt.Errorf("RDS %w", err)
	}
	var out DescribeDBInstancesResponse
	if err := c.call(ctx, "DescribeDBInstances", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DescribeAvailableClasses lists the classes offered for a combination.
func (c *Client) DescribeAvailableClasses(ctx context.Context, req *DescribeAvailableClassesRequest) (*DescribeAvailableClassesResponse, error) {
	var out DescribeAvailableClassesResponse
	if err := c.call(ctx, "DescribeAvailableClasses", encodeDescribeAvailableClasses(req, c.regionID), true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDBInstanceSpec sends one spec change. It has no ClientToken, so an attempt whose outcome
// is unknown (lost response, InternalError) is returned to the caller instead of being resent.
func (c *Client) ModifyDBInstanceSpec(ctx context.Context, req *ModifyDBInstanceSpecRequest) (*ModifyDBInstanceSpecResponse, error) {
	p, err := encodeModifyDBInstanceSpec(req)
	if err != nil {
		return nil, fmt.Errorf("RDS ModifyDBInstanceSpec: %w", err)
	}
	var out ModifyDBInstanceSpecResponse
	if err := c.call(ctx, "ModifyDBInstanceSpec", p, false, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ModifyDBInstanceDescription sets the description.
func (c *Client) ModifyDBInstanceDescription(ctx context.Context, dbInstanceID, description string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceDescription: %w", err)
	}
	p.set("DBInstanceDescription", description)
	return c.call(ctx, "ModifyDBInstanceDescription", p, true, nil)
}

// ModifySecurityIps replaces one IP allow-list array.
func (c *Client) ModifySecurityIps(ctx context.Context, req *ModifySecurityIpsRequest) error {
	p, err := encodeModifySecurityIps(req)
	if err != nil {
		return fmt.Errorf("RDS ModifySecurityIps: %w", err)
	}
	return c.call(ctx, "ModifySecurityIps", p, true, nil)
}

// ModifyDBInstanceDeletionProtection turns deletion protection on or off.
func (c *Client) ModifyDBInstanceDeletionProtection(ctx context.Context, dbInstanceID string, enabled bool) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS ModifyDBInstanceDeletionProtection: %w", err)
	}
	p.setBool("DeletionProtection", enabled)
	p.set("ClientToken", NewClientToken())
	return c.call(ctx, "ModifyDBInstanceDeletionProtection", p, true, nil)
}

// RestartDBInstance restarts the instance; its ClientToken makes a resent restart a no-op.
func (c *Client) RestartDBInstance(ctx context.Context, dbInstanceID string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS RestartDBInstance: %w", err)
	}
	p.set("ClientToken", NewClientToken())
	return c.call(ctx, "RestartDBInstance", p, true, nil)
}

// DeleteDBInstance releases the instance. A resent delete is harmless: the instance is then
// Deleting (busy) or gone (not found), both of which the caller handles.
func (c *Client) DeleteDBInstance(ctx context.Context, dbInstanceID string) error {
	p, err := instanceParams(dbInstanceID)
	if err != nil {
		return fmt.Errorf("RDS DeleteDBInstance: %w", err)
	}
	return c.call(ctx, "DeleteDBInstance", p, true, nil)
}
