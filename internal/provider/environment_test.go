package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// A bad environment gets one clear error, quickly (issue 12): an endpoint that hangs, one that
// drops packets, a closed port, a certificate for another host, expired STS credentials, a
// skewed clock and an unknown region. Each test plans a configuration that reads one instance
// (data source rds_instance) and expects the plan to fail naming the endpoint or the setting,
// what happened, and the fix.

// plainBudget is what "quickly" means for a plan (issue 12: within 30 s by default).
const plainBudget = 30 * time.Second

// testCA signs the certificate of the wrong-host TLS server. TestMain adds it to the trusted roots
// (SSL_CERT_FILE: the system bundle plus this CA), so that the only thing wrong with that server
// is the host its certificate names.
var testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func TestMain(m *testing.M) {
	serveProviderForCrashTest() // does not return when terraform runs this binary as the provider
	if err := trustTestCA(); err != nil {
		fmt.Fprintln(os.Stderr, "setting up the test CA:", err)
		os.Exit(2)
	}
	cleanup, err := cacheTerraformVersion()
	if err != nil {
		fmt.Fprintln(os.Stderr, "caching the terraform version:", err)
		os.Exit(2)
	}
	code := m.Run()
	code = max(code, oracleShardsIncomplete())
	cleanup()
	os.Exit(code)
}

func trustTestCA() error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "terraform-provider-rds test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	testCA.cert, _ = x509.ParseCertificate(der)
	testCA.key = key
	dir, err := os.MkdirTemp("", "rds-test-ca")
	if err != nil {
		return err
	}
	bundle := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	for _, system := range []string{"/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"} {
		if b, err := os.ReadFile(system); err == nil {
			bundle = append(b, bundle...)
			break
		}
	}
	file := filepath.Join(dir, "roots.pem")
	if err := os.WriteFile(file, bundle, 0o600); err != nil {
		return err
	}
	return os.Setenv("SSL_CERT_FILE", file)
}

// wrongHostTLSServer serves HTTPS with a certificate, signed by the trusted test CA, for
// rds.other-host.example only; it counts TLS handshakes.
func wrongHostTLSServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "rds.other-host.example"},
		DNSNames:  []string{"rds.other-host.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, testCA.cert, &key.PublicKey, testCA.key)
	if err != nil {
		t.Fatal(err)
	}
	var handshakes atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Error("the wrong-host server got a request: the client ignored its certificate")
	}))
	srv.TLS = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			handshakes.Add(1)
			return nil, nil
		},
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, &handshakes
}

// hangingServer accepts connections and never answers.
func hangingServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c) // held open, never read or answered
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// droppingEndpoint is a loopback address whose SYNs go unanswered, as behind a firewall that
// drops packets: a listening socket with a backlog of 0 that never accepts, its queue filled.
func droppingEndpoint(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("relies on Linux dropping SYNs to a listener whose accept queue is full")
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	// Fill the accept queue; once a dial times out, SYNs are being dropped.
	for i := 0; ; i++ {
		c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond)
		if err != nil {
			break
		}
		t.Cleanup(func() { c.Close() })
		if i > 16 {
			t.Skip("the kernel keeps accepting connections into a full queue")
		}
	}
	return "http://" + addr
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// readConfig configures the provider for endpoint and reads one instance with the data source.
func readConfig(endpoint, region, extraProvider string) string {
	return fmt.Sprintf(`
provider "rds" {
  endpoint   = %q
  region     = %q
  access_key = %q
  secret_key = %q
%s}

data "rds_instance" "probe" {
  id = "rm-probe"
}
`, endpoint, region, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret, extraProvider)
}

// wrapped matches the literal parts in order, allowing Terraform's line wrapping at any space.
func wrapped(parts ...string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// expectPlanError plans cfg, expects an error matching re, and returns how long the test took.
func expectPlanError(t *testing.T, cfg string, re *regexp.Regexp) time.Duration {
	t.Helper()
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: re}},
	})
	return time.Since(start)
}

// checkQuick fails when the plan took longer than the budget a user should wait for an error.
func checkQuick(t *testing.T, what string, took time.Duration) {
	t.Helper()
	t.Logf("%s: the plan failed after %s", what, took.Round(100*time.Millisecond))
	if took > plainBudget {
		t.Errorf("%s: the plan failed after %s, want within %s", what, took.Round(time.Second), plainBudget)
	}
}

func TestAccEnvironment_hangingEndpoint(t *testing.T) {
	t.Parallel()
	endpoint := hangingServer(t)
	took := expectPlanError(t, readConfig(endpoint, simulator.DefaultRegion, ""),
		wrapped("no answer within the per-call budget", endpoint, "accepted the connection and the request but sent no answer"))
	checkQuick(t, "hanging endpoint", took)
}

// A plan that only adds an instance reads nothing but the class catalogue: a dead endpoint still fails it,
// as an error about the environment, not a warning or an error on instance_type.
func TestAccEnvironment_hangingEndpointNewInstance(t *testing.T) {
	t.Parallel()
	endpoint := hangingServer(t)
	cfg := fmt.Sprintf(`
provider "rds" {
  endpoint   = %q
  region     = %q
  access_key = %q
  secret_key = %q
}

resource "rds_instance" "new" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  storage_type   = "cloud_essd"
  zone_id        = "cn-hangzhou-i"
  vpc_id         = "vpc-1"
  vswitch_id     = "vsw-1"
}
`, endpoint, simulator.DefaultRegion, simulator.DefaultAccessKeyID, simulator.DefaultAccessKeySecret)
	took := expectPlanError(t, cfg, wrapped("Cannot plan: the RDS API did not answer", "no answer within the per-call budget", endpoint))
	checkQuick(t, "hanging endpoint, new instance", took)
}

func TestAccEnvironment_droppingEndpoint(t *testing.T) {
	t.Parallel()
	endpoint := droppingEndpoint(t)
	took := expectPlanError(t, readConfig(endpoint, simulator.DefaultRegion, ""),
		wrapped("no answer within the per-call budget", endpoint, "could not connect in time: packets to the endpoint are dropped"))
	checkQuick(t, "endpoint dropping packets", took)
}

func TestAccEnvironment_closedPort(t *testing.T) {
	t.Parallel()
	endpoint := closedPort(t)
	took := expectPlanError(t, readConfig(endpoint, simulator.DefaultRegion, ""),
		wrapped(endpoint, "connection refused: nothing listens at that address"))
	checkQuick(t, "closed port", took)
}

// A certificate for another host is refused at once: one handshake, no retry.
func TestAccEnvironment_certificateForAnotherHost(t *testing.T) {
	t.Parallel()
	srv, handshakes := wrongHostTLSServer(t)
	// The certificate names rds.other-host.example; the provider is pointed at localhost.
	endpoint := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	expectPlanError(t, readConfig(endpoint, simulator.DefaultRegion, ""),
		wrapped(endpoint, "TLS certificate is for another host", "rds.other-host.example, not localhost", "Check `endpoint`", "not retried"))
	if n := handshakes.Load(); n != 1 {
		t.Errorf("%d TLS handshakes, want 1 (no retry)", n)
	}
}

// Expired STS credentials: one request, one error naming the cause and the fix.
func TestAccEnvironment_expiredSTSToken(t *testing.T) {
	t.Parallel()
	env, rec := newRecordedEnv(t, testSimOptions())
	rec.expiredToken = "expired-sts-token"
	expectPlanError(t, readConfig(env.srv.URL, simulator.DefaultRegion, `  security_token = "expired-sts-token"`+"\n"),
		wrapped("InvalidSecurityToken.Expired", "The STS security token has expired", "Get new temporary credentials", "not retried"))
	if n := rec.tokens["expired-sts-token"]; n != 1 {
		t.Errorf("%d requests carried the expired token, want 1 (no retry)", n)
	}
}

// A clock more than 15 minutes off: one request, one error naming the clock and NTP.
func TestAccEnvironment_clockSkew(t *testing.T) {
	t.Parallel()
	opts := testSimOptions()
	opts.Now = func() time.Time { return time.Now().Add(20 * time.Minute) }
	env := newTestEnv(t, opts)
	expectPlanError(t, readConfig(env.srv.URL, simulator.DefaultRegion, ""),
		wrapped("InvalidTimeStamp.Expired", "clock differs from the cloud's by more than the 15-minute signature window", "NTP", "not retried"))
	if n := env.sim.Stats().Requests["DescribeDBInstanceAttribute"]; n > 0 {
		t.Errorf("the simulator handled %d reads; a refused signature reaches no action", n)
	}
}

// An unknown region is a provider configuration error naming the region and the valid ones,
// with an endpoint (asked with DescribeRegions) and without one.
func TestAccEnvironment_unknownRegion(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t, testSimOptions())
	expectPlanError(t, readConfig(env.srv.URL, "xx-nowhere-1", ""),
		wrapped("Unknown RDS region", `region "xx-nowhere-1" is not an RDS region`, "Valid regions", simulator.DefaultRegion))
	if n := env.sim.Stats().Requests["DescribeRegions"]; n != 1 {
		t.Errorf("DescribeRegions sent %d times, want 1", n)
	}
	if n := env.mutations() + env.sim.Stats().Requests["DescribeDBInstanceAttribute"]; n != 0 {
		t.Errorf("%d instance calls after an unknown region, want 0", n)
	}
}

// Without an endpoint, an unknown region is checked at the central endpoint; offline, the error
// still names the region and the regions the provider knows.
func TestAccEnvironment_unknownRegionWithoutEndpoint(t *testing.T) {
	if os.Getenv("ALIBABA_CLOUD_RDS_ENDPOINT") != "" {
		t.Skip("ALIBABA_CLOUD_RDS_ENDPOINT is set")
	}
	t.Parallel()
	took := expectPlanError(t, readConfig("", "xx-nowhere-1", ""),
		wrapped("Unknown RDS region", `region "xx-nowhere-1" is not one of the RDS regions this provider knows`, "cn-hangzhou"))
	checkQuick(t, "unknown region without endpoint", took)
}
