package rdsservice

import (
	"strings"
	"testing"
	"time"
)

// What a plan does with the interrupted creates of one configuration: exactly one, young enough,
// is taken over (adopted when its instance is known, resent when only its token can find it);
// anything else is refused, naming the objects and their import blocks.
func TestDecideInterrupted(t *testing.T) {
	now := time.Now()
	entry := func(action, token string, age time.Duration) JournalEntry {
		return JournalEntry{Kind: "rds_instance", Action: action, Token: token, Started: now.Add(-age)}
	}
	cases := []struct {
		name    string
		pending []PendingCreate
		adopt   string
		resend  bool
		refused []string // objects named in the error
	}{
		{name: "nothing left"},
		{name: "one instance", pending: []PendingCreate{{entry(OpCreate, "t1", time.Minute), "rm-1"}}, adopt: "rm-1"},
		{name: "one unanswered clone", pending: []PendingCreate{{entry(OpClone, "t1", time.Minute), ""}}, resend: true},
		{name: "two instances", pending: []PendingCreate{{entry(OpCreate, "t1", time.Minute), "rm-1"}, {entry(OpCreate, "t2", time.Minute), "rm-2"}},
			refused: []string{"rm-1", "rm-2", "2 interrupted creates"}},
		{name: "an instance and an unanswered clone", pending: []PendingCreate{{entry(OpCreate, "t1", time.Minute), "rm-1"}, {entry(OpClone, "t2", time.Minute), ""}},
			refused: []string{"rm-1", "an unanswered CloneDBInstance (ClientToken t2)"}},
		{name: "too old", pending: []PendingCreate{{entry(OpCreate, "t1", AdoptWindow+time.Hour), "rm-1"}},
			refused: []string{"rm-1", "more than 24h0m0s ago"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := DecideInterrupted(c.pending, now)
			if v.Adopt != c.adopt || v.Resend != c.resend || (v.Reason != "") != (c.refused != nil) {
				t.Fatalf("verdict %+v; want adopt %q, resend %t, refused %t", v, c.adopt, c.resend, c.refused != nil)
			}
			problems := v.Problems("rds_instance", "")
			refusals := 0
			for _, p := range problems {
				if p.Severity == SeverityError {
					refusals++
				}
			}
			if (refusals > 0) != (c.refused != nil) {
				t.Fatalf("problems %+v; want refused %t", problems, c.refused != nil)
			}
			if c.refused == nil {
				return
			}
			// Every refused case leaves rm-1, whose import block the error gives.
			for _, want := range append(c.refused, "import {\n  to = rds_instance.NAME\n  id = \"rm-1\"\n}") {
				if !strings.Contains(problems[0].Detail, want) {
					t.Errorf("error detail lacks %q:\n%s", want, problems[0].Detail)
				}
			}
		})
	}
}
