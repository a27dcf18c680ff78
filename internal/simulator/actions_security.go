package simulator

import (
	"slices"
	"strings"
	"time"
)

// SSL and TDE of MySQL instances (README "SSL and TDE"). Every rule is the simulator's reading of
// Alibaba's documentation, cited in the README; the provider's own checks live in rdsservice.

func init() {
	for name, h := range map[string]handler{
		"ModifyDBInstanceSSL":   (*Simulator).modifyDBInstanceSSL,
		"DescribeDBInstanceSSL": (*Simulator).describeDBInstanceSSL,
		"ModifyDBInstanceTDE":   (*Simulator).modifyDBInstanceTDE,
		"DescribeDBInstanceTDE": (*Simulator).describeDBInstanceTDE,
	} {
		actions[name] = h
	}
}

const (
	// The transitional statuses of the two changes (the values the official provider waits on).
	statusSSLModifying = "SSLModifying"
	statusTDEModifying = "TDE_MODIFYING"
	// sslValidity is a cloud certificate's validity period: one year.
	sslValidity = 365 * 24 * time.Hour
)

// security is an instance's SSL and TDE settings; nil means both off.
type security struct {
	SSL           bool      `json:"ssl"`
	SSLEndpoint   string    `json:"ssl_endpoint,omitempty"`
	SSLExpires    time.Time `json:"ssl_expires,omitempty"`
	TDE           bool      `json:"tde"`
	EncryptionKey string    `json:"encryption_key,omitempty"`
	RoleArn       string    `json:"role_arn,omitempty"`
}

func (in *instance) security() *security {
	if in.Security == nil {
		in.Security = &security{}
	}
	return in.Security
}

// sslOn is whether the instance's engine serves TLS (read at boot, as EndpointSettings are).
func (in *instance) sslOn() bool { return in.Security != nil && in.Security.SSL }

// securityTarget finds a Running, unlocked MySQL instance for a write.
func (s *Simulator) securityTarget(c *call, action string) (*instance, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if !strings.EqualFold(in.Engine, "MySQL") {
		return nil, newErr(400, "InvalidEngine.Malformed", "The simulator models %s for MySQL only; %s runs %s.", action, in.ID, in.Engine)
	}
	if in.Status != statusRunning {
		return nil, errInstanceState(in)
	}
	if e := in.writable(action); e != nil {
		return nil, e
	}
	return in, nil
}

// sslSupported: High-availability on 5.6, 5.7 and 8.0; Basic and Cluster on 5.7 and 8.0.
func sslSupported(in *instance) bool {
	switch in.EngineVersion {
	case "5.7", "8.0":
		return true
	case "5.6":
		return in.Category == "HighAvailability" || in.MasterID != ""
	}
	return false
}

// modifyDBInstanceSSL turns SSL on (a restart with a switchover), off (the same), or, sent with
// SSLEnabled=1 while on, renews the certificate: a restart on 5.6 and 5.7, none on 8.0.
func (s *Simulator) modifyDBInstanceSSL(c *call) (map[string]any, *apiError) {
	in, e := s.securityTarget(c, "ModifyDBInstanceSSL")
	if e != nil {
		return nil, e
	}
	endpoint, e := c.p.required("ConnectionString")
	if e != nil {
		return nil, e
	}
	if _, named := in.endpointOf(endpoint); !named && endpoint != s.connectionString(in, c.now) {
		return nil, errInvalid("ConnectionString", "%q is not an endpoint of %s", truncate(endpoint), in.ID)
	}
	enabled, e := c.p.oneOf("SSLEnabled", "1", "0", "1")
	if e != nil {
		return nil, e
	}
	if !sslSupported(in) {
		return nil, newErr(400, "IncorrectDBInstanceType", "SSL is not supported for MySQL %s on the %s edition.", in.EngineVersion, in.Category)
	}
	sec := in.security()
	on := enabled == "1"
	restart := on != sec.SSL || (on && in.EngineVersion != "8.0")
	if on {
		sec.SSLEndpoint, sec.SSLExpires = endpoint, c.now.Add(sslValidity).UTC()
	} else if !sec.SSL {
		return map[string]any{}, nil // already off: nothing to do (assumption SE2)
	}
	sec.SSL = on
	if restart {
		s.startRestart(in, statusSSLModifying, c.now, in.Optimized)
	}
	c.dirty = true
	return map[string]any{}, nil
}

func (s *Simulator) describeDBInstanceSSL(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	out := map[string]any{"SSLEnabled": "No", "ConnectionString": "", "SSLExpireTime": "", "RequireUpdate": "No"}
	if in.sslOn() {
		sec := in.Security
		out["SSLEnabled"], out["ConnectionString"] = "Yes", sec.SSLEndpoint
		out["SSLExpireTime"] = sec.SSLExpires.Format("2006-01-02T15:04:05Z")
	}
	return out, nil
}

// tdeSupported: High-availability and Cluster editions of 5.6, 5.7 and 8.0 (5.6 from minor
// version tdeMinMinor56 on: modifyDBInstanceTDE).
func tdeSupported(in *instance) bool {
	return slices.Contains([]string{"5.6", "5.7", "8.0"}, in.EngineVersion) &&
		(in.Category == "HighAvailability" || strings.EqualFold(in.Category, "cluster"))
}

// modifyDBInstanceTDE turns TDE on, once and for good: Disabled is refused. Turning it on
// restarts the instance (assumption SE3).
func (s *Simulator) modifyDBInstanceTDE(c *call) (map[string]any, *apiError) {
	in, e := s.securityTarget(c, "ModifyDBInstanceTDE")
	if e != nil {
		return nil, e
	}
	status, e := c.p.required("TDEStatus")
	if e != nil {
		return nil, e
	}
	switch {
	case status == "Disabled":
		return nil, newErr(400, "InvalidTDEStatus.Malformed", "TDE cannot be disabled once it is enabled on a MySQL instance.")
	case status != "Enabled":
		return nil, errInvalid("TDEStatus", "%q is not Enabled", truncate(status))
	case in.MasterID != "":
		return nil, newErr(403, "IncorrectDBInstanceType", "%s is a read-only instance: TDE is enabled on its primary %s.", in.ID, in.MasterID)
	case !tdeSupported(in):
		return nil, newErr(400, "IncorrectDBInstanceType", "TDE is not supported for MySQL %s on the %s edition.", in.EngineVersion, in.Category)
	case in.EngineVersion == "5.6" && s.kernelOf(in) < tdeMinMinor56:
		return nil, newErr(400, "MinorVersionNotSupport", "TDE on MySQL 5.6 needs minor version %s or later; %s runs %s.", tdeMinMinor56, in.ID, s.kernelOf(in))
	}
	sec := in.security()
	if sec.TDE {
		return map[string]any{}, nil // already on: accepted (assumption SE4)
	}
	sec.TDE, sec.EncryptionKey, sec.RoleArn = true, c.p.get("EncryptionKey"), c.p.get("RoleArn")
	s.startRestart(in, statusTDEModifying, c.now, in.Optimized)
	c.dirty = true
	return map[string]any{}, nil
}

func (s *Simulator) describeDBInstanceTDE(c *call) (map[string]any, *apiError) {
	in, e := s.lookup(c.p)
	if e != nil {
		return nil, e
	}
	if in.Security == nil || !in.Security.TDE {
		return map[string]any{"TDEStatus": "Disabled"}, nil
	}
	// TDEMode and EncryptionKey as the rds-20140815 model describes them: the key the service
	// generated, or the customer's key from KMS.
	if in.Security.EncryptionKey == "" {
		return map[string]any{"TDEStatus": "Enabled", "TDEMode": "Aliyun_Generate_Key"}, nil
	}
	return map[string]any{"TDEStatus": "Enabled", "TDEMode": "Customer_Provided_Key", "EncryptionKey": in.Security.EncryptionKey}, nil
}
