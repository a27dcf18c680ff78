package simulator

import (
	"testing"
	"time"
)

func prepaid(period, used, autoRenew string) map[string]string {
	return map[string]string{"PayType": "Prepaid", "Period": period, "UsedTime": used, "AutoRenew": autoRenew, "AutoPay": "true"}
}

func renewalOf(t *testing.T, e *env, id string) map[string]any {
	t.Helper()
	items := e.c.ok("DescribeInstanceAutoRenewalAttribute", map[string]string{"DBInstanceId": id})["Items"].(map[string]any)["Item"].([]any)
	if len(items) != 1 {
		t.Fatalf("renewal items of %s: %v", id, items)
	}
	return items[0].(map[string]any)
}

func TestPrepaidCreateRangesAndExpiry(t *testing.T) {
	e := newEnv(t)
	for _, bad := range []struct{ period, used, code string }{
		{"Month", "12", "InvalidUsedTime.Malformed"}, {"Month", "0", "InvalidUsedTime.Malformed"},
		{"Year", "6", "InvalidUsedTime.Malformed"}, {"Week", "1", "InvalidParameter"}, {"", "1", "MissingParameter"},
	} {
		e.c.fails("CreateDBInstance", mysqlCreate(prepaid(bad.period, bad.used, "false")), 400, bad.code)
	}
	e.c.fails("CreateDBInstance", mysqlCreate(map[string]string{"PayType": "Prepaid", "Period": "Month", "UsedTime": "1", "DeletionProtection": "true"}), 403, "OperationDenied.PayType")
	start := e.clock.Now()
	id := e.create(prepaid("Year", "2", "false"))
	if got, want := e.attr(id)["ExpireTime"], start.AddDate(2, 0, 0).Format(timestampLayout); got != want {
		t.Fatalf("ExpireTime = %v, want %v", got, want)
	}
	if r := renewalOf(t, e, id); r["AutoRenew"] != "False" || jsonNum(r["Duration"]) != "12" {
		t.Fatalf("renewal of a yearly subscription: %v", r)
	}
	e.clock.Add(2*365*24*time.Hour + 24*time.Hour)
	if a := e.attr(id); a["LockMode"] != lockByExpiration {
		t.Fatalf("an expired subscription without auto-renewal is locked: LockMode %v", a["LockMode"])
	}
	e.c.fails("ModifyDBInstanceDescription", map[string]string{"DBInstanceId": id, "DBInstanceDescription": "x-name"}, 403, "IncorrectDBInstanceLockMode")
}

func TestPrepaidAutoRenewExtendsAtExpiry(t *testing.T) {
	e := newEnv(t)
	start := e.clock.Now()
	id := e.create(prepaid("Month", "1", "true"))
	e.clock.Add(45 * 24 * time.Hour)
	a := e.attr(id)
	if a["LockMode"] != lockUnlocked || a["ExpireTime"] != start.AddDate(0, 2, 0).Format(timestampLayout) {
		t.Fatalf("auto-renewal extends by one month: LockMode %v ExpireTime %v", a["LockMode"], a["ExpireTime"])
	}
	e.c.ok("ModifyInstanceAutoRenewalAttribute", map[string]string{"DBInstanceId": id, "AutoRenew": "True", "Duration": "3"})
	if r := renewalOf(t, e, id); r["AutoRenew"] != "True" || jsonNum(r["Duration"]) != "3" {
		t.Fatalf("renewal after ModifyInstanceAutoRenewalAttribute: %v", r)
	}
	e.c.fails("ModifyInstanceAutoRenewalAttribute", map[string]string{"DBInstanceId": id, "AutoRenew": "True", "Duration": "13"}, 400, "InvalidDuration.Malformed")
	e.c.fails("ModifyInstanceAutoRenewalAttribute", map[string]string{"DBInstanceId": id, "AutoRenew": "True"}, 400, "MissingParameter")
}

func TestTransformPayTypeAndPrepaidDelete(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.fails("ModifyInstanceAutoRenewalAttribute", map[string]string{"DBInstanceId": id, "AutoRenew": "False"}, 403, "OperationDenied.PayType")
	e.c.fails("TransformDBInstancePayType", map[string]string{"DBInstanceId": id, "PayType": "Postpaid"}, 400, "InvalidPayType.Same")
	e.c.fails("TransformDBInstancePayType", map[string]string{"DBInstanceId": id, "PayType": "Prepaid", "Period": "Month"}, 400, "MissingParameter")
	out := e.c.ok("TransformDBInstancePayType", map[string]string{"DBInstanceId": id, "PayType": "Prepaid", "Period": "Month", "UsedTime": "3"})
	if out["ChargeType"] != "PREPAY" || out["ExpiredTime"] == "" {
		t.Fatalf("transform to Prepaid answers %v", out)
	}
	if a := e.attr(id); a["PayType"] != "Prepaid" || a["ExpireTime"] == "" {
		t.Fatalf("after the transform: PayType %v ExpireTime %v", a["PayType"], a["ExpireTime"])
	}
	e.c.fails("ModifyDBInstanceDeletionProtection", map[string]string{"DBInstanceId": id, "DeletionProtection": "true"}, 403, "OperationDenied.PayType")
	e.c.fails("DeleteDBInstance", map[string]string{"DBInstanceId": id}, 403, "OperationDenied.PrePayTypeNotSupported")
	e.clock.Add(100 * 24 * time.Hour) // expired and locked: converting is still allowed
	e.c.ok("TransformDBInstancePayType", map[string]string{"DBInstanceId": id, "PayType": "Postpaid"})
	if a := e.attr(id); a["PayType"] != "Postpaid" || a["ExpireTime"] != "" || a["LockMode"] != lockUnlocked {
		t.Fatalf("after converting back: %v %v %v", a["PayType"], a["ExpireTime"], a["LockMode"])
	}
	e.c.ok("DeleteDBInstance", map[string]string{"DBInstanceId": id})
}

// RenewInstance: Period in the documented set; a running subscription is extended from its end, an
// expired one from now and unlocked; a pay-as-you-go instance is refused.
func TestRenewInstance(t *testing.T) {
	e := newEnv(t)
	start := e.clock.Now()
	id := e.create(prepaid("Month", "1", "false"))
	e.c.fails("RenewInstance", map[string]string{"DBInstanceId": id, "Period": "10"}, 400, "InvalidPeriod.Malformed")
	e.c.fails("RenewInstance", map[string]string{"DBInstanceId": id}, 400, "MissingParameter")
	e.c.ok("RenewInstance", map[string]string{"DBInstanceId": id, "Period": "2", "AutoPay": "true"})
	if got, want := e.attr(id)["ExpireTime"], start.AddDate(0, 3, 0).Format(timestampLayout); got != want {
		t.Fatalf("renewed before its end: ExpireTime %v, want %v", got, want)
	}
	e.clock.Add(100 * 24 * time.Hour)
	if a := e.attr(id); a["LockMode"] != lockByExpiration {
		t.Fatalf("not expired: %v", a["LockMode"])
	}
	now := e.clock.Now()
	e.c.ok("RenewInstance", map[string]string{"DBInstanceId": id, "Period": "12"})
	if a := e.attr(id); a["LockMode"] != lockUnlocked || a["ExpireTime"] != now.AddDate(1, 0, 0).Format(timestampLayout) {
		t.Fatalf("renewed after its end: LockMode %v ExpireTime %v, want unlocked until %v", a["LockMode"], a["ExpireTime"], now.AddDate(1, 0, 0))
	}
	post := e.create(nil)
	e.c.fails("RenewInstance", map[string]string{"DBInstanceId": post, "Period": "1"}, 403, "OperationDenied.PayType")
}
