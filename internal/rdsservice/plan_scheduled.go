package rdsservice

// SpecValues is the part of an instance a spec order changes: what private state keeps of the
// instance while a change waits for its window (the JSON names are private state's).
type SpecValues struct {
	InstanceType        string `json:"instance_type"`
	Storage             int64  `json:"storage"`
	StorageType         string `json:"storage_type"`
	AtomicWrite         bool   `json:"atomic_write_16k"`
	AtomicWriteSupport  bool   `json:"atomic_write_16k_supported"`
	BufferPoolExtension bool   `json:"buffer_pool_extension"`
	// EngineVersion is the version before a major version upgrade waiting for the window.
	EngineVersion string `json:"engine_version,omitempty"`
	// Category is the edition before an edition upgrade waiting for the window.
	Category string `json:"category,omitempty"`
	// Architecture is instruction_set_arch, which a class change of another family changes (issue 39
	// §4: the state kept the requested class and read the running architecture back).
	Architecture string `json:"instruction_set_arch,omitempty"`
}

// ScheduledInputs are what scheduled_change is planned from.
type ScheduledInputs struct {
	// Recorded: the prior state records a task waiting for the window.
	Recorded bool
	// From is the instance's spec before that task (private state; nil: none).
	From *SpecValues
	// Requested is the spec the plan asks for; RequestedKnown false while the class is unknown.
	Requested      SpecValues
	RequestedKnown bool
	// SpecUnknown: a value of the spec (class, storage, storage type, the flags) is known only at
	// apply, so the apply may send a spec order now or defer one to the window (issue 39 §3).
	SpecUnknown bool
	// KeepsTask: the configured class is the waiting task's, which the apply leaves to it
	// (keepsPendingClass): the apply reads the task back (a restart now or parameters for the
	// window leave it waiting, with more to do).
	KeepsTask bool
}

// ScheduledChange is what a plan of an update shows for scheduled_change.
type ScheduledChange int

const (
	// ScheduledKept: as the prior state records it.
	ScheduledKept ScheduledChange = iota
	// ScheduledUnknown: known after the apply.
	ScheduledUnknown
	// ScheduledNone: no task waits after the apply.
	ScheduledNone
)

// PlannedScheduledChange is scheduled_change in the plan of an update: unknown when this apply
// defers a change (the task id is known after apply), when a value of the spec is known only at
// apply (the apply may defer or send a change, issue 39 §3), or sends parameters while a change is
// pending (setting a waiting parameter back withdraws it from the cloud's task; the apply reads
// what is left), none when it restarts the instance now or reverts the pending spec change (which
// cancels it), else as it is.
func PlannedScheduledChange(dec Decision, s ScheduledInputs) ScheduledChange {
	switch {
	case dec.Deferred || dec.PendingMoves && s.Recorded || s.SpecUnknown || dec.ParametersStillWait || s.KeepsTask:
		return ScheduledUnknown
	case !dec.Order.Empty() || restartsNow(dec) || dec.CancelsPendingTask() || cancelsSpecTask(dec):
		return ScheduledNone
	case s.From != nil && s.RequestedKnown && s.Requested == s.From.withCategoryOf(s.Requested):
		return ScheduledNone
	case s.Recorded && len(dec.Parameters.Send) > 0:
		return ScheduledUnknown
	}
	return ScheduledKept
}

// cancelsSpecTask: the program orders the instance's own spec for the window, which cancels the
// waiting spec change, and no parameter is sent or left waiting. The plan does not compare the
// configured spec with the one before the task here: autoscaling may have grown the disk since, and
// an order that keeps the disk cancels all the same (issue 39 §4, a saved plan then a revert).
func cancelsSpecTask(dec Decision) bool {
	return len(dec.Parameters.Send) == 0 && len(dec.Parameters.Pending) == 0 &&
		dec.Program.sendsSpecOrder(func(op Operation) bool { return op.CancelsPending })
}

// restartsNow reports whether the apply restarts an instance during the apply (not in the window).
func restartsNow(dec Decision) bool {
	for _, r := range dec.Restarts {
		if r.When == "" {
			return true
		}
	}
	return false
}

// withCategoryOf is from with requested's category when from has none (private state written
// before category was kept there), so that only a recorded edition is compared, and with
// requested's architecture, which follows the class compared already.
func (from SpecValues) withCategoryOf(requested SpecValues) SpecValues {
	if from.Category == "" {
		from.Category = requested.Category
	}
	from.Architecture = requested.Architecture
	return from
}
