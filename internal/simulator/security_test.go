package simulator

import (
	"net/http"
	"testing"
)

func (e *env) sslState(id string) map[string]any {
	e.t.Helper()
	return e.c.ok("DescribeDBInstanceSSL", map[string]string{"DBInstanceId": id})
}

func (e *env) setSSL(id, enabled string) answer {
	e.t.Helper()
	endpoint := e.attr(id)["ConnectionString"].(string)
	return e.c.call("ModifyDBInstanceSSL", map[string]string{"DBInstanceId": id, "ConnectionString": endpoint, "SSLEnabled": enabled})
}

// SSL on and off restart the instance (with a switchover); a certificate renewal restarts 5.7 but
// not 8.0 (Alibaba's SSL page, README "SSL and TDE").
func TestSSLRestarts(t *testing.T) {
	e := newEnv(t)
	id := e.create(map[string]string{"EngineVersion": "5.7"})
	if a := e.setSSL(id, "1"); a.status != http.StatusOK {
		t.Fatalf("enable: %d %s", a.status, a.raw)
	}
	if s := e.status(id); s != statusSSLModifying {
		t.Fatalf("status after enabling SSL = %s, want %s", s, statusSSLModifying)
	}
	e.settle()
	got := e.sslState(id)
	if got["SSLEnabled"] != "Yes" || got["SSLExpireTime"] != "2027-03-01T10:00:10Z" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after enabling: %v, restarts %d", got, e.sim.Stats().Restarts[id])
	}
	e.c.ok("ModifyDBInstanceSSL", map[string]string{"DBInstanceId": id, "ConnectionString": got["ConnectionString"].(string), "SSLEnabled": "1"})
	e.settle()
	if n := e.sim.Stats().Restarts[id]; n != 2 {
		t.Fatalf("5.7 certificate renewal: restarts %d, want 2", n)
	}
	e.setSSL(id, "0")
	e.settle()
	if got := e.sslState(id); got["SSLEnabled"] != "No" || e.sim.Stats().Restarts[id] != 3 {
		t.Fatalf("after disabling: %v, restarts %d", got, e.sim.Stats().Restarts[id])
	}

	v8 := e.create(nil)
	e.setSSL(v8, "1")
	e.settle()
	e.setSSL(v8, "1")
	e.settle()
	if n := e.sim.Stats().Restarts[v8]; n != 1 {
		t.Fatalf("8.0: enable then renew: restarts %d, want 1 (the renewal does not restart 8.0)", n)
	}
}

func TestSSLRefusals(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.fails("ModifyDBInstanceSSL", map[string]string{"DBInstanceId": id, "ConnectionString": "elsewhere.example", "SSLEnabled": "1"}, http.StatusBadRequest, "InvalidParameter")
	e.c.fails("ModifyDBInstanceSSL", map[string]string{"DBInstanceId": id, "SSLEnabled": "1"}, http.StatusBadRequest, "MissingParameter")
	basic56 := e.create(map[string]string{"EngineVersion": "5.6", "Category": "Basic", "DBInstanceStorageType": "cloud_ssd"})
	if a := e.setSSL(basic56, "1"); a.status != http.StatusBadRequest || a.code() != "IncorrectDBInstanceType" {
		t.Fatalf("5.6 Basic: %d %s", a.status, a.raw)
	}
}

// TDE: on once and for good; HA or Cluster only; turning it on restarts (assumption SE3).
func TestTDE(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.fails("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": id, "TDEStatus": "Disabled"}, http.StatusBadRequest, "InvalidTDEStatus.Malformed")
	e.c.ok("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": id, "TDEStatus": "Enabled", "EncryptionKey": "key-1", "RoleArn": "acs:ram::1:role/r"})
	if s := e.status(id); s != statusTDEModifying {
		t.Fatalf("status = %s", s)
	}
	e.settle()
	if got := e.c.ok("DescribeDBInstanceTDE", map[string]string{"DBInstanceId": id}); got["TDEStatus"] != "Enabled" || e.sim.Stats().Restarts[id] != 1 {
		t.Fatalf("after enabling: %v, restarts %d", got, e.sim.Stats().Restarts[id])
	}
	e.c.fails("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": id, "TDEStatus": "Disabled"}, http.StatusBadRequest, "InvalidTDEStatus.Malformed")
	basic := e.create(map[string]string{"Category": "Basic"})
	e.c.fails("ModifyDBInstanceTDE", map[string]string{"DBInstanceId": basic, "TDEStatus": "Enabled"}, http.StatusBadRequest, "IncorrectDBInstanceType")
	if got := e.c.ok("DescribeDBInstanceTDE", map[string]string{"DBInstanceId": basic}); got["TDEStatus"] != "Disabled" {
		t.Fatalf("basic: %v", got)
	}
}
