package rdsservice

import (
	"context"
	"errors"
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// securityAPI answers SSL and TDE reads and counts them.
type securityAPI struct {
	rdsapi.API
	ssl, tde int
	err      error
}

func (a *securityAPI) DescribeDBInstanceSSL(context.Context, string) (*rdsapi.DBInstanceSSL, error) {
	a.ssl++
	return &rdsapi.DBInstanceSSL{SSLEnabled: "Yes"}, a.err
}

func (a *securityAPI) DescribeDBInstanceTDE(context.Context, string) (*rdsapi.DBInstanceTDE, error) {
	a.tde++
	return &rdsapi.DBInstanceTDE{TDEStatus: rdsapi.TDEEnabled}, a.err
}

// SSL and TDE are read from the cloud only where the configuration sets them and the state does
// not hold them yet; a failed read is a read failure and leaves the facts unset.
func TestReadSecurityFactsReadsOnlyWhatTheStateLacks(t *testing.T) {
	api := &securityAPI{}
	in := PlanInput{Desired: Desired{Security: DesiredSecurity{SSL: Known(true), TDE: Known(true)}}}
	state := SecurityState{SSL: Known(false), TDE: Null[bool](), TDEKey: "k"}
	if f := readSecurityFacts(context.Background(), Env{API: api}, "rm-1", state, &in); f != nil {
		t.Fatal(f)
	}
	if api.ssl != 0 || api.tde != 1 || in.Facts.Security != (SecurityFacts{SSL: false, TDE: true, TDEKey: "k"}) {
		t.Errorf("reads ssl %d tde %d, facts %+v", api.ssl, api.tde, in.Facts.Security)
	}
	unset := PlanInput{Desired: Desired{Security: DesiredSecurity{SSL: Null[bool](), TDE: Unknown[bool]()}}}
	if readSecurityFacts(context.Background(), Env{API: api}, "rm-1", SecurityState{}, &unset); api.ssl != 0 || api.tde != 1 {
		t.Errorf("read what the configuration leaves alone: ssl %d tde %d", api.ssl, api.tde)
	}
	failing := &securityAPI{err: errors.New("boom")}
	in = PlanInput{Desired: Desired{Security: DesiredSecurity{SSL: Known(true)}}}
	if f := readSecurityFacts(context.Background(), Env{API: failing}, "rm-1", SecurityState{}, &in); len(f) != 1 || in.Facts.Security != (SecurityFacts{}) {
		t.Errorf("failures %+v, facts %+v", f, in.Facts.Security)
	}
}
