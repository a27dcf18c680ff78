package provider

import (
	"context"
	"strings"
	"testing"
)

// The read/write-splitting endpoint (issue 42 §1) is not the instance's own: a connection_string_prefix that names
// it is refused at plan with no write, and the instance's own endpoint changes as before, the other one untouched.
func TestEndpoints_readWriteSplittingEndpointIsNotChanged(t *testing.T) {
	t.Parallel()
	h := newOracleHarness(t)
	w := h.newWorld()
	const addr = "rds_instance.db"
	w.applyChecked(t, "port", []oracleResource{{addr, endpointAttrs("", 3306, nil, false)}})
	var id string
	_ = attrOf(w.state[addr], "id").As(&id)
	if err := w.sim.AddReadWriteSplittingEndpoint(id, "orders-rw"); err != nil {
		t.Fatal(err)
	}
	w.sim.ResetStats()
	refused, err := w.planWalk([]oracleResource{{addr, endpointAttrs("orders-rw", 3306, nil, false)}})
	if err != nil {
		t.Fatal(err)
	}
	if text := errorText(refused, addr); !strings.Contains(text, "names the read/write-splitting endpoint") ||
		!strings.Contains(text, "orders-rw.mysql.rds.aliyuncs.com:3306") || mutationsIn(w.sim.Stats()) > 0 {
		t.Fatalf("refusal %q with %d writes", text, mutationsIn(w.sim.Stats()))
	}
	w.applyChecked(t, "own endpoint", []oracleResource{{addr, endpointAttrs("orders-db-01", 3307, nil, false)}})
	if in, _ := netInfo(t, h, id); in != "orders-db-01.mysql.rds.aliyuncs.com:3307" {
		t.Fatalf("the instance's own endpoint: %s", in)
	}
	api, err := h.directClient()
	if err != nil {
		t.Fatal(err)
	}
	info, err := api.DescribeDBInstanceNetInfo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rw := info.ReadWriteSplitting(); len(rw) != 1 || rw[0].ConnectionString != "orders-rw.mysql.rds.aliyuncs.com" {
		t.Fatalf("the read/write-splitting endpoint after the apply: %+v", rw)
	}
}
