package rdsapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
)

// Error is an error answer from the RDS OpenAPI: HTTP 4xx/5xx with the standard JSON body.
// Callers branch on Code, never on HTTPStatus: the cloud sends the same code with different
// statuses.
type Error struct {
	HTTPStatus int
	Code       string
	Message    string
	RequestID  string
	HostID     string
	Recommend  string
	// InstanceID is the DBInstanceId the refused request named (empty when it named none), so
	// that a retry of a busy answer can look at the instance.
	InstanceID string
	// CredentialSource is Config.CredentialSource, named when the credentials were refused.
	CredentialSource string
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("RDS API error %s (HTTP %d): %s", e.Code, e.HTTPStatus, e.Message)
	if e.RequestID != "" {
		msg += " (request id " + e.RequestID + ")"
	}
	if fix := codeFixes[e.Code]; fix != "" {
		msg += ". " + fix
	}
	if e.CredentialSource != "" && e.Class() == ClassAuth {
		msg += ". The credentials in use came from " + e.CredentialSource
	}
	return msg
}

// codeFixes name the cause and the fix of the errors that no retry can cure, so that the one
// error a user sees says what to do.
var codeFixes = map[string]string{
	"InvalidSecurityToken.Expired": "The STS security token has expired (or was revoked). Get new temporary credentials " +
		"(for example `aliyun sts AssumeRole`) and set security_token / ALIBABA_CLOUD_SECURITY_TOKEN with the matching " +
		"access_key and secret_key, or use a CLI profile that refreshes them; not retried",
	"InvalidSecurityToken.Malformed": "The STS security token is not a valid token. Set security_token / " +
		"ALIBABA_CLOUD_SECURITY_TOKEN to the token issued together with the access key; not retried",
	"InvalidSecurityToken.Mismatch": "The STS security token does not belong to this AccessKey ID. Set the access key, " +
		"secret and token from the same AssumeRole answer; not retried",
	"InvalidAccessKeyId.NotFound": "The AccessKey ID does not exist: it was deleted or revoked, or it is a temporary " +
		"(STS) key that has expired. Check access_key / ALIBABA_CLOUD_ACCESS_KEY_ID, or get new STS credentials; not retried",
	"InvalidAccessKeyId.Inactive": "The AccessKey is disabled. Enable it in the RAM console or use another key; not retried",
	"SignatureDoesNotMatch": "The AccessKey secret does not match the AccessKey ID. Check secret_key / " +
		"ALIBABA_CLOUD_ACCESS_KEY_SECRET; not retried",
	"InvalidTimeStamp.Expired": "This machine's clock differs from the cloud's by more than the 15-minute signature " +
		"window. Synchronise the clock (NTP, e.g. `timedatectl set-ntp true`) and run again; not retried",
	"Forbidden.RAM": "The RAM user or role may not call this action. Grant it the rds:<action> permission " +
		"(for example the AliyunRDSFullAccess policy); not retried",
}

// ErrorClass says how a caller should react to an error code.
type ErrorClass int

const (
	// ClassPermanent means fix the request; do not retry.
	ClassPermanent ErrorClass = iota
	// ClassThrottled means the caller was rate limited; retry with backoff.
	ClassThrottled
	// ClassTransient means a server-side failure; retry with backoff.
	ClassTransient
	// ClassBusy means the instance is in another task; retry until the operation's deadline.
	ClassBusy
	// ClassNotFound means the instance does not exist.
	ClassNotFound
	// ClassAuth means the credentials or the signature were refused; do not retry.
	ClassAuth
)

func (c ErrorClass) String() string {
	return [...]string{"permanent", "throttled", "transient", "busy", "not-found", "auth"}[c]
}

var codeClasses = map[string]ErrorClass{
	"Throttling":                              ClassThrottled,
	"Throttling.User":                         ClassThrottled,
	"Throttling.Api":                          ClassThrottled,
	"Rejected.Throttling":                     ClassThrottled,
	"ServiceUnavailable":                      ClassTransient,
	"InternalError":                           ClassTransient,
	"InvokeProxyFailure":                      ClassTransient,
	"ExternalFailure":                         ClassTransient,
	"RequestMetaDataFailed":                   ClassTransient,
	"CallLxSdkFailed":                         ClassTransient,
	"OperationDenied.DBInstanceStatus":        ClassBusy,
	"IncorrectDBInstanceState":                ClassBusy,
	"OperationDenied.ReadDBInstanceStatus":    ClassBusy,
	"OperationDenied.MasterDBInstanceState":   ClassBusy,
	"OperationDenied.PrimaryDBInstanceStatus": ClassBusy,
	"ConcurrentTaskExceeded":                  ClassBusy,
	"InvalidOrderTask.NotSupport":             ClassBusy,
	"LockTimeout":                             ClassBusy,
	"InvalidConcurrentOperate":                ClassBusy,
	"InvalidDBInstanceId.NotFound":            ClassNotFound,
	"InvalidDBInstanceName.NotFound":          ClassNotFound,
	"InvalidAccessKeyId.NotFound":             ClassAuth,
	"InvalidAccessKeyId.Inactive":             ClassAuth,
	"IncompleteSignature":                     ClassAuth,
	"SignatureDoesNotMatch":                   ClassAuth,
	"SignatureNonceUsed":                      ClassAuth,
	"InvalidSecurityToken.Expired":            ClassAuth,
	"InvalidSecurityToken.Malformed":          ClassAuth,
	"InvalidSecurityToken.Mismatch":           ClassAuth,
	"InvalidTimeStamp.Expired":                ClassAuth,
	"Forbidden.RAM":                           ClassAuth,
	"Forbidden":                               ClassAuth,
}

// ClassifyCode maps an Alibaba error code to its class. Unlisted codes that contain "Throttling"
// count as throttling, and unlisted codes on a 5xx answer as transient.
func ClassifyCode(code string, httpStatus int) ErrorClass {
	if class, ok := codeClasses[code]; ok {
		return class
	}
	if strings.Contains(code, "Throttling") {
		return ClassThrottled
	}
	if httpStatus >= 500 && httpStatus != 501 {
		return ClassTransient
	}
	return ClassPermanent
}

// Class is the error's class by code.
func (e *Error) Class() ErrorClass { return ClassifyCode(e.Code, e.HTTPStatus) }

func classOf(err error) (ErrorClass, bool) {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr.Class(), true
	}
	return 0, false
}

// IsNotFound reports whether err says the instance does not exist.
func IsNotFound(err error) bool { c, ok := classOf(err); return ok && c == ClassNotFound }

// IsAuth reports whether err is a refusal of the credentials, the signature or the clock: no
// resend cures it.
func IsAuth(err error) bool { c, ok := classOf(err); return ok && c == ClassAuth }

// IsThrottled reports whether err is a throttling answer.
func IsThrottled(err error) bool { c, ok := classOf(err); return ok && c == ClassThrottled }

// IsBusy reports whether err says the instance is busy with another task.
func IsBusy(err error) bool { c, ok := classOf(err); return ok && c == ClassBusy }

// IsTransient reports whether err is a server-side failure worth retrying.
func IsTransient(err error) bool { c, ok := classOf(err); return ok && c == ClassTransient }

// ErrorCode returns the API error code in err, or "".
func ErrorCode(err error) string {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr.Code
	}
	return ""
}

// ErrNoAnswer marks a call that got no usable answer within its per-call budget
// (Config.CallTimeout): the endpoint hangs, drops packets or keeps failing.
var ErrNoAnswer = errors.New("no answer within the per-call budget")

// callError builds the error of a call that got no answer: out of the caller's time or
// cancelled, out of its own budget, or failed for good. It names the endpoint and what happened.
func (c *Client) callError(caller, ctx context.Context, action string, log *attemptLog, err error) error {
	last := log.lastErr
	if last == nil {
		last = err
	}
	switch {
	case caller.Err() != nil:
		if log.lastErr != nil {
			// Cancelled or out of time while retrying: say what the retries were about.
			return fmt.Errorf("RDS %s: %w after %d attempt(s); last attempt at %s: %s", action, caller.Err(), log.attempts, c.endpoint, explainTransport(log.lastErr))
		}
		return fmt.Errorf("RDS %s at %s: %w", action, c.endpoint, err)
	case ctx.Err() != nil:
		var apiErr *Error
		if errors.As(last, &apiErr) {
			// Out of budget while retrying an answer (throttling, say): keep it visible to
			// callers that branch on the code.
			return fmt.Errorf("RDS %s: %w (%s) from %s after %d attempt(s); last attempt: %w", action, ErrNoAnswer, c.callTimeout, c.endpoint, max(log.attempts, 1), apiErr)
		}
		return fmt.Errorf("RDS %s: %w (%s) from %s after %d attempt(s); last attempt: %s", action, ErrNoAnswer, c.callTimeout, c.endpoint, max(log.attempts, 1), explainTransport(last))
	}
	return &transportError{msg: fmt.Sprintf("RDS %s at %s: %s (%d attempt(s))", action, c.endpoint, explainTransport(last), max(log.attempts, 1)), err: err}
}

// transportError says in words what went wrong and keeps the underlying error for errors.As.
type transportError struct {
	msg string
	err error
}

func (e *transportError) Error() string { return e.msg }
func (e *transportError) Unwrap() error { return e.err }

// explainTransport says in words what a transport failure means and what to check.
func explainTransport(err error) string {
	var (
		hostErr    x509.HostnameError
		unknownCA  x509.UnknownAuthorityError
		invalid    x509.CertificateInvalidError
		verifyErr  *tls.CertificateVerificationError
		recordErr  tls.RecordHeaderError
		dnsErr     *net.DNSError
		opErr      *net.OpError
		timeoutErr interface{ Timeout() bool }
	)
	msg := err.Error()
	switch {
	case errors.As(err, &hostErr):
		return fmt.Sprintf("the endpoint's TLS certificate is for another host (%v). Check `endpoint` and `region`, or "+
			"whether a proxy intercepts TLS; not retried", hostErr)
	case errors.As(err, &unknownCA), errors.As(err, &invalid), errors.As(err, &verifyErr):
		return fmt.Sprintf("the endpoint's TLS certificate is not trusted (%v). Check `endpoint`, or whether a proxy "+
			"intercepts TLS (then install its CA); not retried", err)
	case errors.Is(err, http.ErrSchemeMismatch), errors.As(err, &recordErr):
		return "the endpoint answers in plain HTTP, not HTTPS: check the scheme of `endpoint` (a local simulator " +
			"needs http://host:port; without a scheme https:// is assumed); not retried"
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("the host name does not resolve (%v). Check `region` and `endpoint`, and DNS", dnsErr)
	case strings.Contains(msg, "TLS handshake timeout"):
		return "the endpoint accepted the connection but did not complete the TLS handshake in time (it hangs, or is not an HTTPS endpoint)"
	case strings.Contains(msg, "timeout awaiting response headers"):
		return "the endpoint accepted the connection and the request but sent no answer in time (it hangs)"
	case errors.As(err, &opErr) && opErr.Op == "dial" && opErr.Timeout():
		return "could not connect in time: packets to the endpoint are dropped or it is unreachable (firewall, proxy, wrong endpoint or no network)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused: nothing listens at that address (wrong endpoint or port?)"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "the connection was closed without an answer"
	case errors.As(err, &timeoutErr) && timeoutErr.Timeout():
		return "timed out: " + msg
	}
	return msg
}

// IsPermanentTransport reports whether err is a transport failure that no resend cures: the
// endpoint's certificate is wrong or untrusted, or it does not speak TLS.
func IsPermanentTransport(err error) bool {
	return err != nil && !retryTransportError(err, true)
}
