package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// What a plan does with the interrupted creates of one configuration: exactly one, young enough,
// is taken over (adopted when its instance is known, resent when only its token can find it);
// anything else is refused, naming the objects and their import blocks.
func TestDecideInterrupted(t *testing.T) {
	now := time.Now()
	entry := func(action, token string, age time.Duration) rdsservice.JournalEntry {
		return rdsservice.JournalEntry{Kind: "rds_instance", Action: action, Token: token, Started: now.Add(-age)}
	}
	cases := []struct {
		name    string
		pending []pendingCreate
		adopt   string
		resend  bool
		refused []string // objects named in the error
	}{
		{name: "nothing left"},
		{name: "one instance", pending: []pendingCreate{{entry(actionCreate, "t1", time.Minute), "rm-1"}}, adopt: "rm-1"},
		{name: "one unanswered clone", pending: []pendingCreate{{entry(actionClone, "t1", time.Minute), ""}}, resend: true},
		{name: "two instances", pending: []pendingCreate{{entry(actionCreate, "t1", time.Minute), "rm-1"}, {entry(actionCreate, "t2", time.Minute), "rm-2"}},
			refused: []string{"rm-1", "rm-2", "2 interrupted creates"}},
		{name: "an instance and an unanswered clone", pending: []pendingCreate{{entry(actionCreate, "t1", time.Minute), "rm-1"}, {entry(actionClone, "t2", time.Minute), ""}},
			refused: []string{"rm-1", "an unanswered CloneDBInstance (ClientToken t2)"}},
		{name: "too old", pending: []pendingCreate{{entry(actionCreate, "t1", rdsservice.AdoptWindow+time.Hour), "rm-1"}},
			refused: []string{"rm-1", "more than 24h0m0s ago"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := decideInterrupted(c.pending)
			if v.Adopt != c.adopt || v.Resend != c.resend || (v.Reason != "") != (c.refused != nil) {
				t.Fatalf("verdict %+v; want adopt %q, resend %t, refused %t", v, c.adopt, c.resend, c.refused != nil)
			}
			var diags diag.Diagnostics
			v.report("rds_instance", nil, &diags)
			if c.refused == nil {
				if diags.HasError() {
					t.Fatalf("refused: %v", diags)
				}
				return
			}
			if !diags.HasError() {
				t.Fatal("no error")
			}
			detail := diags.Errors()[0].Detail()
			// Every refused case leaves rm-1, whose import block the error gives.
			for _, want := range append(c.refused, "import {\n  to = rds_instance.NAME\n  id = \"rm-1\"\n}") {
				if !strings.Contains(detail, want) {
					t.Errorf("error detail lacks %q:\n%s", want, detail)
				}
			}
		})
	}
}
