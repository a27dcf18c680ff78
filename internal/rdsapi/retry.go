package rdsapi

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// maxResponseBytes bounds what one response may make the client hold in memory.
const maxResponseBytes = 8 << 20

// attemptLog follows one API call across its attempts: it decides whether to retry, and keeps
// what the last attempt failed with so that a give-up or a cancelled wait can say why.
type attemptLog struct {
	action   string
	endpoint string
	// replaySafe says that sending the request twice is harmless: reads, creates carrying a
	// ClientToken, and set-to-a-value actions. When false (ModifyDBInstanceSpec), an attempt whose
	// outcome is unknown is not repeated: the caller must re-read the instance first.
	replaySafe bool
	attempts   int
	lastErr    error
}

// checkRetry is the retryablehttp.CheckRetry of one call. It buffers every response body, so
// that the error code can be read here and decoded again by the caller. An answer that arrived
// is kept even if the context ended meanwhile: a create that succeeded must not be reported lost.
func (a *attemptLog) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	a.attempts++
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return false, ctxErr
		}
		a.lastErr = err
		retry := retryTransportError(err, a.replaySafe)
		a.logAttempt(ctx, retry, "error", explainTransport(err))
		return retry, nil
	}
	body, readErr := bufferBody(resp)
	if readErr != nil {
		a.lastErr = readErr
		if errors.Is(readErr, errResponseTooLarge) {
			return false, readErr
		}
		// The connection broke mid-response: the action may have run.
		a.logAttempt(ctx, a.replaySafe, "error", readErr.Error())
		return a.replaySafe, nil
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return false, nil
	}
	retry, reason := a.retryStatus(resp.StatusCode, body)
	a.lastErr = responseError(a.action, resp.StatusCode, body)
	a.logAttempt(ctx, retry, "reason", reason)
	return retry, nil
}

// retryStatus classifies an error answer by its Alibaba error code. Busy codes are not retried
// here: waiting for an instance to finish a task is the service layer's job, under its deadline.
func (a *attemptLog) retryStatus(status int, body []byte) (bool, string) {
	if apiErr, ok := parseErrorBody(status, body); ok {
		switch apiErr.Class() {
		case ClassThrottled:
			// Throttling is decided before the action runs, so even ModifyDBInstanceSpec may resend.
			return true, apiErr.Code
		case ClassTransient:
			return a.replaySafe, apiErr.Code
		}
		return false, apiErr.Code
	}
	// No error code (a proxy's HTML page, say): fall back to the status.
	switch {
	case status == http.StatusTooManyRequests:
		return true, http.StatusText(status)
	case status >= 500 && status != http.StatusNotImplemented:
		return a.replaySafe, http.StatusText(status)
	}
	return false, http.StatusText(status)
}

// logAttempt logs a failed attempt: at INFO when it will be retried, so that a user running with
// TF_LOG=INFO sees a slow or failing endpoint being retried instead of a silent wait.
func (a *attemptLog) logAttempt(ctx context.Context, retry bool, key, value string) {
	fields := map[string]any{"action": a.action, "endpoint": a.endpoint, "attempt": a.attempts, "will_retry": retry, key: value}
	if retry {
		tflog.Info(ctx, "RDS API attempt failed; retrying", fields)
		return
	}
	tflog.Debug(ctx, "RDS API attempt failed", fields)
}

// retryTransportError decides on a failure without a response. A request that never left (dial
// or DNS failure) is always safe to resend; a broken connection after sending only when
// replaySafe. Certificate and protocol failures do not heal by retrying, nor does an https
// endpoint that answers in plain HTTP (net/http reports it as ErrSchemeMismatch).
func retryTransportError(err error, replaySafe bool) bool {
	var (
		certErr      *tls.CertificateVerificationError
		unknownCA    x509.UnknownAuthorityError
		hostnameErr  x509.HostnameError
		invalidCert  x509.CertificateInvalidError
		recordHeader tls.RecordHeaderError
	)
	if errors.As(err, &certErr) || errors.As(err, &unknownCA) || errors.As(err, &hostnameErr) ||
		errors.As(err, &invalidCert) || errors.As(err, &recordHeader) || errors.Is(err, http.ErrSchemeMismatch) {
		return false
	}
	return notSent(err) || replaySafe
}

func notSent(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr)
}

var errResponseTooLarge = fmt.Errorf("response body is larger than %d bytes", maxResponseBytes)

// bufferBody reads the whole body and puts a re-readable copy back on resp.
func bufferBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	if len(body) > maxResponseBytes {
		return nil, errResponseTooLarge
	}
	return body, nil
}

// exponentialJitter waits between half and all of lo·2^attempt, capped at hi: it grows quickly,
// never fires immediately, and spreads clients that were throttled together. An answer whose
// rate-limit headers say the quota is spent waits until the window ends instead (capped at hi),
// as Alibaba's SDKs do (ratewindow.go).
func exponentialJitter(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if left := spentTimeLeft(resp); left > 0 {
			return min(left+windowMargin, hi)
		}
	}
	ceiling := hi
	if attempt < 30 {
		if grown := lo << attempt; grown > 0 && grown < hi {
			ceiling = grown
		}
	}
	half := ceiling / 2
	return half + rand.N(ceiling-half+1)
}

// tflogLogger forwards retryablehttp's messages to terraform-plugin-log, quietly: they appear at
// TF_LOG=DEBUG (Trace for per-request chatter). retryablehttp logs only method and URL, and the
// URL carries no secret: V3 keeps the credentials in headers.
type tflogLogger struct{ ctx context.Context }

func (l tflogLogger) fields(keysAndValues []any) map[string]any {
	fields := map[string]any{"subsystem": "rdsapi"}
	for i := 0; i+1 < len(keysAndValues); i += 2 {
		fields[fmt.Sprint(keysAndValues[i])] = keysAndValues[i+1]
	}
	return fields
}

func (l tflogLogger) Error(msg string, kv ...any) { tflog.Debug(l.ctx, msg, l.fields(kv)) }
func (l tflogLogger) Warn(msg string, kv ...any)  { tflog.Debug(l.ctx, msg, l.fields(kv)) }
func (l tflogLogger) Info(msg string, kv ...any)  { tflog.Debug(l.ctx, msg, l.fields(kv)) }
func (l tflogLogger) Debug(msg string, kv ...any) { tflog.Trace(l.ctx, msg, l.fields(kv)) }
