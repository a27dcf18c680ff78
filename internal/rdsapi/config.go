package rdsapi

import (
	"net/http"
	"time"

	"github.com/aliyun/credentials-go/credentials"
)

// Config configures the HTTPS client built by New.
type Config struct {
	// RegionID is sent as RegionId where an action needs it and selects the endpoint.
	RegionID string
	// Endpoint overrides endpoint resolution: "host", "https://host[:port]" or
	// "http://127.0.0.1:port". Plain http is accepted only for loopback hosts unless Insecure is set.
	Endpoint string
	// Insecure allows a plain-http endpoint on a non-loopback host.
	Insecure bool
	// Credentials supplies the access key, secret and optional STS token for every request; the
	// provider builds it with credentials-go (static keys, STS, CLI profile).
	Credentials credentials.Credential
	// CredentialSource says where Credentials came from ("the provider block's access_key and
	// secret_key", "CLI profile \"dev\" in ~/.aliyun/config.json"); an answer refusing the
	// credentials names it, so the user knows which setting to fix.
	CredentialSource string
	// MaxRetries bounds the retries of one call on throttling, transient errors and connection
	// failures; every retry is also bounded by the caller's context.
	MaxRetries int
	// MaxRequestsPerSecond caps the calls per second of each API action (0: no cap). Below it the
	// client adapts to the quota the cloud enforces (ratelimit.go).
	MaxRequestsPerSecond float64
	// HTTPClient is the underlying client; nil means a cleanhttp pooled client with the timeouts
	// below (zero: the Default… constants). A caller's own HTTPClient keeps its own timeouts.
	HTTPClient            *http.Client
	ConnectTimeout        time.Duration
	TLSHandshakeTimeout   time.Duration
	ResponseHeaderTimeout time.Duration
	// CallTimeout bounds one call with all its attempts (zero: DefaultCallTimeout), from when the
	// action's pacing lets the first attempt go, within the caller's own deadline.
	CallTimeout time.Duration
	// UserAgent is appended to the client's own User-Agent.
	UserAgent string
	// RecordDir, when set, records every answer as a cassette there (record.go); empty: the
	// RDS_RECORD_CASSETTES environment variable, and no recording when that is unset too.
	RecordDir string
	// Now is the clock every attempt is signed with (x-acs-date, which the cloud refuses when it is
	// 15 minutes off its own) and the cloud's offset is measured from: the clock the caller waits
	// on, so that a wait moves the signing time with it; time.Now when nil.
	Now func() time.Time
}
