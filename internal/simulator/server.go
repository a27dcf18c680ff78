package simulator

import (
	"context"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// apiVersion is the only API version the simulator speaks.
const apiVersion = "2014-08-15"

// maxBodyBytes bounds a request body; real requests are a few KiB.
const maxBodyBytes = 1 << 20

// call is one authenticated API request being handled, under s.mu.
type call struct {
	p   params
	now time.Time
	// dirty is set by a handler that changed the state, so that it is saved.
	dirty bool
}

type handler func(s *Simulator, c *call) (map[string]any, *apiError)

// actions is the dispatch table. Every handler runs with s.mu held and the state advanced to c.now.
var actions = map[string]handler{
	"CreateDBInstance":                   (*Simulator).createDBInstance,
	"CreateReadOnlyDBInstance":           (*Simulator).createReadOnlyDBInstance,
	"CloneDBInstance":                    (*Simulator).cloneDBInstance,
	"DescribeDBInstanceAttribute":        (*Simulator).describeDBInstanceAttribute,
	"DescribeDBInstances":                (*Simulator).describeDBInstances,
	"DescribeAvailableClasses":           (*Simulator).describeAvailableClasses,
	"ModifyDBInstanceSpec":               (*Simulator).modifyDBInstanceSpec,
	"ModifyDBInstanceDescription":        (*Simulator).modifyDBInstanceDescription,
	"ModifySecurityIps":                  (*Simulator).modifySecurityIps,
	"DescribeDBInstanceIPArrayList":      (*Simulator).describeDBInstanceIPArrayList,
	"ModifyDBInstanceDeletionProtection": (*Simulator).modifyDBInstanceDeletionProtection,
	"RestartDBInstance":                  (*Simulator).restartDBInstance,
	"DescribeDBInstanceHAConfig":         (*Simulator).describeDBInstanceHAConfig, // actions_ha.go
	"SwitchDBInstanceHA":                 (*Simulator).switchDBInstanceHA,
	"ModifyHASwitchConfig":               (*Simulator).modifyHASwitchConfig, // actions_ha_switch.go
	"DescribeHASwitchConfig":             (*Simulator).describeHASwitchConfig,
	"ModifyDBInstanceHAConfig":           (*Simulator).modifyDBInstanceHAConfig, // actions_ha_sync.go
	"DeleteDBInstance":                   (*Simulator).deleteDBInstance,
	"ModifyDBInstanceMaintainTime":       (*Simulator).modifyDBInstanceMaintainTime,
	"DescribeHistoryTasks":               (*Simulator).describeHistoryTasks,
	"DescribeRegions":                    (*Simulator).describeRegions,

	// Accounts, databases and privileges: actions_accounts.go.
	"CreateAccount":              (*Simulator).createAccount,
	"DescribeAccounts":           (*Simulator).describeAccounts,
	"ResetAccountPassword":       (*Simulator).resetAccountPassword,
	"ModifyAccountDescription":   (*Simulator).modifyAccountDescription,
	"DeleteAccount":              (*Simulator).deleteAccount,
	"CreateDatabase":             (*Simulator).createDatabase,
	"DescribeDatabases":          (*Simulator).describeDatabases,
	"ModifyDBDescription":        (*Simulator).modifyDBDescription,
	"DeleteDatabase":             (*Simulator).deleteDatabase,
	"GrantAccountPrivilege":      (*Simulator).grantAccountPrivilege,
	"RevokeAccountPrivilege":     (*Simulator).revokeAccountPrivilege,
	"DescribeParameterTemplates": (*Simulator).describeParameterTemplates,
	"DescribeParameters":         (*Simulator).describeParameters,
	"ModifyParameter":            (*Simulator).modifyParameter,
	// Parameter groups: actions_parameter_groups.go.
	"CreateParameterGroup":    (*Simulator).createParameterGroup,
	"ModifyParameterGroup":    (*Simulator).modifyParameterGroup,
	"DescribeParameterGroup":  (*Simulator).describeParameterGroup,
	"DescribeParameterGroups": (*Simulator).describeParameterGroups,
	"DeleteParameterGroup":    (*Simulator).deleteParameterGroup,
	// The monitoring period: actions_monitor.go.
	"ModifyDBInstanceMonitor":   (*Simulator).modifyDBInstanceMonitor,
	"DescribeDBInstanceMonitor": (*Simulator).describeDBInstanceMonitor,

	// Tags and resource groups: tags.go.
	"TagResources":        (*Simulator).tagResources,
	"UntagResources":      (*Simulator).untagResources,
	"ListTagResources":    (*Simulator).listTagResources,
	"ModifyResourceGroup": (*Simulator).modifyResourceGroup,

	// Storage autoscaling: actions_storage_autoscale.go (DescribeAutoScalingConfig is DAS's).
	"ModifyDasInstanceConfig":   (*Simulator).modifyDasInstanceConfig,
	"DescribeAutoScalingConfig": (*Simulator).describeAutoScalingConfig,
	// SQL audit: actions_sql_audit.go (both DAS's).
	"ModifySqlLogConfig":   (*Simulator).modifySqlLogConfig,
	"DescribeSqlLogConfig": (*Simulator).describeSqlLogConfig,
	// Subscription billing: actions_billing.go.
	"TransformDBInstancePayType":           (*Simulator).transformDBInstancePayType,
	"ModifyInstanceAutoRenewalAttribute":   (*Simulator).modifyInstanceAutoRenewalAttribute,
	"DescribeInstanceAutoRenewalAttribute": (*Simulator).describeInstanceAutoRenewalAttribute,
	"RenewInstance":                        (*Simulator).renewInstance,
	// Backups of released instances: actions_detached_backups.go.
	"DescribeDetachedBackups": (*Simulator).describeDetachedBackups,
}

func (s *Simulator) serveAPI(w http.ResponseWriter, r *http.Request) {
	requestID := newRequestID()
	format := requestFormat(r, params{"Format": r.URL.Query().Get("Format")})
	fail := func(e *apiError) { writeError(w, r, format, requestID, e) }
	if r.URL.Path != "/" {
		fail(newErr(404, "InvalidAction.NotFound", "RPC-style APIs are served at \"/\", not %q.", truncate(r.URL.Path)))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		fail(newErr(405, "UnsupportedHTTPMethod", "HTTP method %s is not supported; use GET or POST.", truncate(r.Method)))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		fail(newErr(400, "InvalidParameter", "The request body could not be read or exceeds %d bytes.", maxBodyBytes))
		return
	}
	query, all, e := collectParams(r, body)
	if e != nil {
		fail(e)
		return
	}
	format = requestFormat(r, all)
	auth, e := s.authenticate(r, query, all, body)
	if e != nil {
		fail(e)
		return
	}
	if auth.version != versionOf(auth.action) {
		fail(newErr(400, "InvalidVersion", "Specified parameter Version %q is not valid; this service speaks %s.", truncate(auth.version), versionOf(auth.action)))
		return
	}
	if _, e := all.oneOf("Format", "JSON", "JSON", "XML"); e != nil {
		fail(e)
		return
	}
	h, ok := actions[auth.action]
	if !ok {
		fail(newErr(404, "InvalidAction.NotFound", "Specified api %q is not found, please check your url and method.", truncate(auth.action)))
		return
	}

	s.mu.Lock()
	s.stats.Requests[auth.action]++
	arrived := s.now()
	s.noteCall(auth.action, arrived)
	faults := s.faults
	overQuota, quotaHeader := s.overQuota(auth.action, arrived)
	throttle, failNow, drop := s.roll(faults.ThrottleRate), s.roll(faults.ErrorRate), s.roll(faults.DropResponseRate)
	if overQuota || throttle {
		s.stats.Throttled[auth.action]++
	}
	cloudNow := s.cloudNow()
	s.mu.Unlock()
	// Every answer carries the cloud's clock in its Date header, as any HTTP server's does (RFC
	// 9110 §6.6.1); after AdvanceClock it is the simulated clock.
	w.Header().Set("Date", cloudNow.UTC().Format(http.TimeFormat))
	if quotaHeader != "" && !s.opts.NoQuotaHeader {
		w.Header().Set(rateLimitHeader, quotaHeader)
	}

	if faults.LatencyMS > 0 {
		if !sleepCtx(r.Context(), time.Duration(faults.LatencyMS)*time.Millisecond) {
			return
		}
	}
	if overQuota {
		fail(newErr(400, "Throttling.Api", "Request was denied due to api flow control."))
		return
	}
	if throttle {
		fail(newErr(400, "Throttling.User", "Request was denied due to user flow control."))
		return
	}
	if failNow {
		fail(newErr(503, "ServiceUnavailable", "The request has failed due to a temporary failure of the server."))
		return
	}

	resp, e := s.dispatch(auth.action, h, all)
	if drop {
		dropConnection(w)
		return
	}
	if e != nil {
		fail(e)
		return
	}
	resp["RequestId"] = requestID
	writeAnswer(w, format, http.StatusOK, auth.action+"Response", resp)
}

// dispatch runs a handler under the lock, with ClientToken idempotency, and saves the state
// when the handler changed it.
func (s *Simulator) dispatch(action string, h handler, p params) (map[string]any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &call{p: p, now: s.cloudNow()}
	if s.advance(c.now) {
		c.dirty = true
	}
	resp, e := s.withClientToken(action, c, h)
	s.syncEndpointsLocked(c.now)
	if c.dirty {
		if err := s.saveLocked(); err != nil && e == nil {
			return nil, errInternal("saving the state file failed: " + err.Error())
		}
	}
	return resp, e
}

// collectParams returns the query parameters and the union of query and form body. A name given
// twice is ambiguous for the signature and is refused.
func collectParams(r *http.Request, body []byte) (params, params, *apiError) {
	query := params{}
	all := params{}
	add := func(values url.Values, into ...params) *apiError {
		for name, vals := range values {
			if len(vals) != 1 || all.has(name) {
				return errInvalid(name, "the parameter is given more than once")
			}
			for _, p := range into {
				p[name] = vals[0]
			}
		}
		return nil
	}
	qv, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, nil, newErr(400, "InvalidParameter", "The query string is malformed.")
	}
	if e := add(qv, query, all); e != nil {
		return nil, nil, e
	}
	if len(body) > 0 {
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if ct != "application/x-www-form-urlencoded" {
			return nil, nil, newErr(400, "InvalidParameter", "A request body must be application/x-www-form-urlencoded, not %q.", truncate(ct))
		}
		bv, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, nil, newErr(400, "InvalidParameter", "The form body is malformed.")
		}
		if e := add(bv, all); e != nil {
			return nil, nil, e
		}
	}
	return query, all, nil
}

func (s *Simulator) roll(rate float64) bool {
	return rate > 0 && s.rnd.Float64() < rate
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// dropConnection closes the connection without an answer: the client sees the response lost
// after the action was carried out.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tcp, ok := conn.(*net.TCPConn); ok {
				_ = tcp.SetLinger(0)
			}
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func isAdminPath(path string) bool { return strings.HasPrefix(path, "/_simulator/") }
