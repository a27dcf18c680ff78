package rdsservice

import "sync"

// Ledger is what the plans of one run of the provider decided so far, for the plans that follow:
// Terraform plans a resource after the resources it references, so a read-only instance's plan sees
// what its primary's plan decided, and a primary's plan sees the read-only instances this run
// releases. One Ledger per configured provider; the zero value is ready to use.
type Ledger struct {
	mu        sync.Mutex
	primaries map[string]PrimaryPlan
	replaced  map[string]Val[int64]
	// pendingTask are the unchanged primaries whose state holds a task waiting for their window:
	// their read-only instances are planned in full, so a toggle they follow there is named.
	pendingTask map[string]bool
	// released are the read-only instances this run destroys. Terraform destroys them before it
	// updates their primary, so the primary's plan leaves them out.
	released map[string]bool
	// followers are the read-only instances each primary's plan names as restarting with it.
	followers map[[2]string]bool
	// weighted are the read-only instances each proxy's plan weights ({primary, read-only}).
	weighted map[[2]string]bool
	// proxies are the primaries whose database proxy this run's plans configure, and prepared
	// each instance's max_prepared_stmt_count as this run plans it (proxy_prepared_stmt.go).
	proxies  map[string]bool
	prepared map[string]string
	// accounts (instance/name: type), databases (instance/name) and grants
	// (instance/account/database: privilege) are what the access resources plan (access_ledger.go).
	accounts  map[string]string
	databases map[string]bool
	grants    map[string]string
	// groups are the parameters this run's plans give existing parameter groups (run_ledger_groups.go).
	groups map[string]map[string]string
	// specChanges are the instances whose spec change this run plans, and when it switches them
	// over (proxy_spec_change.go).
	specChanges map[string]string
}

// PrimaryPlan is what this run's in-place plan of a primary decided, as its read-only instances'
// plans need it.
type PrimaryPlan struct {
	// AtomicWrite is the flag the read-only instances see during this apply (the current one
	// when the change waits for the window); null when this run did not plan the primary.
	AtomicWrite Val[bool]
	// Storage is the primary's planned storage.
	Storage Val[int64]
	// Scheduled is the toggle the plan defers to the primary's window (nil: none).
	Scheduled *ScheduledFlag
	// Minor is the minor version upgrade the plan makes (nil: none).
	Minor *MinorFollow
	// ZoneMoveInWindow: the plan moves the primary to another zone in its window.
	ZoneMoveInWindow bool
	// ReplacesTask: the plan replaces the primary's task waiting for its window.
	ReplacesTask bool
	// TaskMayBeCancelled: the plan names the restart of the primary's waiting task as possible (a
	// value known only at apply may cancel or replace the task).
	TaskMayBeCancelled bool
	// UnknownFlagStartsAt: the primary's atomic_write_16k is known only at apply and its change
	// would wait for the window starting then ("": not so); unknown_restarts.go.
	UnknownFlagStartsAt string
}

// RecordPrimary records the in-place plan of primary id.
func (l *Ledger) RecordPrimary(id string, p PrimaryPlan) {
	if id == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.primaries == nil {
		l.primaries = map[string]PrimaryPlan{}
	}
	l.primaries[id] = p
}

// RecordMinor records the minor version upgrade the plan of an unchanged primary id names (a
// waiting one its read-only instances restart with), keeping the rest of its record.
func (l *Ledger) RecordMinor(id string, f *MinorFollow) {
	p := l.Primary(id)
	p.Minor = f
	l.RecordPrimary(id, p)
}

// RecordScheduled records the toggle the task of an unchanged primary id makes in its window (nil:
// none), keeping the rest of its record: its read-only instances' plans follow it.
func (l *Ledger) RecordScheduled(id string, s *ScheduledFlag) {
	p := l.Primary(id)
	p.Scheduled = s
	l.RecordPrimary(id, p)
}

// Primary is this run's in-place plan of primary id (the zero PrimaryPlan when none).
func (l *Ledger) Primary(id string) PrimaryPlan {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.primaries[id]
}

// RecordReplaced records that this run replaces primary id, its replacement planned with storage.
func (l *Ledger) RecordReplaced(id string, storage Val[int64]) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replaced == nil {
		l.replaced = map[string]Val[int64]{}
	}
	l.replaced[id] = storage
}

// Replaced is primary id's replacement in this run, or nil when this run does not replace it.
func (l *Ledger) Replaced(id string) *ReplacedPrimary {
	l.mu.Lock()
	defer l.mu.Unlock()
	storage, ok := l.replaced[id]
	if !ok {
		return nil
	}
	return &ReplacedPrimary{ID: id, Storage: storage}
}

// RecordPendingTask records an unchanged primary whose state holds a task waiting for its window.
func (l *Ledger) RecordPendingTask(id string) { l.add(&l.pendingTask, id) }

// PendingTask reports whether RecordPendingTask recorded primary id.
func (l *Ledger) PendingTask(id string) bool { return l.has(&l.pendingTask, id) }

// RecordReleased records a read-only instance this run destroys.
func (l *Ledger) RecordReleased(id string) { l.add(&l.released, id) }

// Released reports whether this run destroys read-only instance id.
func (l *Ledger) Released(id string) bool { return l.has(&l.released, id) }

// RecordFollowers records the read-only instances a primary's plan names as restarting with it.
func (l *Ledger) RecordFollowers(primary string, readOnly []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.followers == nil {
		l.followers = map[[2]string]bool{}
	}
	for _, ro := range readOnly {
		l.followers[[2]string{primary, ro}] = true
	}
}

// Follows reports whether this run's plan of primary named readOnly as restarting with it.
func (l *Ledger) Follows(primary, readOnly string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.followers[[2]string{primary, readOnly}]
}

// RecordProxyWeights records the read-only instances the plan of primary's proxy weights.
func (l *Ledger) RecordProxyWeights(primary string, readOnly []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.weighted == nil {
		l.weighted = map[[2]string]bool{}
	}
	for _, ro := range readOnly {
		l.weighted[[2]string{primary, ro}] = true
	}
}

// ProxyWeights reports whether this run's plan of primary's proxy weights readOnly.
func (l *Ledger) ProxyWeights(primary, readOnly string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.weighted[[2]string{primary, readOnly}]
}

func (l *Ledger) add(set *map[string]bool, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if *set == nil {
		*set = map[string]bool{}
	}
	(*set)[id] = true
}

func (l *Ledger) has(set *map[string]bool, id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return (*set)[id]
}
