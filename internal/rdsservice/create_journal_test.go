package rdsservice

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func journalEnv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// openTwo opens the journal of one working directory twice, as two provider processes would.
func openTwo(t *testing.T, dir, workspace string) (*CreateJournal, *CreateJournal) {
	t.Helper()
	env := journalEnv(map[string]string{"TF_WORKSPACE": workspace})
	a, b := OpenCreateJournal(dir, env), OpenCreateJournal(dir, env)
	if a == nil || b == nil {
		t.Fatal("no journal in a directory with .terraform")
	}
	return a, b
}

func workDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCreateJournalNoDataDirectoryNoJournal(t *testing.T) {
	if j := OpenCreateJournal(t.TempDir(), journalEnv(nil)); j != nil {
		t.Fatalf("journal %s opened without a data directory", j.Dir())
	}
	var none *CreateJournal
	e, err := none.Begin("rds_instance", "k", "CreateDBInstance", "t")
	if e != nil || err != nil || none.Interrupted("rds_instance", "k") != nil {
		t.Fatal("a nil journal records something")
	}
}

// A create of a live run is never interrupted; once its process is gone (its lock released), it is.
func TestCreateJournalLiveRunIsNotInterrupted(t *testing.T) {
	killed, next := openTwo(t, workDir(t), "default")
	e, err := killed.Begin("rds_instance", "key", "CreateDBInstance", "tok")
	if err != nil {
		t.Fatal(err)
	}
	if err := killed.Accepted(e, "rm-1"); err != nil {
		t.Fatal(err)
	}
	if got := next.Interrupted("rds_instance", "key"); len(got) != 0 {
		t.Fatalf("a running create is taken for interrupted: %+v", got)
	}
	if got := killed.Interrupted("rds_instance", "key"); len(got) != 0 {
		t.Fatalf("a run sees its own create as interrupted: %+v", got)
	}
	killed.lock.Close() // what the kernel does when the process dies
	got := next.Interrupted("rds_instance", "key")
	if len(got) != 1 || got[0].ID != "rm-1" || got[0].Token != "tok" {
		t.Fatalf("interrupted = %+v, want the create of rm-1", got)
	}
	if other := next.Interrupted("rds_instance", "other-key"); len(other) != 0 {
		t.Fatalf("another configuration sees it: %+v", other)
	}
	next.Forget(got)
	if left := next.Interrupted("rds_instance", "key"); len(left) != 0 {
		t.Fatalf("forgotten entry still there: %+v", left)
	}
}

// Another workspace of the same working directory has its own journal.
func TestCreateJournalWorkspacesAreSeparate(t *testing.T) {
	dir := workDir(t)
	a, _ := openTwo(t, dir, "staging")
	b, _ := openTwo(t, dir, "production")
	if a.Dir() == b.Dir() {
		t.Fatalf("both workspaces journal in %s", a.Dir())
	}
	if _, err := a.Begin("rds_instance", "key", "CreateDBInstance", "tok"); err != nil {
		t.Fatal(err)
	}
	a.lock.Close()
	if got := b.Interrupted("rds_instance", "key"); len(got) != 0 {
		t.Fatalf("workspace production sees staging's create: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(dir, ".terraform", "environment"), []byte("staging\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	selected := OpenCreateJournal(dir, journalEnv(nil))
	if selected.Dir() != a.Dir() || len(selected.Interrupted("rds_instance", "key")) != 1 {
		t.Fatalf("the workspace terraform selected (.terraform/environment) is not staging: %s", selected.Dir())
	}
}

// A create that returned stays adoptable until a refresh reads its object (or ReturnedWindow ends).
func TestCreateJournalReturnedUntilRecorded(t *testing.T) {
	killed, next := openTwo(t, workDir(t), "default")
	e, _ := killed.Begin("rds_account", "key", "CreateAccount", "")
	_ = killed.Accepted(e, "rm-1:app")
	killed.Done(e, true)
	none, _ := killed.Begin("rds_account", "key", "CreateAccount", "")
	killed.Done(none, false) // no object: nothing kept
	killed.lock.Close()
	got := next.Interrupted("rds_account", "key")
	if len(got) != 1 || got[0].Returned == nil {
		t.Fatalf("interrupted = %+v, want the returned create of rm-1:app", got)
	}
	next.Recorded("rm-1:app")
	if left := next.Interrupted("rds_account", "key"); len(left) != 0 {
		t.Fatalf("an object read in a state is still adoptable: %+v", left)
	}

	old, reader := openTwo(t, workDir(t), "default")
	e, _ = old.Begin("rds_account", "key", "CreateAccount", "")
	_ = old.Accepted(e, "rm-2:app")
	past := time.Now().Add(-ReturnedWindow - time.Minute)
	e.Returned = &past
	if err := writeEntry(e); err != nil {
		t.Fatal(err)
	}
	old.lock.Close()
	if left := reader.Interrupted("rds_account", "key"); len(left) != 0 {
		t.Fatalf("a create returned long ago is adoptable: %+v", left)
	}
}
