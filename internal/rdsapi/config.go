package rdsapi

import (
	"net/http"

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
	// MaxRetries bounds the retries of one call on throttling, transient errors and connection
	// failures; every retry is also bounded by the caller's context.
	MaxRetries int
	// MaxRequestsPerSecond caps the calls per second of each API action (0: no cap). Below it the
	// client adapts to the quota the cloud enforces (ratelimit.go).
	MaxRequestsPerSecond float64
	// HTTPClient is the underlying client; nil means a cleanhttp pooled client.
	HTTPClient *http.Client
	// UserAgent is appended to the client's own User-Agent.
	UserAgent string
}
