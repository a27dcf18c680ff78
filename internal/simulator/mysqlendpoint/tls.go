package mysqlendpoint

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net"
	"sync"
	"time"
)

// TLS for instances with SSL on (ModifyDBInstanceSSL; simulator README, SSL and TDE): the engine
// offers TLS from the boot after SSL is enabled, with a self-signed certificate made once per
// process (the cloud's is signed by its CA, so clients here connect with tls=skip-verify). Plain
// connections are still accepted, as with SSL on and forced encryption off.

var (
	serverCertOnce sync.Once
	serverCert     tls.Certificate
	serverCertErr  error
)

// tlsConfigFor is the server's TLS configuration for the settings: nil (no TLS) when SSL is off.
func tlsConfigFor(settings Settings) (*tls.Config, error) {
	if !settings.SSL {
		return nil, nil
	}
	serverCertOnce.Do(func() { serverCert, serverCertErr = selfSignedCertificate() })
	if serverCertErr != nil {
		return nil, fmt.Errorf("mysql endpoint: TLS certificate: %w", serverCertErr)
	}
	return &tls.Config{Certificates: []tls.Certificate{serverCert}, MinVersion: tls.VersionTLS12}, nil
}

// selfSignedCertificate makes a one-year certificate for the loopback addresses, as a cloud
// certificate is valid for one year.
func selfSignedCertificate() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	template := x509.Certificate{
		SerialNumber: big.NewInt(now.UnixNano()),
		Subject:      pkix.Name{CommonName: "rds-simulator"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, &template, &template, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
