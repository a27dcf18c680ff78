package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// More of the parameters family at the plugin protocol: the steps and checks of the terraform
// tests they replace. The family keeps TestAccInstanceParameters_importStable and
// TestAccReadonlyParameters_toggleAfterCreateSharesRestart (parameters_test.go) with terraform.

// stateIs checks string attributes of addr's state (a parameter as "parameters.<name>").
func stateIs(w *oracleWorld, t *testing.T, addr string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for name, v := range want {
			var got string
			if param, ok := strings.CutPrefix(name, "parameters."); ok {
				got = w.stringMapAttr(t, addr, "parameters")[param]
			} else {
				got = w.stateAttr(t, addr, name)
			}
			if got != v {
				return fmt.Errorf("%s.%s is %q, want %q", addr, name, got, v)
			}
		}
		return nil
	}
}

// nothingPending checks that addr's state has no parameter waiting for a restart.
func nothingPending(w *oracleWorld, t *testing.T, addr string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := w.stringMapAttr(t, addr, "parameters_pending"); len(got) != 0 {
			return fmt.Errorf("%s.parameters_pending is %v, want empty", addr, got)
		}
		return nil
	}
}

// flagIs checks atomic_write_16k in addr's state.
func flagIs(w *oracleWorld, t *testing.T, addr string, want bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var on bool
		if err := attrOf(w.state[addr], "atomic_write_16k").As(&on); err != nil || on != want {
			return fmt.Errorf("%s.atomic_write_16k is %v (%v), want %v", addr, on, err, want)
		}
		return nil
	}
}

// Bad parameters are refused at plan, for a new instance and for an existing one, with no API
// write; an innodb_doublewrite that agrees with the flag is accepted and not sent.
func TestInstanceParameters_refusedAtPlan(t *testing.T) {
	t.Parallel()
	env, w := envWorld(t, testSimOptions())
	flagOn := map[string]any{"atomic_write_16k": true}
	refusals := []struct {
		params map[string]string
		extra  map[string]any
		err    string
	}{
		{map[string]string{"innodb_io_capacty": "4000"}, nil, `Unknown RDS parameter[\s\S]*innodb_io_capacty[\s\S]*Did\s+you\s+mean\s+innodb_io_capacity`},
		{map[string]string{"innodb_io_capacity": "50"}, nil, `not allowed[\s\S]*"50"[\s\S]*allowed\s+range\s+is\s+the\s+whole\s+numbers\s+\[100-18446744073709551615\]`},
		{map[string]string{"innodb_flush_neighbors": "3"}, nil, `allowed\s+values\s+are\s+0,\s+1,\s+2`},
		{map[string]string{"innodb_page_size": "4096"}, nil, `RDS parameter cannot be changed[\s\S]*innodb_page_size`},
		{map[string]string{"innodb_doublewrite": "ON"}, flagOn, `innodb_doublewrite contradicts atomic_write_16k`},
	}
	refuse := func(when string) {
		t.Helper()
		for _, r := range refusals {
			expectErrorText(t, when+" "+fmt.Sprint(r.params), w.planErrorOf(t, paramsResources(r.params, r.extra)), regexp.MustCompile(r.err))
		}
	}
	agreeing := paramsResources(map[string]string{"innodb_doublewrite": "OFF"}, flagOn)
	// Refused for a new instance: nothing is created.
	refuse("new")
	// The refused plans made no API writes; the agreeing innodb_doublewrite is not sent either.
	protocolStep(t, w, "agreeing", agreeing, env.wantRequests("CreateDBInstance", 1), env.wantRequests("ModifyParameter", 0),
		stateIs(w, t, testRes, map[string]string{"parameters.innodb_doublewrite": "OFF"}))
	// Refused for an existing instance: no write.
	refuse("existing")
	plan := protocolStep(t, w, "agreeing again", agreeing, func(*terraform.State) error {
		if n := env.mutations(); n != 1 {
			return fmt.Errorf("%d mutating requests (%v), want only the create", n, env.sim.Stats().Requests)
		}
		return nil
	})
	expectEmptyPlan(t, "agreeing again", plan)
	destroyAll(t, w, env.checkDestroyed())
}
