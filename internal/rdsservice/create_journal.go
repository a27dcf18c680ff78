package rdsservice

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// The create journal (issue 29). Terraform records a resource in state only when its Create
// returns, so an apply killed while a create is in flight (a CI job that times out, a pre-empted
// runner, a second Ctrl-C) leaves a billed object that no state names, and the next apply would
// create a second one. Terraform gives a provider neither the resource's address nor the
// workspace's state, so the provider keeps its own record, in the working directory Terraform
// runs it in: before a create is sent, an entry (resource type, a key of the configuration, the
// ClientToken) is written; once the cloud accepts it, the entry gets the object's id; when the
// Create returns, the entry is marked returned, and the next refresh that reads the object in a
// state removes it. An entry left behind by a process that no longer runs is an interrupted create; the next plan of a resource with the same type and configuration key
// finds it there and adopts that object (or refuses, naming it).
//
// "This resource" across runs is therefore: the same working directory (its data directory,
// TF_DATA_DIR or .terraform), the same workspace (TF_WORKSPACE, else the one `terraform workspace
// select` recorded), the same resource type and the same configuration. Another workspace or
// another working directory has another journal and never adopts this one's objects. A run is
// alive while its process holds the lock of its run file (released by the kernel when the process
// dies, even on SIGKILL), so a create in flight in a concurrent process is never taken for an
// interrupted one.

// ReturnedWindow bounds how long after its Create returned an object may be adopted: Terraform
// writes the state as soon as a Create returns, so only a kill in that instant loses it, and the
// next refresh that reads the object removes its entry.
const ReturnedWindow = 10 * time.Minute

// AdoptWindow bounds how old an interrupted create may be for its object to be adopted: past it
// the plan refuses and names the object instead (someone may have taken it over meanwhile), and
// a ClientToken is not resent (the cloud's memory of tokens is assumed to last at least this long).
const AdoptWindow = 24 * time.Hour

// journalDirName is the journal's directory inside Terraform's data directory.
const journalDirName = "rds-create-journal"

// CreateJournal is one workspace's journal; nil when there is none (the data directory does not
// exist, or the platform has no file locks), and then every method does nothing.
type CreateJournal struct {
	dir string
	run string

	mu   sync.Mutex
	lock *os.File // held by this process once it has begun a create
	seq  int
	// claimed are the interrupted creates resources of this process took, at plan (false) and at
	// apply (true): twins of one configuration each take a different one (create_twins.go).
	claimed map[bool]map[string]bool
}

// JournalEntry is one create: written before the request is sent, marked when Create returns.
type JournalEntry struct {
	Kind    string    `json:"kind"`
	Key     string    `json:"key"`
	Action  string    `json:"action,omitempty"`
	Token   string    `json:"token,omitempty"`
	ID      string    `json:"id,omitempty"`
	Started time.Time `json:"started"`
	Run     string    `json:"run"`
	// Returned is when Create returned the object to Terraform, which writes it to the state
	// right after: until a refresh reads it there, a kill in between may have lost it.
	Returned *time.Time `json:"returned,omitempty"`

	file string
}

// OpenCreateJournal opens the journal of the working directory dir for the workspace getenv and
// the data directory name; nil when the data directory does not exist (Terraform has not run
// init here, or the provider is served by a test harness).
func OpenCreateJournal(dir string, getenv func(string) string) *CreateJournal {
	if !fileLocksWork {
		return nil
	}
	data := getenv("TF_DATA_DIR")
	if data == "" {
		data = ".terraform"
	}
	if !filepath.IsAbs(data) {
		data = filepath.Join(dir, data)
	}
	if info, err := os.Stat(data); err != nil || !info.IsDir() {
		return nil
	}
	workspace := getenv("TF_WORKSPACE")
	if workspace == "" {
		raw, _ := os.ReadFile(filepath.Join(data, "environment"))
		workspace = strings.TrimSpace(string(raw))
	}
	if workspace == "" {
		workspace = "default"
	}
	return &CreateJournal{dir: filepath.Join(data, journalDirName, url.PathEscape(workspace)), run: uuid.NewString()}
}

// Dir is where the journal keeps its entries ("" for no journal).
func (j *CreateJournal) Dir() string {
	if j == nil {
		return ""
	}
	return j.dir
}

// CreateKey is the key of a configuration: a hash of the resource type and the parts (the
// configuration's values; never a secret).
func CreateKey(kind string, parts ...string) string {
	h := sha256.New()
	h.Write([]byte(kind))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Begin records a create about to be sent; the entry must be ended with Done.
func (j *CreateJournal) Begin(kind, key, action, token string) (*JournalEntry, error) {
	if j == nil {
		return nil, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lock == nil { // held until the process ends: its entries are not interrupted meanwhile
		if err := os.MkdirAll(j.dir, 0o700); err != nil {
			return nil, err
		}
		lock, err := lockRunFile(j.runFile(j.run))
		if err != nil {
			return nil, err
		}
		j.lock = lock
	}
	j.seq++
	e := &JournalEntry{Kind: kind, Key: key, Action: action, Token: token, Started: time.Now().UTC(), Run: j.run,
		file: filepath.Join(j.dir, fmt.Sprintf("%s-%d.json", j.run, j.seq))}
	if err := writeEntry(e); err != nil {
		return nil, err
	}
	return e, nil
}

// Accepted records the id the cloud gave the entry's create.
func (j *CreateJournal) Accepted(e *JournalEntry, id string) error {
	if j == nil || e == nil || e.ID == id {
		return nil
	}
	e.ID = id
	return writeEntry(e)
}

// Done ends the entry of a create that returned to Terraform: kept, marked returned, when it
// returned an object (until a refresh reads it in the state), else removed.
func (j *CreateJournal) Done(e *JournalEntry, returned bool) {
	if j == nil || e == nil {
		return
	}
	if returned && e.ID != "" {
		now := time.Now().UTC()
		e.Returned = &now
		if writeEntry(e) == nil {
			return
		}
	}
	_ = os.Remove(e.file)
}

// Recorded removes the entries of an object a refresh found in the state.
func (j *CreateJournal) Recorded(id string) {
	if j == nil || id == "" {
		return
	}
	for _, e := range j.entriesOf("") {
		if e.ID == id {
			_ = os.Remove(e.file)
		}
	}
}

// Forget removes entries of interrupted creates once their objects are taken over (or known gone).
func (j *CreateJournal) Forget(entries []JournalEntry) {
	if j == nil {
		return
	}
	for _, e := range entries {
		_ = os.Remove(e.file)
		if len(j.entriesOf(e.Run)) == 0 {
			_ = os.Remove(j.runFile(e.Run))
		}
	}
}

// Interrupted lists the entries of kind and key left by runs whose process is gone, oldest first:
// creates that never returned, and those that returned within ReturnedWindow (older ones are
// removed).
func (j *CreateJournal) Interrupted(kind, key string) []JournalEntry {
	if j == nil {
		return nil
	}
	var out []JournalEntry
	alive := map[string]bool{}
	for _, e := range j.entriesOf("") {
		if e.Kind != kind || e.Key != key || e.Run == j.run {
			continue
		}
		if _, seen := alive[e.Run]; !seen {
			alive[e.Run] = runAlive(j.runFile(e.Run))
		}
		switch {
		case alive[e.Run]:
		case e.Returned != nil && time.Since(*e.Returned) > ReturnedWindow:
			j.Forget([]JournalEntry{e})
		default:
			out = append(out, e)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Started.Before(out[b].Started) })
	return out
}

// entriesOf reads the entries of run (every run's when run is ""); unreadable files are skipped.
func (j *CreateJournal) entriesOf(run string) []JournalEntry {
	files, err := filepath.Glob(filepath.Join(j.dir, "*.json"))
	if err != nil {
		return nil
	}
	var out []JournalEntry
	for _, f := range files {
		raw, err := os.ReadFile(f)
		var e JournalEntry
		if err != nil || json.Unmarshal(raw, &e) != nil || (run != "" && e.Run != run) {
			continue
		}
		e.file = f
		out = append(out, e)
	}
	return out
}

func (j *CreateJournal) runFile(run string) string { return filepath.Join(j.dir, run+".lock") }

// writeEntry replaces the entry's file at once (write aside, sync, rename): a kill never leaves a
// half-written entry.
func writeEntry(e *JournalEntry) error {
	raw, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tmp := e.file + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(raw)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, e.file)
}

// runAlive reports whether the process of a run file still holds its lock.
func runAlive(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true // cannot tell: never taken for an interrupted run
	}
	defer f.Close()
	return !tryLock(f)
}
