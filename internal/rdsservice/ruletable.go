package rdsservice

import (
	"fmt"
	"strings"
)

// This file is the provider's rule table: every rule the plan decides and every message a user
// reads lives in one row below. The planner (planner.go) decides which rows apply; the resources
// only translate the decision into diagnostics.
//
// To add a rule: add a RuleID constant, add a row to ruleTable naming its source (a rule of
// docs/guides or the simulator README, or a documented cloud fact), the attribute it points at,
// its severity and its texts, then raise it with Raise(id, value, args...), the only way to render
// a row. Summary, Detail and Fix are fmt formats over the same arguments (use %[n]v to reuse one);
// Args names them and gives a typed example of each, and every call passes exactly those types.
// TestRuleTableRowsAreComplete renders every row with its examples.

// RuleID names one row of the rule table.
type RuleID string

// Severity says whether a rule refuses the plan or only warns.
type Severity int

const (
	// SeverityError refuses the plan (and the apply, when it re-checks with known values).
	SeverityError Severity = iota
	// SeverityWarning is shown in the plan and does not stop it.
	SeverityWarning
)

// Rule is one row of the rule table.
type Rule struct {
	ID RuleID
	// Source is where the rule is stated: "16K rule N" (docs/guides and the simulator README), a
	// cloud fact with the document it comes from (cited in internal/simulator/README.md), or
	// "provider" for the provider's own promises.
	Source    string
	Severity  Severity
	Attribute string
	Summary   string
	// Detail and Fix are fmt formats over Args.
	Detail string
	Fix    string
	Args   []Arg
}

// Arg names one argument of a row's formats, with an example of its type and meaning.
type Arg struct {
	Name    string
	Example any
}

// Problem is one reason a configuration cannot work (or, as a warning, what the user should
// know). Detail names the prerequisite, the value found and the fix; diagnostics show Summary and
// Detail as they are.
type Problem struct {
	Rule      RuleID
	Severity  Severity
	Attribute string
	Value     string
	Summary   string
	Detail    string
}

func (p Problem) Error() string { return p.Summary + ": " + p.Detail }

// render renders the row for one value.
func (r Rule) render(value string, args ...any) Problem {
	detail := format(r.Detail, args...)
	if r.Fix != "" {
		sep := " "
		if strings.Contains(detail, "\n") {
			sep = "\n"
		}
		detail += sep + format(r.Fix, args...)
	}
	return Problem{Rule: r.ID, Severity: r.Severity, Attribute: r.Attribute, Value: value, Summary: format(r.Summary, args...), Detail: detail}
}

// At is the same row pointed at another attribute (e.g. a restart refusal at the attribute that
// triggers it).
func (p Problem) At(attribute string) Problem {
	p.Attribute = attribute
	return p
}

// Terraform attribute names the problems point at.
const (
	AttrEngine              = "engine"
	AttrEngineVersion       = "engine_version"
	AttrStorageType         = "storage_type"
	AttrStorage             = "storage"
	AttrCategory            = "category"
	AttrInstanceType        = "instance_type"
	AttrAtomicWrite         = "atomic_write_16k"
	AttrBufferPoolExtension = "buffer_pool_extension"
	AttrDeletionProtection  = "deletion_protection"
	AttrPreventRestart      = "prevent_restart"
	AttrApplyRestarts       = "apply_restarts"
	AttrScheduledChange     = "scheduled_change"
	AttrMaintenanceWindow   = "maintenance_window"
	AttrMasterInstanceID    = "master_instance_id"
	AttrRestoreFrom         = "restore_from"
	AttrRestoreSource       = "restore_from.source_instance_id"
	AttrTimeouts            = "timeouts"
	// AttrParameters is the parameter map; a problem about one entry points at "parameters.<name>".
	AttrParameters = "parameters"
)

// Rule ids of a creation that stopped after the instance was Running (kept, not tainted).
const (
	RuleCreateIncomplete  RuleID = "create-incomplete"
	RuleCreateCompleting  RuleID = "create-completing"
	RuleCreateUnrefreshed RuleID = "create-incomplete-not-refreshed"
)

// Rule ids of a create an earlier apply was interrupted in (issue 29, create_journal.go).
const (
	RuleCreateAdopted RuleID = "create-adopted"
	RuleCreateResent  RuleID = "create-resent"
	RuleCreateOrphan  RuleID = "create-interrupted-orphan"
	// RuleCreateJournalUnreadable: the plan cannot read what an interrupted create left (create_interrupted_plan.go).
	RuleCreateJournalUnreadable RuleID = "create-interrupted-unreadable"
	// Issue 23: backups in the create journal (backup_journal.go).
	RuleBackupCreateOrphan RuleID = "backup-interrupted-orphan"
	RuleBackupNowLeft      RuleID = "backup-now-interrupted"
)

// Issue 41: identical twins (count) each take one interrupted create (create_twins.go).
const RuleCreateAdoptedTwin RuleID = "create-adopted-twin"

// Rule ids of a moved block from the alicloud provider (internal/provider/moved_alicloud.go): each
// refuses a source this provider cannot manage, before anything is written.
const (
	RuleMoveOtherProvider      RuleID = "move-other-provider"
	RuleMoveOtherType          RuleID = "move-other-type"
	RuleMoveWithinProvider     RuleID = "move-within-provider"
	RuleMoveNoAttributes       RuleID = "move-no-attributes"
	RuleMoveMissingPart        RuleID = "move-missing-part"
	RuleMoveNotWholeNumber     RuleID = "move-not-whole-number"
	RuleMoveUnmanagedEngine    RuleID = "move-unmanaged-engine"
	RuleMoveUnmanagedAccount   RuleID = "move-unmanaged-account-type"
	RuleMoveUnmanagedPrivilege RuleID = "move-unmanaged-privilege"
)

// Rule ids of an update that meets a change made outside it (the apply decides them, with what it
// reads then).
const (
	RuleChangedDuringApply RuleID = "changed-during-apply"
	RuleChangedSincePlan   RuleID = "changed-since-plan"
	// RuleRestartNotInPlan: issue 23, found trying combinations as a user (executor_cancel.go).
	RuleRestartNotInPlan RuleID = "restart-not-in-plan"
	// RuleParamWithdrawnRan: sweep seed 33 of issue 39, a saved plan applied after the cloud moved on (executor_parameters.go).
	RuleParamWithdrawnRan RuleID = "parameter-withdrawn-ran"
	// RuleRestartWithPrimary: issue 23, found trying combinations as a user (restart_with_primary.go).
	RuleRestartWithPrimary RuleID = "restart-with-primary"
)

// Rule ids of values known only at apply (issue 39 §3): a restart that depends on one is named as
// possible (RuleMayRestart) and prevent_restart refuses it at plan as it refuses a certain one
// (plan_restarts.go guardRestarts, plan_clone.go); an action on an instance known only at apply
// (action_program.go); a prevent_restart known only at apply, which may refuse the apply.
const (
	RuleMayRestartRefusedUnknown     RuleID = "prevent-restart-refuses-possible-restart"
	RuleActionInstanceUnknown        RuleID = "action-instance-unknown"
	RuleActionInstanceUnknownRefused RuleID = "action-instance-unknown-refused"
	RuleRestartGuardUnknown          RuleID = "prevent-restart-known-at-apply"
	// RuleStorageReadOnlyBelowUnknown: the primary's storage is known only at apply, so the apply
	// may refuse the read-only instance's spec change (RuleStorageReadOnlyBelow); readonly_storage.go.
	RuleStorageReadOnlyBelowUnknown RuleID = "storage-readonly-below-primary-known-at-apply"
	// Rule16KRefusalPossibleUnknown: atomic_write_16k is known only at apply, and true would be
	// refused there (unknown_refusals.go).
	Rule16KRefusalPossibleUnknown RuleID = "16k-refusal-possible-known-at-apply"
	// RuleAloneRefusalPossibleUnknown: a change that goes in an apply of its own (a zone move, a
	// major or minor version upgrade) beside a spec attribute known only at apply (unknown_refusals.go).
	RuleAloneRefusalPossibleUnknown RuleID = "alone-refusal-possible-known-at-apply"
)

// Rule ids, grouped as the table is.
const (
	Rule16KEngine           RuleID = "16k-engine"
	Rule16KVersion          RuleID = "16k-engine-version"
	Rule16KStorageType      RuleID = "16k-storage-type"
	Rule16KProductType      RuleID = "16k-product-type-change"
	Rule16KNotSupported     RuleID = "16k-not-supported"
	Rule16KBasicEdition     RuleID = "16k-basic-edition"
	Rule16KDecidedAtApply   RuleID = "16k-decided-at-apply"
	Rule16KTurnedOffChange  RuleID = "16k-turned-off-by-change"
	Rule16KReadOnlyOff      RuleID = "16k-readonly-off-while-primary-on"
	Rule16KPrimaryNotKnown  RuleID = "16k-primary-plan-not-visible"
	Rule16KPrimaryChanged   RuleID = "16k-primary-changed-since-plan"
	Rule16KReadOnlyNotKnown RuleID = "16k-readonly-followers-unknown"
	Rule16KBasicOffForGood  RuleID = "16k-basic-off-for-good"

	RuleBPEStorageType RuleID = "bpe-storage-type"

	RuleStorageShrinkNotOffered  RuleID = "storage-shrink-not-offered"
	RuleStorageShrinkLimits      RuleID = "storage-shrink-limits"
	RuleStorageReadOnlyBelow     RuleID = "storage-readonly-below-primary"
	RuleStoragePrimaryAbove      RuleID = "storage-primary-above-readonly"
	RuleStorageTypeCloudToLocal  RuleID = "storage-type-cloud-to-local"
	RuleReadOnlyEngineVersion    RuleID = "readonly-engine-version"
	RuleReadOnlyPrimaryNotFound  RuleID = "readonly-primary-not-found"
	RuleReadOnlyOfReadOnly       RuleID = "readonly-primary-is-read-only"
	RuleReadOnlyReleasedFirst    RuleID = "readonly-released-before-primary"
	RuleCloneDiffersFromSource   RuleID = "clone-differs-from-source"
	RuleCloneSourceUnreadable    RuleID = "clone-source-unreadable"
	RuleCloneRestoreTimeOutside  RuleID = "clone-restore-time-outside-window"
	RuleRestoreFromExactlyOne    RuleID = "restore-from-exactly-one"
	RuleClassNotOffered          RuleID = "class-not-offered"
	RuleClassStorageRange        RuleID = "class-storage-range"
	RuleClassCannotCheck         RuleID = "class-cannot-check"
	RuleCloudUnavailable         RuleID = "cloud-unavailable"
	RuleClassCombinationRefused  RuleID = "class-combination-refused"
	RuleRestart                  RuleID = "restart"
	RuleMayRestart               RuleID = "restart-maybe"
	RuleRestartDeferred          RuleID = "restart-in-maintenance-window"
	RulePendingRestart           RuleID = "restart-by-pending-task"
	RuleFollowWithdrawn          RuleID = "restart-by-pending-task-withdrawn"
	RuleMaintenanceWindowFormat  RuleID = "maintenance-window-format"
	RuleClassNoFit               RuleID = "class-catalogue-no-fit"
	RuleClassNameShape           RuleID = "function-class-name-shape"
	RuleTimeZone                 RuleID = "function-time-zone"
	RuleParamTemplateVersion     RuleID = "function-parameter-template-version"
	RuleReplace                  RuleID = "replace"
	RuleReplaceReadOnly          RuleID = "replace-read-only"
	RuleRestartRefused           RuleID = "prevent-restart-refuses-restart"
	RuleMayRestartRefused        RuleID = "prevent-restart-refuses-unknown-parameters"
	RuleReplaceRefusedRestart    RuleID = "prevent-restart-refuses-replacement"
	RuleReplaceVersionBehind     RuleID = "engine-version-behind-running"
	RuleReplaceRefusedProtection RuleID = "deletion-protection-refuses-replacement"
	RuleDestroyRefusedProtection RuleID = "deletion-protection-refuses-destroy"
	RuleTimeoutNotPositive       RuleID = "timeout-not-positive"
	RuleChangeInProgress         RuleID = "change-in-progress"
	RuleInstanceStopped          RuleID = "instance-stopped"
	RuleInstanceLocked           RuleID = "instance-locked"
	RuleInstanceDeleting         RuleID = "instance-deleting"
	RuleInstanceDeletingNoChange RuleID = "instance-deleting-no-change"
	RuleActionInstanceState      RuleID = "action-instance-state"

	RuleStorageStep        RuleID = "storage-step"
	RuleNameLength         RuleID = "instance-name-length"
	RuleNameScheme         RuleID = "instance-name-scheme"
	RuleNameLetter         RuleID = "instance-name-letter"
	RuleSecurityIP         RuleID = "security-ip"
	RuleRegex              RuleID = "regex"
	RuleListFilter         RuleID = "list-filter"
	RuleWholeNumber        RuleID = "whole-number"
	RuleTimestamp          RuleID = "utc-timestamp"
	RuleReadOnlyClassShape RuleID = "readonly-class-shape"
	RuleNotAPrimary        RuleID = "not-a-primary"
	RuleNotAReadOnly       RuleID = "not-a-readonly"
	RuleImportID           RuleID = "import-id"
	RulePrimaryUnreadable  RuleID = "readonly-primary-unreadable"
	RuleDataSourceNotFound RuleID = "data-source-not-found"
	RuleImportDeleting     RuleID = "import-deleting"

	RuleParamUnknown                RuleID = "param-unknown"
	RuleParamNotModifiable          RuleID = "param-not-modifiable"
	RuleParamValue                  RuleID = "param-value-not-allowed"
	RuleParamNoValue                RuleID = "param-no-value"
	RuleParamDoublewriteContradicts RuleID = "param-doublewrite-contradicts-16k"
	RuleParamDoublewriteUndecided   RuleID = "param-doublewrite-16k-unknown"
	RuleParamFactsUnreadable        RuleID = "param-facts-unreadable"
	RuleParamWaiting                RuleID = "param-waiting-for-restart"
	// rds_parameter_group (G1-G4 in parameter_group.go).
	RuleParamGroupName        RuleID = "param-group-name"
	RuleParamGroupEngine      RuleID = "param-group-engine"
	RuleParamGroupEmpty       RuleID = "param-group-empty"
	RuleParamGroupDoublewrite RuleID = "param-group-doublewrite"
	RuleParamGroupGone        RuleID = "param-group-gone"
	RuleParamGroupOverridden  RuleID = "param-group-overridden"
	RuleParamGroupNameTaken   RuleID = "param-group-name-taken"

	// accounts, databases and privileges (their checks are in account_rules.go).
	RuleAccessEngine           RuleID = "access-engine"
	RuleAccountOnReadOnly      RuleID = "account-on-read-only"
	RuleAccessReadOnlyHost     RuleID = "access-listed-on-read-only"
	RuleDatabaseOnReadOnly     RuleID = "database-on-read-only"
	RulePrivilegeOnReadOnly    RuleID = "privilege-on-read-only"
	RuleAccountNameLength      RuleID = "account-name-length"
	RuleAccountNameCharacters  RuleID = "account-name-characters"
	RuleAccountNameFirst       RuleID = "account-name-first"
	RuleAccountNameLast        RuleID = "account-name-last"
	RuleAccountNameReserved    RuleID = "account-name-reserved"
	RuleAccountType            RuleID = "account-type"
	RuleAccountOneSuper        RuleID = "account-one-super"
	RuleAccountDescription     RuleID = "account-description"
	RuleAccountPasswordMissing RuleID = "account-password-missing"
	RuleAccountChecksDeferred  RuleID = "account-checks-deferred"
	RulePasswordLength         RuleID = "password-length"
	RulePasswordCharacters     RuleID = "password-characters"
	RulePasswordClasses        RuleID = "password-classes"
	RuleDatabaseNameLength     RuleID = "database-name-length"
	RuleDatabaseNameCharacters RuleID = "database-name-characters"
	RuleDatabaseNameFirst      RuleID = "database-name-first"
	RuleDatabaseNameLast       RuleID = "database-name-last"
	RuleDatabaseNameReserved   RuleID = "database-name-reserved"
	RuleDatabaseCharacterSet   RuleID = "database-character-set"
	RuleDatabaseDescription    RuleID = "database-description"
	RulePrivilegeValue         RuleID = "privilege-value"
	RulePrivilegeSuperAccount  RuleID = "privilege-super-account"
	// Rules that read the instance's accounts and databases, and the plans of the other access
	// resources of the same run (issue 24).
	RuleAccessInstanceMissing    RuleID = "access-instance-missing"
	RuleAccountExists            RuleID = "account-exists"
	RuleAccountPlannedTwice      RuleID = "account-planned-twice"
	RuleDatabaseExists           RuleID = "database-exists"
	RuleDatabasePlannedTwice     RuleID = "database-planned-twice"
	RulePrivilegeAccountMissing  RuleID = "privilege-account-missing"
	RulePrivilegeAccountCase     RuleID = "privilege-account-case"
	RulePrivilegeDatabaseMissing RuleID = "privilege-database-missing"
	RulePrivilegePairTaken       RuleID = "privilege-pair-taken"
	// Provider-defined actions (issue 28, instance_actions.go).
	RuleActionSwitchover        RuleID = "action-switchover"
	RuleActionSwitchoverRefused RuleID = "action-switchover-refused"
	RuleActionNoSecondary       RuleID = "action-no-secondary"
	RuleActionNothingPending    RuleID = "action-nothing-pending"
	// Major version upgrades in place (issue 25, upgrade_rules.go).
	RuleUpgradePath             RuleID = "engine-upgrade-path"
	RuleUpgradeEdition          RuleID = "engine-upgrade-edition"
	RuleUpgradeReadOnlyFirst    RuleID = "engine-upgrade-read-only-first"
	RuleUpgradeReadOnlyNotKnown RuleID = "engine-upgrade-read-only-not-known"
	RuleUpgradeAlone            RuleID = "engine-upgrade-alone"
	RuleUpgrade16KAvailable     RuleID = "engine-upgrade-16k-available"
	// Zone moves in place (issue 25 §3, zone_rules.go).
	RuleZoneMoveEdition         RuleID = "zone-move-edition"
	RuleZoneMoveBasicSecondary  RuleID = "zone-move-basic-secondary"
	RuleZoneMoveThirdZone       RuleID = "zone-move-third-zone"
	RuleZoneMoveVSwitch         RuleID = "zone-move-vswitch"
	RuleZoneMoveMinorVersion    RuleID = "zone-move-minor-version"
	RuleZoneMoveReadOnlyRunning RuleID = "zone-move-read-only-running"
	RuleZoneMoveNotKnown        RuleID = "zone-move-not-known"
	RuleZoneMoveAlone           RuleID = "zone-move-alone"
	RuleZoneMoveReadOnlyWindow  RuleID = "zone-move-read-only-window"
	RuleZoneMoveBPEUnchecked    RuleID = "zone-move-bpe-unchecked"
	RuleZoneUnknown             RuleID = "zone-unknown"
	RuleUpgradePending          RuleID = "engine-upgrade-pending"
	// Editions in place (issue 25 §4, edition_rules.go).
	RuleEditionUpgradeClass RuleID = "edition-upgrade-class"
	RuleEditionUpgrade16K   RuleID = "edition-upgrade-16k"
)

// ruleTable is every rule and message of the provider.
var ruleTable = []Rule{
	// ---- 16K atomic write (docs/guides and internal/simulator/README.md state rules 1-9) ----
	{ID: Rule16KEngine, Source: "16K rule 1", Attribute: AttrEngine,
		Summary: "16K atomic write is not available for this engine",
		Detail:  "16K atomic write needs engine MySQL; got %q.", Args: []Arg{{"engine", "PostgreSQL"}},
		Fix: "Use a MySQL instance or set atomic_write_16k = false."},
	{ID: Rule16KVersion, Source: "16K rule 1", Attribute: AttrEngineVersion,
		Summary: "16K atomic write is not available for this engine version",
		Detail:  "16K atomic write needs engine_version 5.7 or 8.0; got %q%s.", Args: []Arg{{"version", "5.6"}, {"changing-from text", " (changing from \"8.0\")"}},
		Fix: "Choose MySQL 5.7 or 8.0 or set atomic_write_16k = false."},
	{ID: Rule16KStorageType, Source: "16K rule 1", Attribute: AttrStorageType,
		Summary: "16K atomic write is not available for this storage type",
		Detail:  "16K atomic write needs storage_type cloud_essd, cloud_essd2, cloud_essd3 or general_essd; got %q%s.", Args: []Arg{{"storage type", "cloud_ssd"}, {"changing-from text", ""}},
		Fix: "Choose an ESSD storage type or set atomic_write_16k = false."},
	{ID: Rule16KProductType, Source: "16K rule 9", Attribute: AttrInstanceType,
		Summary: "This instance type change makes 16K atomic write unavailable",
		Detail: "16K atomic write needs the product type of an instance bought before 2025-05-14 to stay unchanged; " +
			"changing instance_type from %q (%s) to %q (%s) changes it, and instance %s (bought %s) then loses 16K atomic write for good.",
		Args: []Arg{{"from class", "mysql.n2m.medium.2c"}, {"from arch", "arm"}, {"to class", "mysql.n2.medium.2c"}, {"to arch", "x86"}, {"instance", "rm-1"}, {"purchase date", "2024-06-01"}, {"current arch", "arm"},
			{"fix", "Choose an instance type of the same architecture (arm) or set atomic_write_16k = false."}},
		Fix: "%[8]s"},
	{ID: Rule16KNotSupported, Source: "16K rule 2", Attribute: AttrAtomicWrite,
		Summary: "16K atomic write is not supported by this instance",
		Detail: "16K atomic write needs an eligible instance; atomic_write_16k_supported is false for instance %s " +
			"(existing standard x86 instances bought before 2025-05-14, and instances whose product type was changed, are not eligible).",
		Args: []Arg{{"instance", "rm-1"}},
		Fix:  "Set atomic_write_16k = false, or create a new instance, which is eligible."},
	{ID: Rule16KBasicEdition, Source: "16K rule 3", Attribute: AttrCategory,
		Summary: "16K atomic write cannot be turned on for an existing instance of this edition",
		Detail:  "Turning on 16K atomic write for an existing instance needs category HighAvailability or cluster; got %q.", Args: []Arg{{"category", "Basic"}},
		Fix: "Basic-edition instances get it only at creation: set atomic_write_16k = false, or create a new instance with atomic_write_16k = true."},
	{ID: Rule16KBasicOffForGood, Source: "16K rule 3", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "Turning 16K atomic write off on a Basic-edition instance cannot be undone",
		Detail:  "Instance %s is Basic edition: once 16K atomic write is off, it cannot be turned on again (Basic edition gets it only at creation).", Args: []Arg{{"instance", "rm-1"}},
		Fix: "Keep atomic_write_16k = true if you may want it later."},
	{ID: Rule16KDecidedAtApply, Source: "16K rules 2 and 9 (the API does not show product-type history)", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "16K atomic write eligibility is decided at apply",
		Detail: "Instance %s is not eligible for 16K atomic write with its current storage_type %q and engine_version %q, " +
			"and it was bought before 2025-05-14 (or its purchase date is unknown): after this change it is eligible only if its product type " +
			"was never changed between x86 and YiTian, which the API does not show. If the cloud refuses, the apply fails with its error;",
		Args: []Arg{{"instance", "rm-1"}, {"storage type", "cloud_ssd"}, {"engine version", "8.0"}},
		Fix:  "to be safe, apply the storage or version change first with atomic_write_16k = false, then check atomic_write_16k_supported."},
	{ID: Rule16KTurnedOffChange, Source: "16K rules 1 and 9", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "16K atomic write will be turned off",
		Detail:  "Instance %s has atomic_write_16k = true, but after this change (%s) it is no longer eligible, so the same spec change turns 16K atomic write off.%s",
		Args: []Arg{{"instance", "rm-1"}, {"change", "storage_type \"cloud_essd\" -> \"cloud_ssd\""},
			{"permanence (a sentence, or empty)", " The loss is permanent: moving back does not restore it."}},
		Fix: "Keep the current instance_type/storage_type to keep it, or set atomic_write_16k = false to acknowledge."},
	{ID: Rule16KReadOnlyOff, Source: "16K rule 7", Attribute: AttrAtomicWrite,
		Summary: "16K atomic write cannot be off on a read-only instance whose primary has it on",
		Detail: "atomic_write_16k = false is not possible for %s: its primary %s %s 16K atomic write on, and a " +
			"read-only instance cannot turn it off while its primary has it on.",
		Args: []Arg{{"instance", "rr-1"}, {"primary", "rm-1"}, {"\"has\" or \"will have\"", "has"},
			{"fix", "Remove atomic_write_16k or set it to true, or turn 16K atomic write off on the primary rm-1 first (both can change in one apply)."}},
		Fix: "%[4]s"},
	{ID: Rule16KPrimaryNotKnown, Source: "16K rule 7 (Terraform plans a read-only instance after the primary it references)", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "The primary's planned 16K atomic write is not known at plan",
		Detail: "%s follows its primary %s's atomic_write_16k, and the primary's planned value is known only at apply (it depends on values " +
			"not known yet; the primary has %t now). The apply decides again before any change: an instance that inherits the value takes it " +
			"(an existing one with a restart), one set to true is turned on with a restart if the primary is off, and one set to false is " +
			"refused if the primary is on.",
		Args: []Arg{{"instance", "rr-1"}, {"primary", "rm-1"}, {"current primary value", false}},
		Fix:  "Give the primary's atomic_write_16k a known value, or set atomic_write_16k on this read-only instance."},
	{ID: Rule16KPrimaryChanged, Source: "16K rule 7", Attribute: AttrAtomicWrite,
		Summary: "The primary's 16K atomic write changed since the plan",
		Detail: "The plan showed atomic_write_16k = %t for %s, inherited from its primary %s, but it would now inherit %t " +
			"(the primary was changed after the plan, outside this run). Nothing was created or changed.",
		Args: []Arg{{"planned", true}, {"instance", "rr-1"}, {"primary", "rm-1"}, {"now", false}},
		Fix:  "Run terraform apply again so that the plan shows the inherited value."},
	{ID: Rule16KReadOnlyNotKnown, Source: "16K rule 7", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "Cannot list the read-only instances that will restart",
		Detail: "Turning on 16K atomic write for %s also turns it on (with a restart) for its read-only instances that " +
			"have it off, but they could not be read: %s.", Args: []Arg{{"instance", "rm-1"}, {"error", "Throttling"}},
		Fix: "Run the plan again; the apply names them when it waits for them."},

	// ---- Buffer Pool Extension ----
	{ID: RuleBPEStorageType, Source: "cloud fact: IoAccelerationEnabled needs general_essd (rds-openapi spec, simulator README)", Attribute: AttrBufferPoolExtension,
		Summary: "Buffer Pool Extension is not available for this storage type",
		Detail:  "buffer_pool_extension needs storage_type general_essd; got %q.", Args: []Arg{{"storage type", "cloud_essd"}},
		Fix: "Choose general_essd or set buffer_pool_extension = false."},

	// ---- storage (cloud facts cited in internal/simulator/README.md, "Storage") ----
	{ID: RuleStorageShrinkNotOffered, Source: "cloud fact: storage scale-in needs MySQL 5.7/8.0 on ESSD", Attribute: AttrStorage,
		Summary: "Storage cannot be reduced for this instance",
		Detail: "storage changes from %d GB to %d GB on %s %s with storage_type %q: the cloud reduces storage only for MySQL 5.7 or 8.0 " +
			"on ESSD storage (cloud_essd, cloud_essd2, cloud_essd3, general_essd).",
		Args: []Arg{{"from", int64(100)}, {"to", int64(50)}, {"engine", "MySQL"}, {"version", "5.6"}, {"storage type", "cloud_ssd"}},
		Fix:  "Keep storage at %[1]d GB or more, or move the data to a new, smaller instance."},
	{ID: RuleStorageShrinkLimits, Source: "cloud fact: storage scale-in limits", Severity: SeverityWarning, Attribute: AttrStorage,
		Summary: "Reducing storage depends on facts the plan cannot see",
		Detail: "storage changes from %d GB to %d GB. The cloud accepts a reduction only when the new size is at least " +
			"min(used x 1.3, used + 400 GB) and at most twice a day per instance; the API does not show either at plan, so the apply fails with the cloud's error if they do not hold.",
		Args: []Arg{{"from", int64(100)}, {"to", int64(50)}},
		Fix:  "Check the used storage in the console before applying."},
	{ID: RuleStorageReadOnlyBelow, Source: "cloud fact: a read-only instance's storage is at least its primary's", Attribute: AttrStorage,
		Summary: "Read-only instance storage is below its primary's",
		Detail:  "storage = %d GB for %s, but its primary %s has %d GB; a read-only instance needs at least its primary's storage.",
		Args:    []Arg{{"storage", int64(50)}, {"instance", "rr-1"}, {"primary", "rm-1"}, {"primary storage", int64(100)}},
		Fix:     "Set storage to %[4]d or more."},
	{ID: RuleStorageReadOnlyBelowUnknown, Source: "cloud fact: a read-only instance's storage is at least its primary's; provider: the plan names a refusal that depends on a value known only at apply (issue 39)",
		Severity: SeverityWarning, Attribute: AttrStorage,
		Summary: "The apply may refuse the change of %[1]s: its primary's storage is known only at apply",
		Detail: "storage = %[3]d GB for %[1]s, and this run creates it or changes its spec; the storage of its primary %[2]s is known only at apply. " +
			"If it is above %[3]d GB there, the read-only instance's creation or spec change is refused (a read-only instance needs at least its primary's storage), " +
			"and the apply fails after the primary has changed.",
		Args: []Arg{{"instance", "rr-1"}, {"primary", "rm-1"}, {"storage", int64(100)}},
		Fix:  "Give the primary's storage a value known at plan, or set this read-only instance's storage to at least the largest storage the primary may get."},
	{ID: Rule16KRefusalPossibleUnknown, Source: "16K rules; provider: the plan names a refusal that depends on a value known only at apply (issue 39)",
		Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "The apply may refuse atomic_write_16k of %[1]s: its value is known only at apply",
		Detail: "atomic_write_16k of %[1]s is known only at apply. If it is true there, the apply refuses it before any write to %[1]s " +
			"(after other resources of this run have changed): %[2]s.",
		Args: []Arg{{"instance", "rm-1"}, {"refusals", "16K atomic write needs MySQL 8.0"}},
		Fix:  "Give atomic_write_16k a value known at plan (not computed from resources created or changed in this run), or make the instance eligible first."},
	{ID: RuleAloneRefusalPossibleUnknown, Source: zoneSource + "; " + upgradeSource + "; provider: the plan names a refusal that depends on a value known only at apply (issue 39)",
		Severity: SeverityWarning, Attribute: AttrZoneID,
		Summary: "The apply may refuse the changes of %[1]s: %[2]s known only at apply",
		Detail: "%[2]s of %[1]s is known only at apply. If it changes there, the apply refuses the plan of %[1]s before any write to it " +
			"(after other resources of this run have changed): %[3]s.",
		Args: []Arg{{"instance", "rm-1"}, {"attributes", "instance_type"}, {"refusal", "Move rm-1 to another zone in an apply of its own"}},
		Fix:  "Give %[2]s a value known at plan (not computed from resources created or changed in this run), or make that change in an apply of its own."},
	{ID: RuleStoragePrimaryAbove, Source: "cloud fact: a read-only instance's storage is at least its primary's", Severity: SeverityWarning, Attribute: AttrStorage,
		Summary: "Read-only instances will have less storage than their primary",
		Detail:  "storage of %s grows to %d GB, above its read-only instances %s; the cloud then refuses their spec changes until their storage is at least the primary's.",
		Args:    []Arg{{"instance", "rm-1"}, {"storage", int64(200)}, {"read-only instances", "rr-1 (100 GB)"}},
		Fix:     "Grow the read-only instances' storage first (Alibaba's recommended order), or in the same apply."},
	{ID: RuleStorageTypeCloudToLocal, Source: "cloud fact: no path from cloud disks back to local disks", Attribute: AttrStorageType,
		Summary: "Cloud-disk storage cannot be changed to local disks",
		Detail:  "storage_type changes from %q to %q: the cloud moves instances from local disks to cloud disks, never back.",
		Args:    []Arg{{"from", "cloud_essd"}, {"to", "local_ssd"}},
		Fix:     "Keep a cloud storage type, or create a new instance on local_ssd and move the data."},

	// ---- read-only instances and clones ----
	{ID: RuleReadOnlyEngineVersion, Source: "cloud fact: a read-only instance runs its primary's version", Attribute: AttrEngineVersion,
		Summary: "Read-only instance engine version differs from the primary's",
		Detail:  "A read-only instance runs its primary's engine version: primary %s has %q, engine_version is %q.", Args: []Arg{{"primary", "rm-1"}, {"primary version", "8.0"}, {"configured", "5.7"}},
		Fix: "Remove engine_version (it defaults to the primary's) or set it to %[2]q."},
	{ID: RuleReadOnlyPrimaryNotFound, Source: "provider", Attribute: AttrMasterInstanceID,
		Summary: "Primary instance not found",
		Detail:  "The primary instance %s does not exist in region %s.", Args: []Arg{{"primary", "rm-1"}, {"region", "cn-hangzhou"}},
		Fix: "Check master_instance_id."},
	{ID: RuleReadOnlyReleasedFirst, Source: "provider: Terraform destroys a resource before it updates one the resource depends on (hashicorp/terraform, internal/terraform/transform_destroy_edge.go)",
		Severity: SeverityWarning, Attribute: AttrMasterInstanceID,
		Summary: "Read-only instance %[1]s is released before its primary changes",
		Detail: "This run releases read-only instance %[1]s and turns atomic_write_16k on for its primary %[2]s. Terraform " +
			"releases a read-only instance before it updates the primary it depends on, so %[1]s does not restart with its " +
			"primary: the restart of %[1]s that the primary's plan names does not happen.",
		Args: []Arg{{"instance", "rr-1"}, {"primary", "rm-1"}},
		Fix:  "Nothing to do; keep %[1]s in the configuration if it should stay and follow its primary."},
	{ID: RuleReadOnlyOfReadOnly, Source: "cloud fact: CreateReadOnlyDBInstance refuses a read-only instance as DBInstanceId (InvalidDBInstanceId)", Attribute: AttrMasterInstanceID,
		Summary: "The primary instance is itself a read-only instance",
		Detail:  "master_instance_id = %[1]q is a read-only instance of %[2]s, and a read-only instance cannot have read-only instances of its own.",
		Args:    []Arg{{"configured primary", "rr-1"}, {"its primary", "rm-1"}},
		Fix:     "Set master_instance_id to the primary %[2]s."},
	{ID: RuleCloneDiffersFromSource, Source: "16K rule 8; cloud fact: CloneDBInstance keeps the source's engine and version", Attribute: AttrEngineVersion,
		Summary: "A clone cannot differ from its source in this attribute",
		Detail:  "%s = %q, but the restore source %s has %q, and a clone always runs its source's %[1]s.", Args: []Arg{{"attribute", "engine_version"}, {"configured", "5.7"}, {"source", "rm-1"}, {"source value", "8.0"}},
		Fix: "Set %[1]s = %[4]q (or the source's value through a reference)."},
	{ID: RuleCloneSourceUnreadable, Source: "provider", Attribute: AttrRestoreSource,
		Summary: "Cannot read the restore source",
		Detail:  "DescribeDBInstanceAttribute %s: %s.", Args: []Arg{{"source", "rm-1"}, {"error", "InvalidDBInstanceId.NotFound"}},
		Fix: "restore_from.source_instance_id must name an existing instance."},
	{ID: RuleCloneRestoreTimeOutside, Source: "cloud fact: a point-in-time restore lies within the source's lifetime", Attribute: AttrRestoreFrom,
		Summary: "restore_time is outside the source's restorable window",
		Detail:  "restore_time %s is not between the creation of %s (%s) and now (%s).", Args: []Arg{{"restore time", "2024-01-01T00:00:00Z"}, {"source", "rm-1"}, {"created", "2024-06-01T00:00:00Z"}, {"now", "2026-01-01T00:00:00Z"}},
		Fix: "Choose a time in that window, or a backup_id."},
	{ID: RuleRestoreFromExactlyOne, Source: "cloud fact: CloneDBInstance takes BackupId or RestoreTime; CreateDdrInstance a cross-region BackupSetId", Attribute: AttrRestoreFrom,
		Summary: "Invalid restore_from",
		Detail:  "restore_from names more than one, or none, of backup_id, restore_time and cross_region_backup_id.", Args: []Arg{},
		Fix: "Set exactly one of restore_from.backup_id (a backup set id), restore_from.restore_time (UTC yyyy-MM-ddTHH:mm:ssZ) and " +
			"restore_from.cross_region_backup_id (a copy in another region, with source_region)."},
	{ID: RuleCrossRestoreSourceRegion, Source: "cloud fact: CreateDdrInstance names the copy's source by SourceRegion and SourceDBInstanceName (internal/simulator/README.md, Cross-region backups)",
		Attribute: AttrCrossRestoreRegion, Summary: "Invalid restore_from: cross_region_backup_id and source_region go together",
		Detail: "restore_from.source_region = %[1]q: a restore from a cross-region backup names the region of source_instance_id in source_region, " +
			"and source_region means nothing without cross_region_backup_id.", Args: []Arg{{"source_region", "cn-hangzhou"}},
		Fix: "Set both restore_from.cross_region_backup_id and restore_from.source_region (the source instance's region), or neither."},
	{ID: RuleCrossRestoreCopyMissing, Source: "cloud fact: DescribeCrossRegionBackups lists an instance's copies, asked in its region (internal/simulator/README.md, Cross-region backups)",
		Attribute: AttrCrossRestoreID, Summary: "Cross-region backup %[1]s of %[2]s does not exist",
		Detail: "DescribeCrossRegionBackups in %[3]s lists no copy %[1]s of %[2]s: the id is wrong, the copy expired (its retention_days), or it was " +
			"deleted with its released instance on cloud disks.",
		Args: []Arg{{"copy", "14563"}, {"source", "rm-1"}, {"source region", "cn-hangzhou"}},
		Fix:  "Choose a copy listed by data \"rds_cross_region_backups\" (backups[*].cross_backup_id) of %[2]s."},
	{ID: RuleCrossRestoreRegion, Source: "cloud fact: CreateDdrInstance creates the instance in the region that holds the copy (RegionId); provider: an instance is created in the provider's region",
		Attribute: AttrCrossRestoreID, Summary: "Cross-region backup %[1]s is held in %[2]s, not in the provider's region",
		Detail: "Copy %[1]s is held in %[2]s, so the restored instance is created in %[2]s, but this resource's provider is configured for region %[3]s.",
		Args:   []Arg{{"copy", "14563"}, {"copy region", "cn-shanghai"}, {"provider region", "cn-hangzhou"}},
		Fix:    "Give this resource a provider configured for %[2]s: provider \"rds\" { alias = \"dr\", region = %[2]q } and provider = rds.dr on the resource."},
	{ID: RuleCrossRestoreUnreadable, Source: "provider", Attribute: AttrCrossRestoreID,
		Summary: "Cannot read cross-region backup %[1]s",
		Detail:  "DescribeCrossRegionBackups %[2]s in %[3]s (copy %[1]s): %[4]s.",
		Args:    []Arg{{"copy", "14563"}, {"source", "rm-1"}, {"source region", "cn-hangzhou"}, {"error", "Throttling"}},
		Fix:     "Check restore_from.source_instance_id and source_region, and plan again."},

	// ---- class catalogue (DescribeAvailableClasses) ----
	{ID: RuleClassNotOffered, Source: "cloud fact: DescribeAvailableClasses", Attribute: AttrInstanceType,
		Summary: "Instance type not offered",
		Detail:  "instance_type %q is not offered for %s.", Args: []Arg{{"class", "mysql.x9.huge"}, {"engine/version/category/storage/zone text", "MySQL 8.0 HighAvailability cloud_essd"}, {"close matches", "Did you mean mysql.x8.huge?"}},
		Fix: "%[3]s"},
	{ID: RuleClassStorageRange, Source: "cloud fact: DescribeAvailableClasses storage range", Attribute: AttrStorage,
		Summary: "Storage size not offered for this instance type",
		Detail:  "instance_type %q with storage_type %q takes %d to %d GB in steps of %d; got %d.", Args: []Arg{{"class", "mysql.n2.medium.2c"}, {"storage type", "cloud_essd"}, {"min", int64(20)}, {"max", int64(32000)}, {"step", int64(5)}, {"size", int64(10)}},
		Fix: "Choose a size in that range."},
	{ID: RuleClassNoFit, Source: "cloud fact: DescribeAvailableClasses and ListClasses (the rds_instance_classes data source)", Attribute: "instance_class",
		Summary: "No instance class fits",
		Detail:  "No class of %s %s passes the filters: %s.", Args: []Arg{{"combination", "MySQL 8.0, category HighAvailability, storage_type cloud_essd"}, {"zones text", "in zone(s) cn-hangzhou-i"}, {"exclusions", "min_cpu excluded 5 of 6; architecture excluded 2 of 6"}},
		Fix: "Relax the filter named first, or ask other zones, another edition or storage type."},
	{ID: RuleClassNameShape, Source: "cloud fact: class naming <engine>.<family>.<size>.<suffix> (instance-type docs, rds-openapi.md §12)", Attribute: "name",
		Summary: "Not an instance class name",
		Detail:  "%q is not <engine>.<family>.<size>.<suffix>, such as mysql.n2.medium.2c (High-availability), mysql.n2.medium.1 (Basic), mysql.n2e.medium.xc (cluster) or mysqlro.n2.medium.1c (read-only).", Args: []Arg{{"name", "mysql.n2"}},
		Fix: "Give a class the rds_instance_classes data source lists."},
	{ID: RuleTimeZone, Source: "provider: maintenance_window is one daily UTC window (ModifyDBInstanceMaintainTime)", Attribute: "time_zone",
		Summary: "Invalid time_zone",
		Detail:  "%s.", Args: []Arg{{"reason", "Europe/Berlin changes its offset over the year (UTC+1 in January, UTC+2 in July)"}},
		Fix: "Give UTC, an offset such as +08:00, or a zone without daylight saving time such as Asia/Shanghai; in a zone with daylight saving time, choose the offset of the season the window should follow."},
	{ID: RuleParamTemplateVersion, Source: "provider: the parameter templates compiled into the provider (rdsservice/templates)", Attribute: "engine_version",
		Summary: "No parameter template for this engine version",
		Detail:  "The provider has MySQL parameter templates for %[2]s; engine_version %[1]q is not one of them.", Args: []Arg{{"version", "5.6"}, {"versions", "5.7, 8.0"}},
		Fix: "Use one of those versions, or the rds_parameter_templates data source, which asks the cloud."},
	{ID: RuleClassCannotCheck, Source: "provider", Severity: SeverityWarning, Attribute: AttrInstanceType,
		Summary: "Cannot check the instance type",
		Detail:  "DescribeAvailableClasses failed: %s.", Args: []Arg{{"error", "Throttling"}},
		Fix: "The instance type is checked by the cloud at apply time instead."},
	{ID: RuleCloudUnavailable, Source: "provider: a bad environment fails fast and clearly", Attribute: "",
		Summary: "Cannot plan: the RDS API did not answer or refused the credentials",
		Detail:  "DescribeAvailableClasses: %s.", Args: []Arg{{"error", "InvalidAccessKeyId.NotFound"}},
		Fix: "Fix what the error names (endpoint, region, network, credentials or clock), then plan again; nothing was changed."},
	{ID: RuleClassCombinationRefused, Source: "cloud fact: DescribeAvailableClasses", Attribute: AttrInstanceType,
		Summary: "The cloud refuses this combination",
		Detail:  "DescribeAvailableClasses refused %s: %s.", Args: []Arg{{"combination", "MySQL 9.9"}, {"error", "InvalidEngineVersion"}},
		Fix: "Correct the value the cloud names."},

	// ---- restarts, replacements and guards (provider promises) ----
	{ID: RuleRestart, Source: "provider: the plan names every restart", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "This apply restarts %[1]s", Detail: "The following instances will restart:\n%[2]s", Args: []Arg{{"instances text", "RDS instance rm-1"}, {"list", "  - rm-1: atomic_write_16k changes"}},
		Fix: "Set prevent_restart = true to refuse such plans."},
	{ID: RuleRestartDeferred, Source: "provider: the plan names every restart; cloud facts: ModifyDBInstanceSpec EffectiveTime=MaintainTime, ModifyParameter SwitchTimeMode=MaintainTime (simulator README, Maintenance windows, Parameters)",
		Severity: SeverityWarning, Attribute: AttrApplyRestarts,
		Summary: "This apply schedules a restart of %[1]s in the maintenance window",
		Detail:  "The apply returns at once; the cloud restarts the following instances in the window:\n%[2]s", Args: []Arg{{"instances text", "RDS instance rm-1"}, {"list", "  - rm-1: atomic_write_16k changes"}},
		Fix: "Until then the plan shows no change for these attributes and scheduled_change says what is pending; set apply_restarts = \"immediately\" to restart now instead, or prevent_restart = true to refuse such plans."},
	{ID: RulePendingRestart, Source: "provider: the plan names every restart; cloud facts: a change scheduled for the maintenance window runs there whoever ordered it, and a later order replaces it (DescribeHistoryTasks; simulator README, Maintenance windows)",
		Severity: SeverityWarning, Attribute: AttrScheduledChange,
		Summary: "A change waiting for the maintenance window restarts %[1]s",
		Detail:  "The cloud holds a change for the window, ordered before this plan (scheduled_change shows it); it restarts:\n%[2]s", Args: []Arg{{"instances text", "RDS instance rm-1"}, {"list", "  - rm-1: instance_type changes"}},
		Fix: "This apply leaves it scheduled. " + pendingCancelAdvice + "; prevent_restart = true refuses plans while it waits."},
	{ID: RuleFollowWithdrawn, Source: "16K rule 7; provider: a later plan names the restarts it withdraws (issue 39 §4); cloud fact: a later spec order replaces the task waiting for the window (simulator README, Maintenance windows)",
		Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "%[1]s no longer restarts in the maintenance window of %[2]s",
		Detail:  "The change waiting for the maintenance window of %[2]s turns atomic_write_16k on, and these read-only instances were to follow it there with a restart. This apply cancels the toggle, so they keep their value and do not restart.",
		Args:    []Arg{{"instances text", "RDS instance rr-1"}, {"primary", "rm-1"}},
		Fix:     "None needed. To turn 16K atomic write on after all, set atomic_write_16k = true on the primary again; its read-only instances follow it."},
	{ID: RuleMaintenanceWindowFormat, Source: "cloud fact: ModifyDBInstanceMaintainTime takes HH:mmZ-HH:mmZ in UTC (simulator README)",
		Attribute: AttrMaintenanceWindow,
		Summary:   "Invalid maintenance_window",
		Detail:    "%s.", Args: []Arg{{"reason", "\"02:00-03:00\" is not HH:mmZ-HH:mmZ"}},
		Fix: "Give the daily window in UTC as HH:mmZ-HH:mmZ, for example \"02:00Z-03:00Z\"; it may cross midnight (\"22:00Z-02:00Z\")."},
	{ID: RuleMayRestart, Source: "provider: the plan names every restart", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "This apply may restart %[1]s", Detail: "The following instances may restart:\n%[2]s", Args: []Arg{{"instances text", "RDS instance rm-1"}, {"list", "  - rm-1: storage known only at apply"}},
		Fix: "The restart attributes are checked again at apply time with their real values."},
	{ID: RuleReplace, Source: "provider: a replacement is never called a restart", Severity: SeverityWarning, Attribute: AttrEngineVersion,
		Summary: "This apply replaces RDS instance %[1]s",
		Detail:  "%[2]s forces replacement: a new instance is created and %[1]s is deleted, with its data (nothing is copied).", Args: []Arg{{"instance", "rm-1"}, {"attributes", "engine_version"}},
		Fix: "Use restore_from on a new resource to keep the data, or undo the change."},
	{ID: RuleReplaceReadOnly, Source: "provider: a replacement is never called a restart; cloud fact: a read-only instance replicates its data from its primary", Severity: SeverityWarning, Attribute: AttrMasterInstanceID,
		Summary: "This apply replaces read-only instance %[1]s",
		Detail:  "%[2]s forces replacement: a new read-only instance is created and %[1]s is deleted; the new one copies its data from its primary, and its endpoint changes.", Args: []Arg{{"instance", "rr-1"}, {"attributes", "zone_id"}},
		Fix: "Point clients at the new instance's endpoint after the apply, or undo the change."},
	{ID: RuleRestartRefused, Source: "provider: prevent_restart", Attribute: AttrPreventRestart,
		Summary: "prevent_restart refuses this plan: it restarts %[1]s",
		Detail:  "The following instances would restart:\n%[2]s", Args: []Arg{{"instances text", "RDS instance rm-1"}, {"list", "  - rm-1: atomic_write_16k changes"}},
		Fix: "prevent_restart = true refuses any plan that takes the instance out of service, a change already waiting for the maintenance window included (whoever ordered it). " + pendingCancelAdvice + ". Undo the change, or set prevent_restart = false to allow the restart."},
	{ID: RuleMayRestartRefused, Source: "provider: prevent_restart; cloud fact P5: a change of a parameter that needs a restart restarts the instance", Attribute: AttrParameters,
		Summary: "prevent_restart refuses this plan: parameters may restart %[1]s",
		Detail: "%[2]s: known only at apply, and a change of a parameter that needs a restart restarts %[1]s. With prevent_restart = true the apply " +
			"would then have to fail, after other resources of this run have changed.",
		Args: []Arg{{"instance", "rm-1"}, {"what is unknown", "the values of innodb_read_io_threads"}},
		Fix:  "Give these parameters values known at plan (not computed from other resources), or set prevent_restart = false to allow the restart."},
	{ID: RuleMayRestartRefusedUnknown, Source: "provider: prevent_restart refuses a possible restart as it refuses a certain one (issue 39)", Attribute: AttrPreventRestart,
		Summary: "prevent_restart refuses this plan: it may restart %[1]s",
		Detail: "Whether it restarts depends on values known only at apply:\n%[2]s\nWith prevent_restart = true the apply would then have to fail, " +
			"after other resources of this run have changed (a source instance or backup created, say).",
		Args: []Arg{{"instances text", "RDS instance rm-1"}, {"list", "  - rm-1: instance_type known only at apply"}},
		Fix: "Give these attributes values known at plan (not computed from resources created or changed in this run; apply those first, " +
			"e.g. with -target), or set prevent_restart = false to allow the restart."},
	{ID: RuleRestartGuardUnknown, Source: "provider: the plan names a refusal that depends on a value known only at apply (issue 39)", Severity: SeverityWarning, Attribute: AttrPreventRestart,
		Summary: "prevent_restart of %[1]s is known only at apply",
		Detail: "This plan takes %[1]s out of service (%[2]s), and prevent_restart is known only at apply: if it is true then, the apply refuses " +
			"it there, after other resources of this run have changed.",
		Args: []Arg{{"instance", "rm-1"}, {"what", "a restart"}},
		Fix:  "Give prevent_restart a value known at plan (a literal or a variable, not an attribute of a resource created or changed in this run)."},
	{ID: RuleReplaceRefusedRestart, Source: "provider: prevent_restart", Attribute: AttrPreventRestart,
		Summary: "prevent_restart refuses this plan: it replaces %[1]s",
		Detail:  "%[2]s forces replacement of %[1]s: the instance is deleted and a new one created, which takes it out of service.", Args: []Arg{{"instance", "rm-1"}, {"attributes", "engine_version"}},
		Fix: "prevent_restart = true refuses any plan that takes the instance out of service. Undo the change, or set prevent_restart = false to allow the replacement."},
	{ID: RuleReplaceVersionBehind, Source: "cloud fact: RDS upgrades a major version in place and offers no downgrade (UpgradeDBInstanceEngineVersion; simulator README)", Severity: SeverityWarning, Attribute: AttrEngineVersion,
		Summary: "%[2]s runs MySQL %[3]s, not %[1]s",
		Detail:  "engine_version = %[1]q, but %[2]s already runs %[3]s (upgraded outside Terraform, or by an earlier apply), and a major version cannot be lowered: the older version replaces the instance.",
		Args:    []Arg{{"configured", "5.7"}, {"instance", "rm-1"}, {"running", "8.0"}},
		Fix:     "To keep the instance as it is, set engine_version = %[3]q."},
	{ID: RuleReplaceRefusedProtection, Source: "cloud fact: deletion protection refuses DeleteDBInstance", Attribute: AttrDeletionProtection,
		Summary: "RDS instance %[1]s has deletion protection and this plan replaces it",
		Detail:  "%[2]s forces replacement of %[1]s, which deletes it; deletion_protection = true makes the cloud refuse that (with create_before_destroy a second, billed instance would be created first).", Args: []Arg{{"instance", "rm-1"}, {"attributes", "engine_version"}},
		Fix: "Undo the change, or set deletion_protection = false and apply that first, then apply the replacement."},
	{ID: RuleDestroyReleasesProtected, Source: "cloud fact: releasing a primary releases its read-only instances (Alibaba \"Release or unsubscribe from an ApsaraDB RDS for MySQL instance\"); provider: deletion protection is honoured for them too",
		Attribute: AttrDeletionProtection,
		Summary:   "Destroying %[1]s would release read-only instance(s) with deletion protection: %[2]s",
		Detail: "The cloud releases a primary's read-only instances with it, whatever their own settings. %[2]s has deletion_protection = true " +
			"(read from the cloud now; it may be managed in another workspace or configuration), so this plan does not release it by releasing %[1]s.",
		Args: []Arg{{"instance", "rm-1"}, {"protected read-only instances", "rr-1"}},
		Fix:  "Fix: set deletion_protection = false on %[2]s where it is managed (or destroy it there first), apply, then destroy %[1]s."},
	{ID: RuleDestroyRefusedProtection, Source: "cloud fact: deletion protection refuses DeleteDBInstance", Attribute: AttrDeletionProtection,
		Summary: "RDS instance has deletion protection",
		Detail:  "Instance %s has deletion_protection = true, so the cloud refuses to delete it.", Args: []Arg{{"instance", "rm-1"}},
		Fix: "Set deletion_protection = false, run terraform apply, then destroy or replace it."},
	{ID: RuleChangeInProgress, Source: "provider: no restart is promised that will not happen", Severity: SeverityWarning, Attribute: "status",
		Summary: "A change of this instance is still under way",
		Detail: "Instance %s is %s, not Running (an earlier apply may have timed out while the cloud carried out its change). " +
			"The apply waits until it is Running and sends only what is then still missing, so it may or may not restart it.",
		Args: []Arg{{"instance", "rm-1"}, {"status", "DBInstanceClassChanging"}},
		Fix:  "Run terraform apply again once the instance is Running to see an exact plan."},
	{ID: RuleInstanceStopped, Source: "cloud fact: a Stopped instance refuses changes with OperationDenied.DBInstanceStatus until started (simulator README, Unusual states)",
		Severity: SeverityWarning, Attribute: "status",
		Summary: "RDS instance %[1]s is Stopped",
		Detail: "Instance %[1]s is Stopped: the cloud refuses every change to it until it is started again, so an apply that " +
			"changes it fails (at once, not after its timeout).",
		Args: []Arg{{"instance", "rm-1"}},
		Fix:  "Start it (console, or the StartDBInstance API), then run terraform apply; or leave its configuration unchanged while it is stopped."},
	{ID: RuleInstanceLocked, Source: "cloud fact: a locked instance refuses changes with IncorrectDBInstanceLockMode (simulator README, Unusual states)",
		Severity: SeverityWarning, Attribute: "status",
		Summary: "RDS instance %[1]s is locked",
		Detail: "Instance %[1]s is locked (lock_mode %[2]s%[3]s): the cloud refuses changes to it while it is locked, so an apply " +
			"that changes it fails (at once, not after its timeout).",
		Args: []Arg{{"instance", "rm-1"}, {"lock mode", "LockByExpiration"}, {"reason text", ", reason instance_expired"}, {"fix", "Renew the instance."}},
		Fix:  "%[4]s"},
	{ID: RuleInstanceDeleting, Source: "cloud fact: a Deleting instance refuses changes and then disappears (simulator README, Unusual states)",
		Attribute: "status",
		Summary:   "RDS instance %[1]s is being deleted",
		Detail: "Instance %[1]s is Deleting (it was released outside this Terraform run): no change can be applied to it, and it " +
			"disappears once the cloud has finished.",
		Args: []Arg{{"instance", "rm-1"}},
		Fix: "If it was released on purpose, remove it from the configuration and run terraform state rm on it. To get a new " +
			"instance in its place, wait until it is gone: the next plan then creates it again."},
	{ID: RuleActionInstanceState, Source: "cloud fact: a locked, Stopped or Deleting instance refuses RestartDBInstance, SwitchDBInstanceHA and ModifyDBInstanceSpec (simulator README, Unusual states)",
		Severity: SeverityError, Attribute: "instance_id",
		Summary: "%[1]s cannot run on RDS instance %[2]s",
		Detail:  "Instance %[2]s is %[3]s: the cloud refuses %[1]s until that ends, so nothing is sent.",
		Args:    []Arg{{"action", "rds_restart"}, {"instance", "rm-1"}, {"state", "locked (lock_mode LockByDiskQuota)"}, {"fix", "Grow its storage."}},
		Fix:     "%[4]s"},
	{ID: RuleInstanceDeletingNoChange, Source: "cloud fact: a Deleting instance disappears once the cloud has finished (simulator README, Unusual states)",
		Severity: SeverityWarning, Attribute: "status",
		Summary: "RDS instance %[1]s is being deleted",
		Detail:  "Instance %[1]s is Deleting (it was released outside this Terraform run); once it is gone, the next plan creates it again.",
		Args:    []Arg{{"instance", "rm-1"}},
		Fix:     "If it was released on purpose, remove it from the configuration and run terraform state rm on it."},
	// ---- values the configuration alone decides (validators) ----
	{ID: RuleStorageStep, Source: "cloud fact: storage in steps of 5 GB (ModifyDBInstanceSpec, DescribeAvailableClasses)", Attribute: AttrStorage,
		Summary: "Invalid storage size", Detail: "storage must be a multiple of %d GB; got %d.", Args: []Arg{{"step", int64(5)}, {"value", int64(21)}, {"next multiple", int64(25)}},
		Fix: "Use e.g. %[3]d."},
	{ID: RuleNameLength, Source: "cloud fact: DBInstanceDescription is 2 to 255 characters", Attribute: "instance_name",
		Summary: "Invalid instance name", Detail: "instance_name must be 2 to 255 characters long; got %d.", Args: []Arg{{"length", 1}},
		Fix: "Use a name of 2 to 255 characters, e.g. orders-db."},
	{ID: RuleNameScheme, Source: "cloud fact: DBInstanceDescription must not start with http:// or https://", Attribute: "instance_name",
		Summary: "Invalid instance name", Detail: "instance_name must not start with http:// or https://.", Args: []Arg{},
		Fix: "Drop the scheme, e.g. orders-db."},
	{ID: RuleNameLetter, Source: "cloud fact: DBInstanceDescription starts with a letter", Attribute: "instance_name",
		Summary: "Invalid instance name", Detail: "instance_name must start with a letter; got %q.", Args: []Arg{{"name", "1db"}},
		Fix: "Begin it with a letter, e.g. db-%[1]s."},
	{ID: RuleSecurityIP, Source: "cloud fact: SecurityIps takes IPv4 addresses and CIDR blocks", Attribute: "security_ips",
		Summary: "Invalid security IP", Detail: "%q is not an IPv4 address or CIDR block;", Args: []Arg{{"value", "10.0.0.300"}},
		Fix: "use e.g. 10.0.0.1 or 10.0.0.0/24."},
	{ID: RuleRegex, Source: "provider", Attribute: "name_regex",
		Summary: "Invalid name_regex", Detail: "name_regex = %q is not a valid regular expression: %s.", Args: []Arg{{"value", "("}, {"error", "missing closing )"}},
		Fix: "Write it in Go's RE2 syntax, e.g. ^prod-."},
	{ID: RuleListFilter, Source: "cloud fact: DescribeDBInstances filters Engine and DBInstanceStatus by their values", Attribute: "engine, status",
		Summary: "Invalid filter", Detail: "%s = %q matches no instance: it is not one of %s (any letter case).", Args: []Arg{{"attribute", "engine"}, {"value", "mysqll"}, {"known values", "MySQL, PostgreSQL"}},
		Fix: "Use one of them, or remove the filter."},
	{ID: RuleWholeNumber, Source: "provider: a count of retries", Attribute: "max_retries",
		Summary: "Invalid max_retries", Detail: "%s = %s: it must be a whole number from %d to %d.", Args: []Arg{{"attribute", "max_retries"}, {"value", "2.5"}, {"lowest", int64(0)}, {"highest", int64(100)}, {"default", int64(5)}},
		Fix: "Use e.g. %[5]d, the default."},
	{ID: RuleTimestamp, Source: "cloud fact: RestoreTime is UTC yyyy-MM-ddTHH:mm:ssZ", Attribute: "restore_from.restore_time",
		Summary: "Invalid restore_time", Detail: "Attribute %s must be UTC yyyy-MM-ddTHH:mm:ssZ; got: %s.", Args: []Arg{{"path", "restore_from.restore_time"}, {"value", "2025-13-01T00:00:00Z"}},
		Fix: "Write it as e.g. 2025-06-01T08:00:00Z."},
	{ID: RuleReadOnlyClassShape, Source: "cloud fact: DBInstanceClass codes", Attribute: AttrInstanceType,
		Summary: "Invalid read-only instance type", Detail: "instance_type must be an RDS class code; got %q.", Args: []Arg{{"value", "small"}},
		Fix: "Use a read-only class code, e.g. mysqlro.n2.medium.1c."},
	{ID: RuleNotAPrimary, Source: "provider: one resource type per instance kind", Attribute: "id",
		Summary: "Not a primary instance", Detail: "Instance %s is a read-only instance of %s.", Args: []Arg{{"instance", "rr-1"}, {"primary", "rm-1"}},
		Fix: "Manage it with rds_readonly_instance instead of rds_instance."},
	{ID: RuleNotAReadOnly, Source: "provider: one resource type per instance kind", Attribute: "id",
		Summary: "Not a read-only instance", Detail: "Instance %s has no primary (DBInstanceType %q).", Args: []Arg{{"instance", "rm-1"}, {"type", "Primary"}},
		Fix: "Manage a primary with rds_instance instead of rds_readonly_instance."},
	{ID: RuleImportID, Source: "provider", Attribute: "id",
		Summary: "Invalid import id", Detail: "%[1]s is imported by its instance id alone; got %[2]q.", Args: []Arg{{"resource", "rds_instance"}, {"id", "rm-1:x"}, {"example id", "rm-bp1example"}},
		Fix: "Give the id as the console shows it, e.g. `terraform import %[1]s.db %[3]s`."},
	{ID: RulePrimaryUnreadable, Source: "provider", Attribute: AttrMasterInstanceID,
		Summary: "Cannot read the primary instance", Detail: "Reading primary %s failed: %s.", Args: []Arg{{"primary", "rm-1"}, {"error", "Throttling"}},
		Fix: "16K atomic write and storage of a read-only instance are checked against its primary; check master_instance_id and the credentials."},
	{ID: RuleDataSourceNotFound, Source: "provider", Attribute: "id",
		Summary: "RDS instance not found", Detail: "No instance %s exists in region %s.", Args: []Arg{{"instance", "rm-1"}, {"region", "cn-hangzhou"}},
		Fix: "Check the id, and the provider's region."},
	// ---- access import ids (issue 23; import_ids.go) ----
	{ID: RuleAccessImportID, Source: "provider", Attribute: "id",
		Summary: "Invalid import id", Detail: "Expected %[1]s; got %[3]q.", Args: []Arg{{"format", "<instance_id>:<name>"}, {"example", "rm-bp1example:app_user"}, {"id", "rm-1"}},
		Fix: "Give it as e.g. %[2]s."},
	{ID: RuleImportPrivilege, Source: "cloud fact: GrantAccountPrivilege takes ReadWrite, ReadOnly, DDLOnly or DMLOnly", Attribute: "id",
		Summary: "Invalid import id", Detail: "The privilege %q in %q is not one of %s.",
		Args: []Arg{{"privilege", "Owner"}, {"id", "rm-1:app:Owner"}, {"privileges", "ReadWrite, ReadOnly"}, {"format", "<instance_id>:<account_name>:<privilege>"}, {"example", "rm-bp1example:app_user:ReadWrite"}},
		Fix:  "Expected %[4]s, e.g. %[5]s."},
	{ID: RuleImportDeleting, Source: "provider: no instance that is about to disappear enters the state", Attribute: "id",
		Summary: "Cannot import an RDS instance that is being deleted",
		Detail:  "Instance %[1]s is Deleting (it was released outside Terraform): it disappears once the cloud has finished.", Args: []Arg{{"instance", "rm-1"}},
		Fix: "Import another instance, or let Terraform create a new one."},
	{ID: RuleTimeoutNotPositive, Source: "provider", Attribute: AttrTimeouts,
		Summary: "Invalid timeout",
		Detail:  "timeouts.%s = %q is not a positive duration.", Args: []Arg{{"operation", "create"}, {"value", "-5m"}},
		Fix: "Use a positive duration such as \"30m\", or remove it for the default."},

	// ---- parameters (P1-P6 in parameters.go; cloud facts cited in internal/simulator/README.md) ----
	{ID: RuleParamUnknown, Source: "cloud fact P1: ModifyParameter checks that the parameter exists (ModifyParameter API reference)",
		Attribute: AttrParameters, Summary: "Unknown RDS parameter",
		Detail: "parameters[%[1]q]: %[2]s has no parameter %[1]q.", Args: []Arg{{"name", "tx_isolation"}, {"engine and version", "MySQL 8.0"}, {"hint", "Did you mean transaction_isolation?"}},
		Fix: "%[3]s"},
	{ID: RuleParamNotModifiable, Source: "cloud fact P2: ForceModify = false in DescribeParameterTemplates",
		Attribute: AttrParameters, Summary: "RDS parameter cannot be changed",
		Detail: "parameters[%[1]q]: the cloud sets %[1]s itself and does not let users change it on %[2]s (its value is %[3]q).",
		Args:   []Arg{{"name", "innodb_buffer_pool_size"}, {"engine and version", "MySQL 8.0"}, {"value", "{DBInstanceClassMemory*3/4}"}}, Fix: "Remove it from parameters."},
	{ID: RuleParamValue, Source: "cloud fact P3: the template's CheckingCode (ModifyParameter API reference)",
		Attribute: AttrParameters, Summary: "RDS parameter value not allowed",
		Detail: "parameters[%[1]q] = %[2]q is not allowed on %[3]s: %[4]s.", Args: []Arg{{"name", "long_query_time"}, {"value", "20"}, {"engine and version", "MySQL 8.0"}, {"allowed values", "allowed range is [0.03-10]"}, {"default", "\"1\""}},
		Fix: "Use an allowed value; the default is %[5]s."},
	{ID: RuleParamNoValue, Source: "provider: parameters are strings, as the API takes them",
		Attribute: AttrParameters, Summary: "RDS parameter without a value",
		Detail: "parameters[%[1]q] is null.", Args: []Arg{{"name", "max_connections"}},
		Fix: "Give it a value, or remove the key to stop managing the parameter."},
	{ID: RuleParamDoublewriteContradicts, Source: "16K fact P4: 16K atomic write switches innodb_doublewrite off (Alibaba 16K atomic write page)",
		Attribute: AttrParameters, Summary: "innodb_doublewrite contradicts atomic_write_16k",
		Detail: "parameters[\"innodb_doublewrite\"] = %[1]q, but atomic_write_16k is %[2]t, and with it the cloud runs innodb_doublewrite = %[3]q: " +
			"16K atomic write makes every 16 KiB page write atomic, so the doublewrite buffer is off exactly while it is on, and users cannot set it.",
		Args: []Arg{{"value", "ON"}, {"planned flag", true}, {"implied value", "OFF"}, {"flag that gives the value", false}},
		Fix:  "Set atomic_write_16k = %[4]t to get innodb_doublewrite = %[1]q, or remove innodb_doublewrite from parameters."},
	{ID: RuleParamDoublewriteUndecided, Source: "16K fact P4: 16K atomic write switches innodb_doublewrite off (Alibaba 16K atomic write page)",
		Attribute: AttrParameters, Summary: "innodb_doublewrite cannot be checked yet",
		Detail: "parameters[\"innodb_doublewrite\"] = %[1]q: the cloud sets innodb_doublewrite from 16K atomic write, whose planned value is not known yet.",
		Args:   []Arg{{"value", "ON"}}, Fix: "Set atomic_write_16k explicitly, or remove innodb_doublewrite from parameters."},
	{ID: RuleParamWaiting, Source: "cloud fact P5: a value of a parameter that needs a restart runs only after the instance's next restart (ModifyParameter Forcerestart)",
		Severity: SeverityWarning, Attribute: AttrParameters, Summary: "Parameters of %[1]s wait for a restart this apply does not make",
		Detail: "%[1]s has values waiting for a restart, set outside Terraform: %[2]s. This apply changes the instance without restarting it, " +
			"so they keep waiting; they run after the instance's next restart (%[3]s).",
		Args: []Arg{{"instance", "rm-1"}, {"values", "back_log = 5000 (runs 3000)"}, {"what restarts it", "a spec change that restarts it, a restart in the maintenance window, or RestartDBInstance"}},
		Fix:  "To keep the running value instead, add it to parameters: the apply then withdraws the waiting one without a restart."},
	{ID: RuleParamFactsUnreadable, Source: "provider: parameters are checked against the cloud's template and running values",
		Attribute: AttrParameters, Summary: "Cannot check RDS parameters",
		Detail: "%[1]s failed: %[2]s.", Args: []Arg{{"call", "DescribeParameterTemplates"}, {"error", "Throttling"}},
		Fix: "The plan checks parameters against the cloud's template and the instance's running values; try again, or check engine and engine_version."},

	// ---- rds_parameter_group (G1-G4 in parameter_group.go; its parameters are checked with the rows above) ----
	{ID: RuleParamGroupName, Source: "cloud fact G1: ParameterGroupName is 8-64 letters, digits, periods and underscores, starting with a letter (CreateParameterGroup API reference)",
		Attribute: AttrName, Summary: "Invalid parameter group name",
		Detail: "name = %[1]q: a parameter group name is 8 to 64 characters, letters, digits, periods (.) and underscores (_), and starts with a letter.",
		Args:   []Arg{{"value", "web"}}, Fix: "Use a name such as \"fleet_default_80\"."},
	{ID: RuleParamGroupEngine, Source: "provider: the provider manages RDS for MySQL",
		Attribute: AttrEngine, Summary: "Unsupported parameter group engine",
		Detail: "engine = %[1]q: this provider manages RDS for MySQL, so its parameter groups are MySQL groups.",
		Args:   []Arg{{"value", "PostgreSQL"}}, Fix: "Set engine = \"MySQL\" (the default)."},
	{ID: RuleParamGroupEmpty, Source: "cloud fact G2: CreateParameterGroup and ModifyParameterGroup require Parameters (API reference)",
		Attribute: AttrParameters, Summary: "Parameter group without parameters",
		Detail: "parameters is empty: a parameter group holds at least one parameter.",
		Fix:    "Add the parameters the group sets, e.g. innodb_io_capacity = \"4000\"."},
	{ID: RuleParamGroupDoublewrite, Source: "16K fact P4: 16K atomic write switches innodb_doublewrite off (Alibaba 16K atomic write page)",
		Attribute: AttrParameters, Summary: "innodb_doublewrite cannot be in a parameter group",
		Detail: "parameters[\"innodb_doublewrite\"] = %[1]q: the cloud sets innodb_doublewrite on each instance from its atomic_write_16k (OFF while it is on), " +
			"so a group shared by instances cannot set it.",
		Args: []Arg{{"value", "OFF"}}, Fix: "Remove it from the group; set atomic_write_16k on the instances instead."},
	{ID: RuleParamGroupOverridden, Source: "provider P8: an instance's own parameters win over its parameter group's",
		Severity: SeverityWarning, Attribute: AttrParameters, Summary: "parameters[%[1]q] overrides the parameter group",
		Detail: "parameters[%[1]q] = %[2]q, and parameter group %[4]s sets %[3]q: an instance's own parameters win over its group's, " +
			"so the instance runs %[2]q (the group is applied first, then the instance's own values).",
		Args: []Arg{{"name", "wait_timeout"}, {"value", "600"}, {"group value", "3600"}, {"group id", "rpg-1"}},
		Fix:  "Remove the key from parameters to take the group's value, or change the group."},
	{ID: RuleParamGroupNameTaken, Source: "provider G7: a parameter group name is unique in its region (CreateParameterGroup has no ClientToken, so the name identifies the group a killed create made)",
		Attribute: AttrName, Summary: "Parameter group name already taken",
		Detail: "name = %[1]q: region %[2]s already has a parameter group of this name (%[3]s), and this provider keeps names unique in a region.",
		Args:   []Arg{{"value", "fleet_default"}, {"region", "cn-hangzhou"}, {"group id", "rpg-1"}},
		Fix:    "Choose another name, or import the existing group: terraform import rds_parameter_group.<name> <group id>."},
	{ID: RuleParamGroupGone, Source: "provider: an apply changes the group the plan read",
		Attribute: AttrName, Summary: "Parameter group %[1]s no longer exists",
		Detail: "%[1]s was deleted after the plan read it, so this apply changes nothing.",
		Args:   []Arg{{"group id", "rpg-1"}}, Fix: "Run terraform apply again: the plan creates the group anew."},

	// ---- rds_db_proxy (X1-X7 in proxy.go; cloud facts P1-P5 in internal/simulator/README.md, "Database proxy").
	{ID: RuleProxyEdition, Source: "cloud fact P1: the database proxy needs the High-availability or Cluster edition (ModifyDBProxy API reference)",
		Attribute: "instance_id", Summary: "The database proxy needs a high-availability or cluster instance",
		Detail: "instance_id = %[1]q is of the %[2]s edition: RDS for MySQL offers the database proxy on High-availability and Cluster editions only.",
		Args:   []Arg{{"instance id", "rm-1"}, {"category", "Basic"}}, Fix: "Change the instance's edition (category) to HighAvailability first, or leave the proxy out."},
	{ID: RuleProxyMinorVersion, Source: "cloud fact P1: minimum minor versions for the database proxy (ModifyDBProxy API reference)",
		Attribute: "instance_id", Summary: "Minor version too old for the database proxy",
		Detail: "instance_id = %[1]q runs MySQL %[3]s minor version %[2]s; the database proxy needs %[4]s or later on the High-availability edition.",
		Args:   []Arg{{"instance id", "rm-1"}, {"minor version", "rds_20190815"}, {"major version", "8.0"}, {"minimum", "rds_20190915"}},
		Fix:    "Upgrade the instance's minor version (target_minor_version) first."},
	{ID: RuleProxyZone, Source: "cloud fact P9: Alibaba's \"Enable the database proxy\" (ApsaraDB RDS for MySQL) lists among its prerequisites that the instance is not in Zone C or Zone D of China (Hangzhou); a multi-zone ZoneId such as cn-hangzhou-MAZ6(b,f) counts each of its zones (P10, DescribeRegions) (proxy_zone.go)",
		Attribute: "instance_id", Summary: "The zone of this instance does not offer the database proxy",
		Detail: "instance_id = %[1]q runs in zone %[2]s, where RDS for MySQL does not offer the database proxy.",
		Args:   []Arg{{"instance id", "rm-1"}, {"zone", "cn-hangzhou-d"}},
		Fix:    "Move the instance to another zone of its region first (zone_id of its rds_instance), or leave the proxy out."},
	{ID: RuleProxyInstanceNum, Source: "cloud fact P2: DBProxyInstanceNum is 1-16 (the current ModifyDBProxy/ModifyDBProxyInstance request models of the rds-20140815 SDKs; older revisions said 1-60)",
		Attribute: AttrProxyInstanceNum, Summary: "Invalid number of proxy instances",
		Detail: "instance_num = %[1]d: a proxy has 1 to 16 proxy instances.",
		Args:   []Arg{{"value", int64(60)}}, Fix: "Set instance_num between 1 and 16."},
	{ID: RuleProxyWeight, Source: "cloud fact P3: a read weight is a multiple of 100 up to 10,000 (ModifyDBProxyEndpoint API reference)",
		Attribute: AttrProxyWeights, Summary: "Invalid read weight",
		Detail: "read_only_weights[%[1]q] = %[2]d: a read weight is a multiple of 100 from 0 to 10,000.",
		Args:   []Arg{{"key", "rr-1"}, {"value", int64(150)}}, Fix: "Round the weight to a multiple of 100, at most 10000."},
	{ID: RuleProxyWeightKey, Source: "provider X4: weights name the primary or its read-only instances (ModifyDBProxyEndpoint takes their ids)",
		Attribute: AttrProxyWeights, Summary: "read_only_weights names an instance outside this proxy",
		Detail: "read_only_weights[%[1]q]: %[1]s is neither \"primary\" nor a read-only instance of %[2]s, so the proxy cannot send reads to it.",
		Args:   []Arg{{"key", "rr-other"}, {"primary", "rm-1"}}, Fix: "Use \"primary\" or the id of one of this primary's read-only instances (rds_readonly_instance.<name>.id)."},
	{ID: RuleProxyDistribution, Source: "provider X5: ReadOnlyInstanceDistributionType is Standard (weights by class) or Custom (the weights sent)",
		Attribute: AttrProxyDistribution, Summary: "read_only_weights and a standard read_only_distribution exclude each other",
		Detail: "read_only_distribution = \"Standard\" lets the cloud weigh the instances by their class, so read_only_weights would be ignored.",
		Fix:    "Remove read_only_weights, or remove read_only_distribution to send the weights."},
	{ID: RuleProxyMaxDelay, Source: "cloud fact P3: ReadOnlyInstanceMaxDelayTime is 0-3600 seconds (ModifyDBProxyEndpoint API reference)",
		Attribute: AttrProxyMaxDelay, Summary: "Invalid delay threshold",
		Detail: "max_delay_seconds = %[1]d: the delay beyond which a read-only instance receives no reads is 0 to 3600 seconds.",
		Args:   []Arg{{"value", int64(7200)}}, Fix: "Set max_delay_seconds between 0 and 3600 (the cloud's default is 30)."},
	{ID: RuleProxyInterrupts, Source: "provider X7 (assumption, README \"Database proxy\"): changing the endpoint's read/write mode or the proxy type reconnects its clients",
		Severity: SeverityWarning, Attribute: AttrProxyMode, Summary: "This change interrupts the proxy's connections",
		Detail: "Changing %[2]s of the database proxy of %[1]s closes the connections open through its endpoint; clients reconnect.",
		Args:   []Arg{{"instance id", "rm-1"}, {"attribute", "read_write_mode"}}, Fix: "Apply it when a reconnect is acceptable, or set prevent_restart = true to refuse such changes."},
	{ID: RuleProxyPreparedStmt, Source: "issue 44 X8: the proxy needs max_prepared_stmt_count equal on the primary and its read-only instances (assumption: not in the API reference, README \"Database proxy\")",
		Attribute: "instance_id", Summary: "max_prepared_stmt_count differs between the primary and a read-only instance",
		Detail: "%[1]s has max_prepared_stmt_count = %[2]s and its read-only instance %[3]s has %[4]s: the database proxy moves a session's statements between them, so the limit must be equal.",
		Args:   []Arg{{"primary", "rm-1"}, {"primary value", "16382"}, {"read-only instance", "rr-1"}, {"read-only value", "8000"}},
		Fix:    "Set parameters[\"max_prepared_stmt_count\"] to one value on the primary and every read-only instance."},
	{ID: RulePreparedStmtReadOnly, Source: "issue 44 X8 at the read-only instance's plan: the proxy needs max_prepared_stmt_count equal on the primary and its read-only instances (proxy_prepared_stmt.go)",
		Attribute: AttrParameters, Summary: "max_prepared_stmt_count of a read-only instance differs from its primary's behind a database proxy",
		Detail: "%[1]s would run max_prepared_stmt_count = %[2]s and its primary %[3]s has %[4]s; a database proxy splits reads between them and moves a session's prepared statements, so the limit must be equal.",
		Args:   []Arg{{"read-only instance", "rr-1"}, {"read-only value", "8000"}, {"primary", "rm-1 (as this run plans it)"}, {"primary value", "16382"}},
		Fix:    "Set parameters[\"max_prepared_stmt_count\"] = \"%[4]s\" on %[1]s (the primary's value), or set %[2]s on the primary as well."},
	{ID: RulePreparedStmtPrimary, Source: "issue 44 X8 at the primary's plan: the proxy needs max_prepared_stmt_count equal on the primary and its read-only instances (proxy_prepared_stmt.go)",
		Attribute: AttrParameters, Summary: "max_prepared_stmt_count of the primary would differ from a read-only instance's behind the proxy",
		Detail: "max_prepared_stmt_count of %[1]s changes to %[2]s, and this run plans its read-only instance %[3]s with %[4]s; its database proxy moves a session's prepared statements between them, so the limit must be equal.",
		Args:   []Arg{{"primary", "rm-1"}, {"primary value", "8000"}, {"read-only instance", "rr-1"}, {"read-only value", "16382"}},
		Fix:    "Set parameters[\"max_prepared_stmt_count\"] = \"%[2]s\" on %[3]s as well, or keep %[4]s on %[1]s."},
	{ID: RulePreparedStmtPrimaryFollow, Source: "issue 44 X8 at the primary's plan, for a read-only instance planned after it (proxy_prepared_stmt.go)",
		Severity: SeverityWarning, Attribute: AttrParameters, Summary: "A read-only instance must follow the primary's max_prepared_stmt_count behind a database proxy",
		Detail: "max_prepared_stmt_count of %[1]s changes to %[2]s while its read-only instance %[3]s runs %[4]s; its database proxy needs them equal, so the plan of %[3]s in this configuration refuses any value but %[2]s.",
		Args:   []Arg{{"primary", "rm-1"}, {"primary value", "8000"}, {"read-only instance", "rr-1"}, {"read-only value", "16382"}},
		Fix:    "Set parameters[\"max_prepared_stmt_count\"] = \"%[2]s\" on %[3]s in the same apply (an instance outside this configuration: change it right after)."},
	{ID: RuleProxySpecDropsConnections, Source: "Alibaba, Usage notes for the database proxy feature (ApsaraDB RDS for MySQL): a spec change of the primary or a read-only instance with persistent connections off may switch the instance over; Configure persistent connections: only they keep the clients' connections to the proxy through a switchover (proxy_spec_change.go)",
		Severity: SeverityWarning, Attribute: AttrInstanceType, Summary: "This spec change drops the connections open through the database proxy",
		Detail: "The spec change of %[1]s switches it over %[3]s, and the database proxy of %[2]s keeps no persistent connections: every client connection through the proxy to %[1]s breaks and reconnects.",
		Args:   []Arg{{"instance id", "rm-1"}, {"primary", "rm-1"}, {"when", "during this apply"}},
		Fix:    "Turn persistent_connections on in rds_db_proxy and apply that first, or apply the change when a reconnect is acceptable (prevent_restart = true refuses it)."},
	{ID: RuleProxyChangeWaits, Source: "provider X9: apply_changes = \"in_maintenance_window\" sends EffectiveTime=MaintainTime, which the cloud applies at the start of the window (cloud facts P2, P3: ModifyDBProxyInstance and ModifyDBProxyEndpoint API references)",
		Severity: SeverityWarning, Attribute: AttrProxyInstanceNum, Summary: "This change of the database proxy waits for the maintenance window",
		Detail: "%[2]s of the database proxy of %[1]s change %[3]s; until then the proxy runs as it does now, and the state records the change under scheduled_change.",
		Args:   []Arg{{"instance id", "rm-1"}, {"attributes", "instance_num"}, {"when", "in the maintenance window 02:00Z-03:00Z (next: 2026-12-07T02:00Z)"}},
		Fix:    "Wait for the window, or set apply_changes = \"immediately\" to apply it now."},
	{ID: RuleProxyWeightReleased, Source: "issue 44 X10: a read-only instance released in the same run while the proxy still weights it (the run's Ledger, proxy_ledger_rules.go)",
		Attribute: AttrProxyWeights, Summary: "A read-only instance is released while the database proxy still weights it",
		Detail: "This run releases the read-only instance %[1]s, and the database proxy of %[2]s still sends reads to it (read_only_weights[%[1]q]).",
		Args:   []Arg{{"read-only instance", "rr-1"}, {"primary", "rm-1"}},
		Fix:    "Remove the read-only instance from read_only_weights of the rds_db_proxy of the primary in the same configuration, or keep the read-only instance."},
	{ID: RuleProxyEndpointTaken, Source: "provider X11: ModifyDBProxyEndpoint's Create answers no endpoint id (the classic SDK's answer model), so the description finds the endpoint a create made",
		Attribute: AttrProxyEndpointDescription, Summary: "Proxy endpoint description already taken",
		Detail: "description = %[1]q: the database proxy of %[2]s already has an endpoint of this description (%[3]s), and this provider keeps descriptions unique per proxy.",
		Args:   []Arg{{"value", "analytics"}, {"instance id", "rm-1"}, {"endpoint id", "ta9um4"}},
		Fix:    "Choose another description, or import the endpoint: terraform import rds_db_proxy_endpoint.<name> %[2]s:%[3]s."},
	{ID: RuleProxyEndpointPrefixTaken, Source: "cloud fact: ModifyDBProxyEndpointAddress refuses a prefix another endpoint of the proxy has (internal/simulator/README.md, Database proxy: InvalidConnectionString.Duplicate, an assumption); the plan reads the proxy's endpoints (DescribeDBProxy) when the prefix changes (proxy_endpoint_prefix.go)",
		Attribute: AttrConnectionPrefix, Summary: "Proxy endpoint prefix %[1]q is taken",
		Detail: "connection_string_prefix = %[1]q: the endpoint %[2]s of the database proxy of %[3]s already answers at %[4]s (RDS refuses it: InvalidConnectionString.Duplicate).",
		Args:   []Arg{{"value", "analytics-01"}, {"endpoint id", "ta9um4"}, {"instance id", "rm-1"}, {"address", "analytics-01.rwlb.rds.aliyuncs.com"}},
		Fix:    "Fix: choose another prefix, or move %[2]s to another prefix in an earlier apply."},
	{ID: RuleProxyEndpointPrefixCase, Source: "assumption (internal/simulator/README.md, Database proxy): the cloud stores an endpoint's prefix in lower case, as DNS names ignore case (RFC 4343), so a read or an import finds the lower-case spelling (proxy_endpoint_prefix.go)",
		Attribute: AttrConnectionPrefix, Summary: "Proxy endpoint prefix %[1]q is not in lower case",
		Detail: "connection_string_prefix = %[1]q: RDS stores the prefix in lower case (%[2]q), so after an import the plan would show a change from %[2]q to %[1]q that changes nothing.",
		Args:   []Arg{{"value", "Analytics-01"}, {"lower case", "analytics-01"}},
		Fix:    "Fix: write connection_string_prefix = %[2]q (the same address)."},
	{ID: RuleProxyAlreadyStarted, Source: "provider X12: a proxy is named by its instance, so a new rds_db_proxy meets one started outside this configuration or by a killed apply",
		Attribute: "instance_id", Summary: "The database proxy of this instance is already started",
		Detail: "instance_id = %[1]q: its database proxy is already on (%[2]s), and no state and no interrupted create of this configuration name it.",
		Args:   []Arg{{"instance id", "rm-1"}, {"status", "Running"}},
		Fix:    "Import it (terraform import rds_db_proxy.<name> %[1]s), or shut it down first."},
	{ID: RuleProxyInterruptsStop, Source: "provider X7: prevent_restart refuses what interrupts connections",
		Attribute: AttrProxyMode, Summary: "prevent_restart refuses a change that interrupts the proxy's connections",
		Detail: "Changing %[2]s of the database proxy of %[1]s closes the connections open through its endpoint, and prevent_restart = true.",
		Args:   []Arg{{"instance id", "rm-1"}, {"attribute", "instance_type"}}, Fix: "Set prevent_restart = false for this apply, or keep %[2]s as it is."},

	// ---- accounts, databases, privileges (checks in account_rules.go; cloud facts cited in
	// internal/simulator/README.md, "Accounts and databases"). Args: the value, the longest account
	// name the instance allows, and (access-engine) what is managed. ----
	{ID: RuleAccessInstanceMissing, Source: "cloud fact: CreateAccount, CreateDatabase and GrantAccountPrivilege answer InvalidDBInstanceId.NotFound for an instance the account does not have (internal/simulator/README.md)",
		Attribute: AttrInstanceID, Summary: "Invalid instance_id (rule access-instance-missing)",
		Detail: "instance_id = %[1]q: the region has no such instance (DescribeDBInstanceAttribute answers NotFound), so no %[3]s can be made on it.", Args: accessArgs,
		Fix: "Fix: check the id (and the provider's region), or reference the instance this configuration creates (instance_id = rds_instance.<name>.id)."},
	{ID: RuleAccessEngine, Source: accessSource, Attribute: AttrInstanceID, Summary: "Invalid instance_id (rule access-engine)",
		Detail: "instance_id = %[4]q is a %[1]s instance: %[3]s are managed by this provider on MySQL and MariaDB instances only.", Args: accessArgs,
		Fix: "Fix: point instance_id at a MySQL or MariaDB instance."},
	{ID: RuleAccountOnReadOnly, Source: accessSource, Attribute: AttrInstanceID, Summary: "Invalid instance_id (rule account-on-read-only)",
		Detail: "instance_id = %[1]q is a read-only instance: no account of any type (Normal or Super) can be created on it; accounts replicate from the primary.", Args: accessArgs,
		Fix: "Fix: set instance_id to the primary instance (rds_readonly_instance.<name>.master_instance_id); the account then exists on the read-only instance too."},
	{ID: RuleAccessReadOnlyHost, Source: accessSource + "; read-only instances replicate their primary's accounts and databases", Attribute: AttrInstanceID,
		Summary: "%[1]s is a read-only instance of %[2]s",
		Detail:  "The %[3]s of read-only instance %[1]s are replicated from its primary %[2]s: they cannot be created, changed or deleted on %[1]s, so Terraform does not list or import them there.",
		Args:    []Arg{{"instance id", "rr-1"}, {"primary", "rm-1"}, {"what", "accounts"}},
		Fix:     "Fix: list or import them from the primary: instance_id = %[2]q (import id %[2]s:<name>)."},
	{ID: RuleDatabaseOnReadOnly, Source: accessSource, Attribute: AttrInstanceID, Summary: "Invalid instance_id (rule database-on-read-only)",
		Detail: "instance_id = %[1]q is a read-only instance: databases replicate from the primary and cannot be created on it.", Args: accessArgs,
		Fix: "Fix: set instance_id to the primary instance (rds_readonly_instance.<name>.master_instance_id); the database then exists on the read-only instance too."},
	{ID: RulePrivilegeOnReadOnly, Source: accessSource, Attribute: AttrInstanceID, Summary: "Invalid instance_id (rule privilege-on-read-only)",
		Detail: "instance_id = %[1]q is a read-only instance: privileges replicate from the primary and cannot be granted on it.", Args: accessArgs,
		Fix: "Fix: set instance_id to the primary instance (rds_readonly_instance.<name>.master_instance_id)."},
	{ID: RuleAccountNameLength, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule account-name-length)",
		Detail: "name = %[1]q must be 2 to %[2]v characters long (32 on MySQL 5.7 and later, 16 on MySQL 5.5/5.6 and MariaDB).", Args: accessArgs,
		Fix: "Fix: choose a name of 2 to %[2]v characters."},
	{ID: RuleAccountNameCharacters, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule account-name-characters)",
		Detail: "name = %[1]q may contain only letters, digits and underscores (upper-case letters only on MySQL).", Args: accessArgs,
		Fix: "Fix: remove other characters, e.g. replace hyphens with underscores."},
	{ID: RuleAccountNameFirst, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule account-name-first)",
		Detail: "name = %[1]q must start with a letter.", Args: accessArgs, Fix: "Fix: start the name with a letter, e.g. app_<name>."},
	{ID: RuleAccountNameLast, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule account-name-last)",
		Detail: "name = %[1]q must end with a letter or a digit.", Args: accessArgs, Fix: "Fix: remove the trailing underscore."},
	{ID: RuleAccountNameReserved, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule account-name-reserved)",
		Detail: "name = %[1]q is a name RDS reserves (" + strings.Join(ReservedAccountNames, ", ") + ").", Args: accessArgs,
		Fix: "Fix: choose another name, e.g. app_admin."},
	{ID: RuleAccountType, Source: accessSource, Attribute: AttrType, Summary: "Invalid type (rule account-type)",
		Detail: "type = %[1]q must be Normal (a standard account) or Super (the privileged account).", Args: accessArgs,
		Fix: "Fix: set type = \"Normal\" or type = \"Super\"."},
	{ID: RuleAccountOneSuper, Source: accessSource, Attribute: AttrType, Summary: "Invalid type (rule account-one-super)",
		Detail: "type = %[1]q: an instance has at most one privileged (Super) account, and instance %[4]s has (or this configuration plans) the privileged account %[5]q.", Args: accessArgs,
		Fix: "Fix: set type = \"Normal\" and grant it privileges with rds_account_privilege, or manage %[5]q instead (terraform import <address> %[4]s:%[5]s). " +
			"To move the privilege from %[5]q to this account, first apply %[5]q with type = \"Normal\" (or removed), e.g. with terraform apply -target=<its address>, then this plan."},
	{ID: RuleAccountExists, Source: accessSource, Attribute: AttrName, Summary: "RDS account already exists (rule account-exists)",
		Detail: "name = %[1]q: instance %[4]s already has the account %[5]q, which this resource does not manage (account names are unique per instance; on MySQL a privileged account's name may not differ from another only in case).", Args: accessArgs,
		Fix: "Fix: import it with `terraform import <address> %[4]s:%[5]s` (and set name = %[5]q), or choose another name. If it is managed under another address, move it there with a moved block."},
	{ID: RuleAccountPlannedTwice, Source: accessSource, Attribute: AttrName, Summary: "Two rds_account resources name one account (rule account-planned-twice)",
		Detail: "name = %[1]q: another rds_account of this configuration plans an account of the same name on instance %[4]s, and names are unique per instance.", Args: accessArgs,
		Fix: "Fix: keep one of them, or give one another name."},
	{ID: RuleAccountDescription, Source: accessSource, Attribute: AttrDescription, Summary: "Invalid description (rule account-description)",
		Detail: "description = %[1]q " + descriptionRule + ".", Args: accessArgs,
		Fix: "Fix: write a description that starts with a letter, e.g. \"Application account\"."},
	{ID: RuleAccountPasswordMissing, Source: accessSource, Attribute: "password_wo", Summary: "Missing account password",
		Detail: "Creating an rds_account needs a password: set password_wo (with password_wo_version) on Terraform 1.11 and later, or password on CLIs " +
			"without write-only attributes.",
		Fix: "Only an existing (imported) account can leave its password unmanaged."},
	{ID: RuleAccountChecksDeferred, Source: "provider: a rule the plan cannot check is checked before the apply's first write", Severity: SeverityWarning,
		Attribute: "instance_id", Summary: "Some rds_account checks wait for the apply",
		Detail: "instance_id is known only after apply, so this plan cannot check that %[1]s.",
		Args:   []Arg{{"checks", "the instance has no other privileged (Super) account"}},
		Fix: "The apply checks it before its first write and stops with the rule and its fix if it fails. To see it in the plan, create the instance " +
			"in an earlier apply (terraform apply -target)."},
	{ID: RulePasswordLength, Source: accessSource, Attribute: AttrPassword, Summary: "Invalid %[6]s (rule password-length)",
		Detail: "%[6]s = %[1]q must be 8 to 32 characters long.", Args: accessArgs, Fix: "Fix: use a password of 8 to 32 characters."},
	{ID: RulePasswordCharacters, Source: accessSource, Attribute: AttrPassword, Summary: "Invalid %[6]s (rule password-characters)",
		Detail: "%[6]s = %[1]q may contain only letters, digits and the special characters " + literal(PasswordSpecials) + ".", Args: accessArgs,
		Fix: "Fix: remove other characters (spaces, quotes, non-ASCII letters)."},
	{ID: RulePasswordClasses, Source: accessSource, Attribute: AttrPassword, Summary: "Invalid %[6]s (rule password-classes)",
		Detail: "%[6]s = %[1]q must contain at least three of: upper-case letters, lower-case letters, digits, special characters (" + literal(PasswordSpecials) + ").",
		Args:   accessArgs, Fix: "Fix: add characters of the missing kinds, e.g. an upper-case letter and a digit."},
	{ID: RuleDatabaseNameLength, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule database-name-length)",
		Detail: "name = %[1]q must be 2 to 64 characters long.", Args: accessArgs, Fix: "Fix: choose a name of 2 to 64 characters."},
	{ID: RuleDatabaseNameCharacters, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule database-name-characters)",
		Detail: "name = %[1]q may contain only lower-case letters, digits, underscores and hyphens.", Args: accessArgs,
		Fix: "Fix: use lower case, e.g. orders_db."},
	{ID: RuleDatabaseNameFirst, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule database-name-first)",
		Detail: "name = %[1]q must start with a letter.", Args: accessArgs, Fix: "Fix: start the name with a letter."},
	{ID: RuleDatabaseNameLast, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule database-name-last)",
		Detail: "name = %[1]q must end with a letter or a digit.", Args: accessArgs, Fix: "Fix: remove the trailing underscore or hyphen."},
	{ID: RuleDatabaseNameReserved, Source: accessSource, Attribute: AttrName, Summary: "Invalid name (rule database-name-reserved)",
		Detail: "name = %[1]q is a system database name RDS reserves (" + strings.Join(ReservedDatabaseNames, ", ") + ").", Args: accessArgs,
		Fix: "Fix: choose another name."},
	{ID: RuleDatabaseCharacterSet, Source: accessSource, Attribute: AttrCharacterSet, Summary: "Invalid character_set (rule database-character-set)",
		Detail: "character_set = %[1]q is not a character set RDS offers for MySQL and MariaDB databases (utf8, gbk, latin1, utf8mb4).", Args: accessArgs,
		Fix: "Fix: set character_set = \"utf8mb4\" (full Unicode) or another of utf8, gbk, latin1."},
	{ID: RuleDatabaseDescription, Source: accessSource, Attribute: AttrDescription, Summary: "Invalid description (rule database-description)",
		Detail: "description = %[1]q " + descriptionRule + ".", Args: accessArgs,
		Fix: "Fix: write a description that starts with a letter, e.g. \"Orders of the shop\"."},
	{ID: RuleDatabaseExists, Source: accessSource, Attribute: AttrName, Summary: "RDS database already exists (rule database-exists)",
		Detail: "name = %[1]q: instance %[4]s already has the database %[5]q, which this resource does not manage.", Args: accessArgs,
		Fix: "Fix: import it with `terraform import <address> %[4]s:%[5]s`, or choose another name. If it is managed under another address, move it there with a moved block."},
	{ID: RuleDatabasePlannedTwice, Source: accessSource, Attribute: AttrName, Summary: "Two rds_database resources name one database (rule database-planned-twice)",
		Detail: "name = %[1]q: another rds_database of this configuration plans a database of the same name on instance %[4]s, and names are unique per instance.", Args: accessArgs,
		Fix: "Fix: keep one of them, or give one another name."},
	{ID: RulePrivilegeValue, Source: accessSource, Attribute: AttrPrivilege, Summary: "Invalid privilege (rule privilege-value)",
		Detail: "privilege = %[1]q must be one of ReadWrite, ReadOnly, DDLOnly, DMLOnly.", Args: accessArgs,
		Fix: "Fix: set privilege to one of ReadWrite, ReadOnly, DDLOnly, DMLOnly."},
	{ID: RulePrivilegeSuperAccount, Source: accessSource, Attribute: AttrAccountName, Summary: "Invalid account_name (rule privilege-super-account)",
		Detail: "account_name = %[1]q is the instance's privileged (Super) account, which already has every privilege on every database and cannot be granted privileges.",
		Args:   accessArgs, Fix: "Fix: remove this rds_account_privilege, or grant the privilege to a Normal account."},
	{ID: RulePrivilegeAccountMissing, Source: accessSource, Attribute: AttrAccountName, Summary: "Invalid account_name (rule privilege-account-missing)",
		Detail: "account_name = %[1]q: instance %[4]s has no such account, and no rds_account of this configuration creates it on that instance.", Args: accessArgs,
		Fix: "Fix: create it with rds_account and reference it (account_name = rds_account.<name>.name), so that the grant follows its creation."},
	{ID: RulePrivilegeAccountCase, Source: accessSource, Attribute: AttrAccountName, Summary: "Invalid account_name (rule privilege-account-case)",
		Detail: "account_name = %[1]q: instance %[4]s has no such account, but has %[5]q; account names are case-sensitive.", Args: accessArgs,
		Fix: "Fix: set account_name = %[5]q (or reference the rds_account that manages it)."},
	{ID: RulePrivilegeDatabaseMissing, Source: accessSource, Attribute: AttrDBNames, Summary: "Invalid db_names (rule privilege-database-missing)",
		Detail: "db_names: instance %[4]s has no database %[1]s, and no rds_database of this configuration creates it there (a name after \"->\" is how the instance spells a database that differs only in case).", Args: accessArgs,
		Fix: "Fix: create it with rds_database and reference it (db_names = [rds_database.<name>.name]), or correct the name."},
	{ID: RulePrivilegePairTaken, Source: accessSource, Attribute: AttrDBNames, Summary: "Invalid db_names (rule privilege-pair-taken)",
		Detail: "db_names: account %[5]q already has another privilege on %[1]s, which this resource did not grant: another rds_account_privilege " +
			"(its id is <instance_id>:<account_name>:<privilege>) or a change outside Terraform. An account has one privilege per database, so two grants of one " +
			"(account, database) pair would replace each other on every apply.", Args: accessArgs,
		Fix: "Fix: list each database of an account in one rds_account_privilege only; to change a database's privilege, move it from one rds_account_privilege to the other in two applies (remove it, apply, then add it)."},

	// Tags and resource groups (issue 27; the checks are in tags_rules.go).
	{ID: RuleTagKeyLength, Source: "cloud fact: a tag key is 1 to 64 characters (TagResources)", Attribute: AttrTags,
		Summary: "Invalid tag key", Detail: "%[1]s: tag key %[2]q is %[3]d characters; a key is 1 to %[4]d characters.",
		Fix: "Fix: shorten the key in %[1]s.", Args: []Arg{{"where", "tags"}, {"key", "team"}, {"length", 65}, {"max", 64}}},
	{ID: RuleTagValueLength, Source: "cloud fact: a tag value is at most 128 characters (TagResources)", Attribute: AttrTags,
		Summary: "Invalid tag value", Detail: "%[1]s: the value of tag %[2]q is %[3]d characters; a value is at most %[4]d characters.",
		Fix: "Fix: shorten the value in %[1]s.", Args: []Arg{{"where", "tags"}, {"key", "team"}, {"length", 129}, {"max", 128}}},
	{ID: RuleTagReservedPrefix, Source: "cloud fact: tag keys and values do not start with aliyun, acs:, http:// or https:// (TagResources, AddTagsToResource)",
		Attribute: AttrTags, Summary: "Reserved tag prefix",
		Detail: "%[1]s: tag %[2]s %[3]q starts with %[4]q, which Alibaba Cloud reserves for its own tags (aliyun, acs:, http://, https://, in any case).",
		Fix:    "Fix: choose a %[2]s that does not start with a reserved prefix.", Args: []Arg{{"where", "tags"}, {"part", "key"}, {"text", "acs:team"}, {"prefix", "acs:"}}},
	{ID: RuleTagProviderKey, Source: "provider: the create-token tag is the provider's own", Attribute: AttrTags,
		Summary: "Tag key reserved by the provider",
		Detail:  "%[1]s: tag key %[2]q is the tag the provider sets on every instance it creates, to find a create whose answer was lost; it is not shown and never changed.",
		Fix:     "Fix: use another key.", Args: []Arg{{"where", "tags"}, {"key", CreateTokenTagKey}}},
	{ID: RuleTagCount, Source: "cloud fact: an instance carries at most 20 tags (Tag service; simulator README)", Attribute: AttrTags,
		Summary: "Too many tags", Detail: "The instance would carry %[1]d tags: %[2]d from tags and the provider's default_tags, and %[3]d the provider sets for itself; an instance carries at most %[4]d.",
		Fix:  "Fix: remove tags from tags or default_tags (a resource's tag with a default's key replaces it and does not count twice).",
		Args: []Arg{{"total", 21}, {"merged", 20}, {"own", 1}, {"max", 20}}},
	{ID: RuleResourceGroupID, Source: "cloud fact: resource group ids look like rg-<lowercase letters and digits> (ModifyResourceGroup)", Attribute: "resource_group_id",
		Summary: "Invalid resource_group_id", Detail: "resource_group_id %q is not a resource group id.",
		Fix: "Fix: use the id of a resource group of the account (rg-..., from the Resource Management console or `aliyun resourcemanager ListResourceGroups`).", Args: []Arg{{"id", "group1"}}},
	{ID: RuleResourceGroupGone, Source: "cloud fact: ModifyResourceGroup moves an instance only into an existing group of the account (Resource Manager ListResourceGroups)", Attribute: "resource_group_id",
		Summary: "Resource group %[1]s does not exist",
		Detail:  "resource_group_id = %[1]q: Resource Manager's ListResourceGroups finds no such group in the account (or it is being deleted), so ModifyResourceGroup would be refused.",
		Fix:     "Fix: use the id of an existing group (`aliyun resourcemanager ListResourceGroups`, or the Resource Management console), or create the group first.", Args: []Arg{{"id", "rg-fin"}}},
	{ID: RuleResourceGroupOpen, Source: "provider: the plan checks a resource group with Resource Manager's ListResourceGroups", Severity: SeverityWarning, Attribute: "resource_group_id",
		Summary: "Cannot check resource group %[1]s",
		Detail:  "ListResourceGroups failed: %[2]s. The apply moves the instance into the group first, before any change that restarts it, so a group the cloud refuses stops the apply before anything else changed.",
		Fix:     "Grant resourcemanager:ListResourceGroups to the credentials so that the plan can check the group.", Args: []Arg{{"id", "rg-fin"}, {"error", "Forbidden.RAM"}}},

	// Storage autoscaling (issue 27 §2; the checks are in storage_autoscale_rules.go).
	{ID: RuleAutoScaleThreshold, Source: "cloud fact: StorageThreshold is 10, 20, 30, 40 or 50 (ModifyDasInstanceConfig)", Attribute: AttrStorageAutoScale,
		Summary: "Invalid storage_auto_scale.threshold", Detail: "storage_auto_scale.threshold = %d: the cloud grows the disk when free space falls to 10, 20, 30, 40 or 50 percent, no other value.",
		Fix: "Fix: set threshold to 10, 20, 30, 40 or 50.", Args: []Arg{{"threshold", int64(15)}}},
	{ID: RuleAutoScaleUnsupported, Source: "cloud fact: storage autoscaling needs RDS High-availability Edition and cloud disks (ModifyDasInstanceConfig; simulator README)",
		Attribute: AttrStorageAutoScale, Summary: "Storage autoscaling is not available for this instance",
		Detail: "%s (%s, category %s, storage_type %s) cannot have storage_auto_scale: the cloud grows the disks of High-availability Edition instances on cloud disks (cloud_ssd, ESSDs) only.",
		Fix:    "Fix: remove storage_auto_scale, or use category = \"HighAvailability\" and a cloud-disk storage_type.",
		Args:   []Arg{{"instance", "rm-1"}, {"engine", "MySQL"}, {"category", "Basic"}, {"storage type", "cloud_essd"}}},
	{ID: RuleAutoScaleUpperBelow, Source: "cloud fact: StorageUpperBound is at least the instance's storage (ModifyDasInstanceConfig)", Attribute: AttrStorageAutoScale,
		Summary: "storage_auto_scale.upper_bound below the storage", Detail: "storage_auto_scale.upper_bound = %d GB is below the instance's storage, %d GB (the larger of storage and the size the cloud grew the disk to).",
		Fix: "Fix: set upper_bound to at least the storage.", Args: []Arg{{"upper bound", int64(80)}, {"storage", int64(100)}}},
	{ID: RuleAutoScaleUpperAbove, Source: "cloud fact: StorageUpperBound is at most 32,000 GB for ESSDs and 6,000 GB for standard SSDs (ModifyDasInstanceConfig)",
		Attribute: AttrStorageAutoScale, Summary: "storage_auto_scale.upper_bound above the maximum",
		Detail: "storage_auto_scale.upper_bound = %d GB is above %d GB, the largest disk the cloud grows %s storage to.",
		Fix:    "Fix: lower upper_bound to at most the maximum.", Args: []Arg{{"upper bound", int64(7000)}, {"maximum", int64(6000)}, {"storage type", "cloud_ssd"}}},
	{ID: RuleAutoScaleFloor, Source: "provider: while storage autoscaling is on, storage is a floor", Severity: SeverityWarning, Attribute: AttrStorage,
		Summary: "storage is below the size the cloud grew the disk to",
		Detail:  "storage = %d GB, but %s already has %d GB (grown by storage autoscaling; see storage_actual). Disks do not shrink: nothing is sent, and storage is kept as the floor.",
		Fix:     "Nothing to do; to grow the disk now, set storage above storage_actual.", Args: []Arg{{"storage", int64(100)}, {"instance", "rm-1"}, {"actual", int64(115)}}},
	{ID: RuleAutoScaleOffBelow, Source: "provider: once storage autoscaling is off, storage is the disk's size, not a floor; a disk grown is not shrunk unasked", Attribute: AttrStorageAutoScale,
		Summary: "Turning storage_auto_scale off leaves storage below the disk",
		Detail:  "storage = %[1]d GB, but %[2]s has %[3]d GB (see storage_actual: grown by storage autoscaling, or by an earlier storage). Once autoscaling is off storage is the disk's size, not a floor: this apply would send nothing for storage and leave the state at %[1]d GB over a %[3]d GB disk, and the next plan would shrink the disk (a storage reduction, with its switchover).",
		Fix:     "Set storage = %[3]d in this change to keep the disk as it is (to shrink it, lower storage in a later run, once autoscaling is off), or keep storage_auto_scale on.", Args: []Arg{{"storage", int64(100)}, {"instance", "rm-1"}, {"actual", int64(115)}}},
	{ID: RuleAutoScaleOffUnknown, Source: "provider: the plan names a refusal that depends on a value known only at apply (issue 39)", Severity: SeverityWarning,
		Attribute: AttrStorageAutoScale, Summary: "The apply may refuse turning storage_auto_scale off: storage is known only at apply",
		Detail: "This plan turns storage_auto_scale off on %[1]s, whose disk has %[2]d GB, and storage is known only at apply. If it is below %[2]d GB there, the apply refuses it (storage-auto-scale-off-below-actual) before any write to %[1]s, after other resources of this run have changed.",
		Fix:    "Give storage a value known at plan, at least %[2]d, or turn storage_auto_scale off in a run of its own.", Args: []Arg{{"instance", "rm-1"}, {"actual", int64(115)}}},
	// Named IP lists (issue 42 §2; the checks are in ip_groups.go).
	{ID: RuleIPGroupDefaultTwice, Source: "provider: security_ips is the default IP array (DBInstanceIPArrayName default)", Attribute: AttrSecurityIPGroups,
		Summary: "The default IP list is set twice", Detail: "security_ip_groups names %q while security_ips is set: both are the instance's default IP array.",
		Fix: "Fix: keep the default list's entries in security_ips and remove %[1]q from security_ip_groups.", Args: []Arg{{"name", "default"}}},
	{ID: RuleIPGroupName, Source: "cloud fact: an IP array's name is 2-32 lowercase letters, digits and underscores, starting with a letter (console; simulator README IP arrays)",
		Attribute: AttrSecurityIPGroups, Summary: "Invalid IP list name %[1]q",
		Detail: "security_ip_groups has a list named %q: a name is 2 to 32 characters of lowercase letters, digits and underscores, starting with a letter and ending with a letter or digit.",
		Fix:    "Fix: rename it, e.g. office_vpn.", Args: []Arg{{"name", "Office-VPN"}}},
	{ID: RuleIPGroupEmpty, Source: "cloud fact: ModifySecurityIps needs at least one entry, and a named array goes with its last one (simulator README IP arrays)",
		Attribute: AttrSecurityIPGroups, Summary: "Empty IP list %[1]q",
		Detail: "security_ip_groups.%s has no entries: the cloud keeps no empty named list.", Fix: "Fix: add an address or CIDR block, or remove the list.", Args: []Arg{{"name", "office"}}},
	{ID: RuleIPGroupHidden, Source: "cloud fact: arrays with DBInstanceIPArrayAttribute hidden belong to Alibaba services such as DTS (DescribeDBInstanceIPArrayList reference)",
		Attribute: AttrSecurityIPGroups, Summary: "IP list %[1]q is a cloud service's hidden list",
		Detail: "security_ip_groups names %q, an IP array the cloud marks hidden (added by a service such as DTS, DMS or DAS). The provider never shows, changes or removes such arrays.",
		Fix:    "Fix: choose another name for the list.", Args: []Arg{{"name", "dtspublic"}}},
	{ID: RuleIPEntriesLimit, Source: "cloud fact: at most 1,000 IP addresses and CIDR blocks across an instance's IP arrays (ModifySecurityIps reference)",
		Attribute: AttrSecurityIPGroups, Summary: "Too many IP entries",
		Detail: "security_ips, security_ip_groups and the arrays of Alibaba services add up to %d addresses and CIDR blocks; an instance takes at most %d.",
		Fix:    "Fix: merge addresses into CIDR blocks (e.g. 10.10.10.0/24) or drop entries.", Args: []Arg{{"entries", 1001}, {"limit", MaxSecurityIPEntries}}},
	{ID: RuleIPArraysLimit, Source: "cloud fact: at most 200 IP arrays per instance (ModifySecurityIps reference)",
		Attribute: AttrSecurityIPGroups, Summary: "Too many IP lists",
		Detail: "The default list, security_ip_groups and the arrays of Alibaba services add up to %d IP lists; an instance takes at most %d.",
		Fix:    "Fix: merge lists.", Args: []Arg{{"lists", 201}, {"limit", MaxSecurityIPArrays}}},
	// ECS security groups (issue 42 §2; the checks are in security_groups.go).
	{ID: RuleSecurityGroupID, Source: "cloud fact: ECS security group ids are sg- followed by lowercase letters and digits (simulator README, assumption SG1)",
		Attribute: AttrSecurityGroupIDs, Summary: "Invalid security group id %[1]q",
		Detail: "security_group_ids has %q, which is not an ECS security group id.", Fix: "Fix: use the group's id, e.g. sg-bp1example (alicloud_security_group.<name>.id).",
		Args: []Arg{{"id", "default"}}},
	{ID: RuleSecurityGroupsLimit, Source: "cloud fact: an instance is added to at most 10 ECS security groups (ModifySecurityGroupConfiguration reference)",
		Attribute: AttrSecurityGroupIDs, Summary: "Too many security groups",
		Detail: "security_group_ids has %d groups; an instance is added to at most %d.", Fix: "Fix: drop groups, or allow their CIDR blocks in security_ip_groups instead.",
		Args: []Arg{{"groups", 11}, {"limit", 10}}},
	// Whitelist templates (issue 42 §2; the checks are in whitelist_template.go).
	{ID: RuleTemplateNameTaken, Source: "cloud fact: a whitelist template is found by its name, unique per account (simulator README, assumption WT1)",
		Attribute: "name", Summary: "Whitelist template name %[1]q is taken",
		Detail: "Another whitelist template of the account, %[2]d, is named %[1]q.", Fix: "Fix: choose another name, or import template %[2]d (terraform import rds_whitelist_template.<name> %[2]d).",
		Args: []Arg{{"name", "office"}, {"template id", int64(412)}}},
	{ID: RuleTemplateEmpty, Source: "cloud fact: ModifyWhitelistTemplate with an empty IpWhitelist deletes the template (simulator README)",
		Attribute: "ip_whitelist", Summary: "Empty whitelist template", Detail: "ip_whitelist is empty: the cloud deletes a template whose list is emptied.",
		Fix: "Fix: add at least one address or CIDR block, or remove the resource.", Args: []Arg{}},
	{ID: RuleTemplateName, Source: "provider: a template name is sent as TemplateName and found again by it", Attribute: "name",
		Summary: "Invalid whitelist template name", Detail: "name = %q: a template needs a name without commas.", Fix: "Fix: set a name, e.g. office_vpn.",
		Args: []Arg{{"name", ""}}},
	{ID: RuleTemplateID, Source: "cloud fact: whitelist template ids are whole numbers (DescribeAllWhitelistTemplate)", Attribute: AttrWhitelistTemplateIDs,
		Summary: "Invalid whitelist template id %[1]q", Detail: "whitelist_template_ids has %q, which is not a whitelist template id.",
		Fix: "Fix: use rds_whitelist_template.<name>.id.", Args: []Arg{{"id", "office"}}},
	// Subscription (Prepaid) billing (issue 27 §3; the checks are in billing_rules.go).
	{ID: RuleBillingPeriod, Source: billingSource, Attribute: AttrBilling, Summary: "Invalid billing.period",
		Detail: "billing.pay_type = \"Prepaid\" needs period \"Month\" or \"Year\"; got %q.", Args: []Arg{{"period", "Week"}},
		Fix: "Fix: set billing.period = \"Month\" (used_time 1 to 11) or \"Year\" (used_time 1 to 5)."},
	{ID: RuleBillingUsedTime, Source: billingSource, Attribute: AttrBilling, Summary: "Invalid billing.used_time",
		Detail: "billing.used_time = %[1]d with period = %[2]q: the cloud sells 1 to %[3]d of them.", Args: []Arg{{"used time", int64(12)}, {"period", "Month"}, {"max", int64(11)}},
		Fix: "Fix: set used_time between 1 and %[3]d (for 12 months or more, use period = \"Year\")."},
	{ID: RuleBillingPostpaidTerms, Source: billingSource, Attribute: AttrBilling, Summary: "billing.period, used_time and auto_renew are for Prepaid only",
		Detail: "billing.pay_type = %q is pay-as-you-go, which has no period, used_time or auto_renew.", Args: []Arg{{"pay type", "Postpaid"}},
		Fix: "Fix: remove period, used_time and auto_renew, or set pay_type = \"Prepaid\"."},
	{ID: RuleBillingProtection, Source: "cloud fact: deletion protection is offered for pay-as-you-go instances only (ModifyDBInstanceDeletionProtection reference; simulator README, Subscription billing)",
		Attribute: AttrDeletionProtection, Summary: "deletion_protection is for pay-as-you-go instances only",
		Detail: "billing.pay_type = \"Prepaid\" and deletion_protection = true: the cloud offers deletion protection for pay-as-you-go instances only (a subscription instance cannot be released before it is converted anyway).",
		Fix:    "Fix: set deletion_protection = false with Prepaid; prepaid_on_destroy decides what a destroy does."},
	{ID: RuleBillingPurchase, Source: billingSource, Severity: SeverityWarning, Attribute: AttrBilling, Summary: "This apply buys a %[2]s subscription for %[1]s",
		Detail: "billing.pay_type = \"Prepaid\": the apply pays %[2]s of %[1]s up front from the account (AutoPay) when it runs; auto-renewal is %[3]s. Converting back to pay-as-you-go later refunds the unused part minus a service fee.",
		Args:   []Arg{{"instance", "rm-1"}, {"term", "3 months"}, {"auto-renewal", "off"}}},
	{ID: RuleBillingReplacePurchase, Source: billingSource, Severity: SeverityWarning, Attribute: AttrBilling,
		Summary: "This apply buys a %[2]s subscription for the instance that replaces %[1]s",
		Detail: "billing.pay_type = \"Prepaid\": the replacement of %[1]s is created as a subscription instance, and the apply pays %[2]s of it up front " +
			"from the account (AutoPay) when it creates it; auto-renewal is %[3]s. This is a new purchase, besides what becomes of %[1]s's own subscription.",
		Args: []Arg{{"instance", "rm-1"}, {"term", "1 month"}, {"auto-renewal", "off"}},
		Fix:  "To replace it without buying, set billing.pay_type = \"Postpaid\"; to keep %[1]s, undo the change that replaces it."},
	{ID: RuleBillingLiftsExpiry, Source: billingSource + "; an expired subscription may still be converted to pay-as-you-go, which lifts LockByExpiration",
		Severity: SeverityWarning, Attribute: AttrBilling,
		Summary: "Converting %[1]s to pay-as-you-go lifts its expiration lock",
		Detail: "%[1]s is locked because its subscription expired (LockByExpiration). The apply sends TransformDBInstancePayType to Postpaid first, " +
			"the one change the cloud takes while that lock holds; it lifts the lock, and the apply's other changes follow it.",
		Args: []Arg{{"instance", "rm-1"}}},
	{ID: RuleRenewBuys, Source: renewSource, Severity: SeverityWarning, Attribute: AttrRenewPeriod,
		Summary: "%[1]s buys %[3]d more month(s) of %[2]s's subscription",
		Detail: "RenewInstance renews subscription instance %[2]s by period = %[3]d month(s), paid at once from the account (AutoPay): it ends at %[4]s now " +
			"and at %[5]s after the renewal (counted from now if it has already ended). An expiration lock (LockByExpiration) lifts once it is paid.",
		Args: []Arg{{"action", "rds_renew"}, {"instance", "rm-1"}, {"months", 1}, {"ends", "2026-12-01T00:00:00Z"}, {"renewed until", "2027-01-01T00:00:00Z"}}},
	{ID: RuleRenewPeriod, Source: renewSource, Attribute: AttrRenewPeriod,
		Summary: "%[1]s cannot renew for %[2]d month(s)",
		Detail:  "RenewInstance takes a Period of 1 to 9, 12, 24, 36, 48 or 60 months; period = %[2]d is none of them.",
		Args:    []Arg{{"action", "rds_renew"}, {"months", 10}},
		Fix:     "Fix: set period to one of 1-9, 12, 24, 36, 48 or 60."},
	{ID: RuleRenewNotPrepaid, Source: renewSource, Attribute: "instance_id",
		Summary: "%[1]s renews subscription instances only: %[2]s is pay-as-you-go",
		Detail:  "%[2]s is billed pay-as-you-go (PayType %[3]s): it has no subscription to renew, and RenewInstance refuses it.",
		Args:    []Arg{{"action", "rds_renew"}, {"instance", "rm-1"}, {"pay type", "Postpaid"}},
		Fix:     "Remove the action, or buy a subscription with the instance's billing = { pay_type = \"Prepaid\", ... }."},
	{ID: RuleBillingRefund, Source: billingSource, Severity: SeverityWarning, Attribute: AttrBilling, Summary: "This apply ends the subscription of %[1]s",
		Detail: "billing.pay_type = \"Postpaid\": TransformDBInstancePayType converts %[1]s to pay-as-you-go; the cloud refunds the unused subscription minus a service fee, and the instance is billed by the hour from then on.",
		Args:   []Arg{{"instance", "rm-1"}}},
	{ID: RuleBillingTermsFixed, Source: billingSource, Severity: SeverityWarning, Attribute: AttrBilling, Summary: "billing.period and used_time apply at purchase only",
		Detail: "%[1]s was bought for %[2]s; the configuration now says %[3]s. The provider buys nothing for this change (a renewal is the cloud's auto-renewal, or the rds_renew action); only the auto-renewal duration follows period.",
		Args:   []Arg{{"instance", "rm-1"}, {"bought", "1 month"}, {"configured", "3 months"}}},
	{ID: RuleBillingDestroy, Source: billingSource + "; DeleteDBInstance refuses a Prepaid primary (OperationDenied.PrePayTypeNotSupported)", Attribute: AttrPrepaidOnDestroy,
		Summary: "Destroying subscription instance %[2]s needs prepaid_on_destroy",
		Detail:  "%[2]s is a subscription (Prepaid) instance: the cloud does not release it, and removing it from state alone would leave it billed. prepaid_on_destroy %[1]s, which does not say what to do.",
		Args:    []Arg{{"setting", "is not set"}, {"instance", "rm-1"}},
		Fix:     "Fix: set prepaid_on_destroy = \"convert_and_delete\" (convert to pay-as-you-go, refund of the unused part minus a fee, then release) or \"abandon\" (remove from state; the instance keeps running and is billed until it expires), apply, then destroy."},
	{ID: RuleBillingDestroyConv, Source: billingSource, Severity: SeverityWarning, Attribute: AttrPrepaidOnDestroy,
		Summary: "Destroying %[1]s converts it to pay-as-you-go, then releases it",
		Detail:  "prepaid_on_destroy = \"convert_and_delete\": TransformDBInstancePayType to Postpaid (the cloud refunds the unused subscription minus a service fee), then DeleteDBInstance.",
		Args:    []Arg{{"instance", "rm-1"}}},
	{ID: RuleBillingDestroyAband, Source: billingSource, Severity: SeverityWarning, Attribute: AttrPrepaidOnDestroy,
		Summary: "Destroying %[1]s only removes it from state: it stays billed",
		Detail:  "prepaid_on_destroy = \"abandon\": the subscription instance is not released; it keeps running, and is paid for, until its subscription ends (and for every auto-renewal).",
		Args:    []Arg{{"instance", "rm-1"}}},

	{ID: RuleCreateIncomplete, Source: "provider: a usable instance is never tainted (Terraform replaces tainted instances)", Severity: SeverityWarning,
		Attribute: "id", Summary: "RDS instance created, but not configured as planned",
		Detail: "Instance %[1]s is Running and recorded in state, not tainted: the next apply keeps it and creates no other instance. " +
			"%[2]s failed: %[3]s. So the instance is not yet as planned (%[4]s).",
		Args: []Arg{{"instance", "rm-1"}, {"failed step", "ModifySecurityIps"}, {"error", "Throttling"}, {"what was not applied", "security_ips"}},
		Fix:  "The next plan shows the remaining change (or refuses what cannot be made, saying why); applying it completes the configuration."},
	{ID: RuleCreateCompleting, Source: "provider: a usable instance is never tainted (Terraform replaces tainted instances)", Severity: SeverityWarning,
		Attribute: "id", Summary: "Completing the creation of %[1]s",
		Detail: "When %[1]s was created, %[2]s failed (%[3]s), so it was left with other values than planned.",
		Args:   []Arg{{"instance", "rm-1"}, {"failed step", "ModifySecurityIps"}, {"error", "Throttling"}, {"remaining attributes", "security_ips"}},
		Fix:    "This plan completes its configuration: %[4]s."},
	{ID: RuleCreateUnrefreshed, Source: "provider: a usable instance is never tainted (Terraform replaces tainted instances)", Severity: SeverityWarning,
		Attribute: "id", Summary: "Plan made without a refresh after an incomplete creation of %[1]s",
		Detail: "When %[1]s was created, %[2]s failed (%[3]s), so these settings may not be applied: %[4]s. The state still holds " +
			"their planned values and this plan did not refresh (-refresh=false), so it cannot show them.",
		Args: []Arg{{"instance", "rm-1"}, {"failed step", "ModifySecurityIps"}, {"error", "Throttling"}, {"attributes", "security_ips"}},
		Fix:  "Run a plan with refresh to see the remaining change."},

	// ---- creates an interrupted apply left behind (issue 29) ----
	{ID: RuleCreateAdopted, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)", Severity: SeverityWarning,
		Attribute: "id", Summary: "Adopting %[2]s, created by an interrupted apply",
		Detail: "An apply in this working directory and workspace (%[3]s) was stopped at %[4]s while it created this %[1]s with this configuration, " +
			"before Terraform could record it: %[2]s is what that create made, and no state names it. This plan takes it over instead of creating another; " +
			"the apply records it in state and completes its configuration as for a new one.",
		Args: []Arg{{"resource type", "rds_instance"}, {"object", "rm-1"}, {"journal", ".terraform/rds-create-journal/default"}, {"stopped at", "2026-12-01T18:00:00Z"}},
		Fix:  "To have a new one created instead, delete %[2]s before applying."},
	{ID: RuleCreateAdoptedTwin, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)", Severity: SeverityWarning,
		Attribute: "id", Summary: "Adopting %[2]s, created by an interrupted apply for one of this configuration's twins",
		Detail: "An apply in this working directory and workspace (%[3]s) was stopped at %[4]s while it created several %[1]s with this same configuration " +
			"(a count or for_each whose arguments do not use the index): their objects are interchangeable, and no state names them. This resource, the first " +
			"of those twins to plan without an object, takes %[2]s; each other twin takes another one or creates its own. The apply records it in state " +
			"and completes its configuration as for a new one.",
		Args: []Arg{{"resource type", "rds_readonly_instance"}, {"object", "rr-1"}, {"journal", ".terraform/rds-create-journal/default"}, {"stopped at", "2026-12-01T18:00:00Z"}},
		Fix:  "To have a new one created instead, delete %[2]s before applying; to keep twins apart, give them distinct arguments (instance_name = \"ro-${count.index}\")."},
	{ID: RuleCreateResent, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)", Severity: SeverityWarning,
		Attribute: "id", Summary: "Resending a create an interrupted apply sent",
		Detail: "An apply in this working directory and workspace (%[2]s) was stopped at %[3]s while its %[1]s for this configuration had no answer yet. " +
			"This apply sends the same request with the same ClientToken (%[4]s): the cloud answers it with the instance that request made, if it made one, " +
			"instead of creating a second.",
		Args: []Arg{{"action", "CloneDBInstance"}, {"journal", ".terraform/rds-create-journal/default"}, {"stopped at", "2026-12-01T18:00:00Z"}, {"client token", "tf-rds-1"}},
		Fix:  "Nothing to do; the id is known after the apply."},
	{ID: RuleCreateOrphan, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)",
		Attribute: "id", Summary: "%[2]s was created for this %[1]s by an interrupted apply",
		Detail: "An apply in this working directory and workspace (%[3]s) was stopped while it created this %[1]s with this configuration, and it left %[2]s, " +
			"which no state names. The plan does not take it over because %[4]s, and creating another would leave a duplicate.",
		Args: []Arg{{"resource type", "rds_instance"}, {"objects", "rm-1"}, {"journal", ".terraform/rds-create-journal/default"}, {"reason", "it was created more than 24h ago"},
			{"import blocks", "import {\n  to = rds_instance.NAME\n  id = \"rm-1\"\n}"}},
		Fix: "Fix: import it into this resource with an import block (%[1]s.NAME is the address this message is about), then delete %[3]s/*.json:\n%[5]s\n" +
			"or delete %[2]s and that directory's entries to create a new one."},
	{ID: RuleCreateJournalUnreadable, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)",
		Attribute: "id", Summary: "Error looking for an instance an interrupted apply created",
		Detail: "The journal %[1]s names an interrupted create of this %[2]s, and reading it failed: %[3]s.",
		Args:   []Arg{{"journal", ".terraform/rds-create-journal/default"}, {"resource type", "rds_instance"}, {"error", "DescribeDBInstances: timeout"}},
		Fix:    "Plan again once the API answers: the plan reads the instance the journal names to decide whether to take it over."},

	// ---- issue 23: backups in the create journal ----
	{ID: RuleBackupCreateOrphan, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)",
		Attribute: "id", Summary: "Backups of %[1]s may have been started for this rds_backup by an interrupted apply",
		Detail: "An apply in this working directory and workspace (%[3]s) was stopped while it created this rds_backup, and the instance has %[2]s " +
			"that no state names. The plan does not take one over because %[4]s, and starting another backup would leave one more set.",
		Args: []Arg{{"instance", "rm-1"}, {"jobs", "backup jobs 7, 8"}, {"journal", ".terraform/rds-create-journal/default"},
			{"reason", "2 interrupted creates have this configuration and nothing tells which one is this resource's"}},
		Fix: "Delete the sets you do not want (DeleteBackup, or the console's Backup and Restoration page) and delete %[3]s/*.json; the next plan " +
			"then adopts the one set left, or starts a new backup."},
	{ID: RuleBackupNowLeft, Source: "provider: a killed apply leaves no silent duplicate (the create journal in the working directory)", Severity: SeverityWarning,
		Attribute: "instance_id", Summary: "An interrupted rds_backup_now left %[2]s on %[1]s",
		Detail: "An invocation of rds_backup_now with this configuration, in this working directory and workspace (%[3]s), was stopped after it started %[2]s " +
			"on %[1]s. Their sets are kept under the instance's backup policy like any other; this invocation takes a new backup, as it always does.",
		Args: []Arg{{"instance", "rm-1"}, {"jobs", "backup jobs 7"}, {"journal", ".terraform/rds-create-journal/default"}},
		Fix:  "Nothing to do; delete the sets you do not want with DeleteBackup or in the console."},

	// ---- moved blocks from the alicloud provider (moved_alicloud.go) ----
	{ID: RuleMoveOtherProvider, Source: moveSource, Attribute: "id", Summary: "Cannot move into %[1]s",
		Detail: "%[1]s can be moved here only from the alicloud provider (%[2]s); the source %[3]s belongs to %[4]q.",
		Args:   []Arg{{"target", "rds_instance"}, {"alicloud provider", "aliyun/alicloud"}, {"source type", "aws_db_instance"}, {"source provider", "registry.terraform.io/hashicorp/aws"}},
		Fix:    "Import the resource instead (terraform import, or an import block)"},
	{ID: RuleMoveWithinProvider, Source: moveSource + "; each resource type manages one kind of object (an rds_instance import of a read-only instance is refused)", Attribute: "id",
		Summary: "Cannot move %[2]s into %[1]s",
		Detail:  "%[2]s and %[1]s are both this provider's resources, for different kinds of objects: the object %[2]s manages cannot be managed as %[1]s, by a moved block or by an import.",
		Args:    []Arg{{"target", "rds_instance"}, {"source type", "rds_readonly_instance"}},
		Fix:     "Remove the moved block and keep the resource as %[2]s."},
	{ID: RuleMoveOtherType, Source: moveSource, Attribute: "id", Summary: "Cannot move into %[1]s",
		Detail: "%[1]s can be moved here only from %[2]s, not from %[3]s.",
		Args:   []Arg{{"target", "rds_instance"}, {"source types", "alicloud_db_instance"}, {"source type", "alicloud_db_readonly_instance"}},
		Fix:    "Use the moved block's `to` that matches the source (see the guide \"Moving from the alicloud provider\"), or import the resource"},
	{ID: RuleMoveNoAttributes, Source: moveSource, Attribute: "id", Summary: "Cannot move into %[1]s",
		Detail: "The state of %[2]s holds no attributes (a state in the legacy flat format?);",
		Args:   []Arg{{"target", "rds_instance"}, {"source type", "alicloud_db_instance"}},
		Fix:    "run `terraform apply -refresh-only` with the alicloud provider first, then move it"},
	{ID: RuleMoveMissingPart, Source: moveSource, Attribute: "id", Summary: "Cannot move into %[1]s",
		Detail: "The state of %[2]s has no %[3]s:",
		Args:   []Arg{{"target", "rds_account"}, {"source type", "alicloud_db_account"}, {"attribute", "account_name or name"}},
		Fix:    "refresh it with the alicloud provider (terraform apply -refresh-only) and move it again"},
	{ID: RuleMoveNotWholeNumber, Source: moveSource, Attribute: "id", Summary: "Cannot move into %[1]s",
		Detail: "%[2]s.%[3]s is %[4]s in the alicloud state, which is not a whole number.",
		Args:   []Arg{{"target", "rds_instance"}, {"source type", "alicloud_db_instance"}, {"attribute", "period"}, {"value", "1.5"}},
		Fix:    "Refresh it with the alicloud provider (terraform apply -refresh-only) and move it again"},
	{ID: RuleMoveUnmanagedEngine, Source: moveSource, Attribute: "engine", Summary: "Cannot move into %[1]s",
		Detail: "%[2]s has engine %[3]q; this provider manages %[4]s instances only.",
		Args:   []Arg{{"target", "rds_instance"}, {"source type", "alicloud_db_instance"}, {"engine", "SQLServer"}, {"engines", "MySQL and PostgreSQL"}},
		Fix:    "Keep %[2]s in the alicloud provider"},
	{ID: RuleMoveUnmanagedAccount, Source: moveSource, Attribute: "type", Summary: "Cannot move into %[1]s",
		Detail: "%[2]s has account_type %[3]q; %[1]s manages %[4]s accounts (%[3]q is SQL Server's).",
		Args:   []Arg{{"target", "rds_account"}, {"source type", "alicloud_db_account"}, {"account type", "Sysadmin"}, {"account types", "Normal and Super"}},
		Fix:    "Keep it in the alicloud provider"},
	{ID: RuleMoveUnmanagedPrivilege, Source: moveSource, Attribute: "privilege", Summary: "Cannot move into %[1]s",
		Detail: "%[2]s has privilege %[3]q; %[1]s manages %[4]s (DBOwner is SQL Server's).",
		Args:   []Arg{{"target", "rds_account_privilege"}, {"source type", "alicloud_db_account_privilege"}, {"privilege", "DBOwner"}, {"privileges", "ReadWrite, ReadOnly"}},
		Fix:    "Keep it in the alicloud provider"},

	// ---- changes made outside an apply while it runs (issue 19 items 5 and 6) ----
	{ID: RuleChangedDuringApply, Source: "provider: an update waits only for its own change and fails fast when another change rules it out",
		Attribute: "id", Summary: "RDS instance changed outside this apply",
		Detail: "RDS instance %[1]s was changed outside this apply while it waited for its own change: %[2]s. %[3]s" +
			"This apply's change was sent, but the instance does not have %[4]s and will not get it by waiting. Nothing else was sent.",
		Args: []Arg{{"instance", "rm-1"}, {"changes", "instance_type \"a\" -> \"b\""}, {"reason (a sentence, or empty)", ""}, {"what is missing", "instance_type \"c\""}},
		Fix:  "Run terraform plan to see the instance as it is now, and change the configuration or apply again."},
	{ID: RuleChangedSincePlan, Source: "provider: an update re-checks with the plan's rules before any write",
		Attribute: "id", Summary: "RDS instance changed outside this apply",
		Detail: "RDS instance %[1]s was changed outside this apply after the plan was made: %[2]s. For the instance as it is now, " +
			"this apply's change is refused: %[3]s Nothing was sent for it.",
		Args: []Arg{{"instance", "rm-1"}, {"changes", "instance_type \"a\" -> \"b\""}, {"refusals", "16K atomic write is not supported."}},
		Fix:  "Run terraform plan again: it starts from the instance as it is now."},
	// ---- issue 23: an order that would restart an instance the plan did not (executor_cancel.go) ----
	{ID: RuleRestartNotInPlan, Source: "provider: the apply restarts only the instances its plan names",
		Attribute: "instance_type", Summary: "Restart not in the plan",
		Detail: "The plan cancels the change waiting for the maintenance window of RDS instance %[1]s by ordering its own spec again, " +
			"but the change has run since (%[2]s): that order would now be a change of its own and restart the instance, which the plan did not say.",
		Args: []Arg{{"instance", "rm-1"}, {"changes", "instance_type is \"b\" (the plan saw \"a\")"}},
		Fix:  "Run terraform plan again: it shows the change back as a restart of its own."},
	{ID: RuleParamWithdrawnRan, Source: "provider: the apply restarts only the instances its plan names; ModifyParameter (a value set back runs without a restart only while another waits)",
		Attribute: AttrParameters, Summary: "Parameter value to withdraw has run since the plan",
		Detail: "The plan sets parameters of RDS instance %[1]s back to the values it runs, which withdraws the values waiting for a restart, " +
			"but a restart has run them since (%[2]s): set back now, they would wait for another restart, which the plan did not say.",
		Args: []Arg{{"instance", "rm-1"}, {"changes", "back_log runs \"4000\" (the plan saw \"3000\" running)"}},
		Fix:  "Run terraform plan again: it shows the change back as a restart of its own."},
	{ID: RuleRestartWithPrimary, Source: "provider: the plan names every restart; 16K rule 7 (a read-only instance follows its primary turning the flag on)",
		Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "%[1]s restarts in its primary's maintenance window",
		Detail:  "The cloud restarts the following instances when their primary's scheduled change runs, not during this apply:\n%[2]s",
		Args:    []Arg{{"instances text", "RDS instance rr-1"}, {"list", "  - rr-1: follows its primary rm-1 turning atomic_write_16k on"}},
		Fix:     "Set prevent_restart = true to refuse such plans."},

	// ---- backup policy and backups (issue 26; checks in backup_rules.go) ----
	{ID: RuleBackupOnReadOnly, Source: backupSource, Attribute: AttrInstanceID, Summary: "Invalid instance_id (rule backup-on-read-only)",
		Detail: "instance_id = %[1]q is a read-only instance: read-only instances have no backups and no backup policy of their own.", Args: []Arg{{"instance id", "rm-1"}},
		Fix: "Fix: set instance_id to the primary instance; its backups cover the data of its read-only instances."},
	{ID: RuleBackupInstanceMissing, Source: backupSource, Attribute: AttrInstanceID, Summary: "Invalid instance_id: %[1]s does not exist",
		Detail: "instance_id = %[1]q: DescribeDBInstanceAttribute finds no such instance in this region, so CreateBackup would be refused.", Args: []Arg{{"instance id", "rm-1"}},
		Fix: "Fix: set instance_id to an existing instance, e.g. rds_instance.main.id (the plan checks it again once it is known)."},
	{ID: RuleBackupTimeFormat, Source: backupSource, Attribute: AttrBackupTime, Summary: "Invalid preferred_backup_time (rule backup-time-format)",
		Detail: "preferred_backup_time = %[1]q must be a one-hour window in UTC, HH:00Z-HH:00Z, ending one hour after it starts.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: use a window such as \"02:00Z-03:00Z\"."},
	{ID: RuleBackupPeriodDay, Source: backupSource, Attribute: AttrBackupPeriod, Summary: "Invalid preferred_backup_period (rule backup-period-day)",
		Detail: "preferred_backup_period contains %[1]q, which is not a day of the week as the API spells it.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: use Monday, Tuesday, Wednesday, Thursday, Friday, Saturday or Sunday (capitalised)."},
	{ID: RuleBackupPeriodTwoDays, Source: backupSource, Attribute: AttrBackupPeriod, Summary: "Invalid preferred_backup_period (rule backup-period-two-days)",
		Detail: "preferred_backup_period = [%[1]s] names fewer than two days; RDS backs up on at least two days a week.", Args: []Arg{{"days", "Monday"}},
		Fix: "Fix: add another day, e.g. [\"Monday\", \"Thursday\"]."},
	{ID: RuleBackupRetentionRange, Source: backupSource, Attribute: AttrBackupRetention, Summary: "Invalid backup_retention_period (rule backup-retention-range)",
		Detail: "backup_retention_period = %[1]s days is outside 7-730.", Args: []Arg{{"value", "x"}}, Fix: "Fix: keep data backups 7 to 730 days."},
	{ID: RuleBackupIntervalValue, Source: backupSource, Attribute: AttrBackupInterval, Summary: "Invalid backup_interval (rule backup-interval-value)",
		Detail: "backup_interval = %[1]s is not a snapshot frequency RDS offers (-1 for none, or 15, 30, 60, 120, 180, 240, 360, 480, 720 minutes).", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set backup_interval to -1 or one of the listed minutes."},
	{ID: RuleBackupCategoryValue, Source: backupSource, Attribute: AttrBackupCategory, Summary: "Invalid category (rule backup-category-value)",
		Detail: "category = %[1]q must be Standard or Flash (single-digit-second backups).", Args: []Arg{{"value", "x"}}, Fix: "Fix: set category = \"Standard\" or \"Flash\"."},
	{ID: RuleBackupIntervalFlash, Source: backupSource, Attribute: AttrBackupInterval, Summary: "Invalid backup_interval (rule backup-interval-with-flash)",
		Detail: "backup_interval = %[1]s does not apply with category = \"Flash\": Alibaba documents BackupInterval as invalid for Flash backups.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set backup_interval = -1, or category = \"Standard\" to back up every few minutes."},
	{ID: RuleBackupSnapshotDisk, Source: backupSource, Attribute: AttrBackupInterval, Summary: "Invalid backup_interval (rule backup-snapshot-needs-cloud-disk)",
		Detail: "backup_interval %[1]s: frequent snapshot backups and Flash backups are snapshot backups, which need cloud disks; %[2]s uses %[3]s.", Args: []Arg{{"value", "x"}, {"instance", "rm-1"}, {"storage type", "cloud_essd"}},
		Fix: "Fix: set backup_interval = -1 and category = \"Standard\", or move the instance to cloud disks (storage_type = \"cloud_essd\")."},
	{ID: RuleBackupCompressValue, Source: backupSource, Attribute: AttrCompressType, Summary: "Invalid compress_type (rule backup-compress-type-value)",
		Detail: "compress_type = %[1]q is not one of 0 (none), 1 (zlib), 2 (parallel zlib), 4 (QuickLZ, MySQL 5.6/5.7), 8 (QuickLZ, MySQL 8.0).", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set compress_type to one of \"0\", \"1\", \"2\", \"4\", \"8\"."},
	{ID: RuleBackupCompressVersion, Source: backupSource, Attribute: AttrCompressType, Summary: "Invalid compress_type (rule backup-compress-type-version)",
		Detail: "compress_type = %[1]q is not offered for %[2]s, which runs MySQL %[3]s: 4 is for MySQL 5.6 and 5.7, 8 for MySQL 8.0.", Args: []Arg{{"value", "x"}, {"instance", "rm-1"}, {"engine version", "8.0"}},
		Fix: "Fix: use \"8\" on MySQL 8.0 and \"4\" on 5.6/5.7, or \"1\" (zlib) anywhere."},
	{ID: RuleBackupArchiveRange, Source: backupSource, Attribute: AttrArchiveRetention, Summary: "Invalid archive_backup_retention_period (rule backup-archive-retention-range)",
		Detail: "archive_backup_retention_period = %[1]s days is neither 0 (archiving off) nor within 30-1095.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set 0 to turn archiving off, or 30 to 1095 days."},
	{ID: RuleBackupArchivePolicy, Source: backupSource, Attribute: AttrArchiveKeepPolicy, Summary: "Invalid archive_backup_keep_policy (rule backup-archive-keep-policy)",
		Detail: "archive_backup_keep_policy = %[1]q must be ByMonth, ByWeek or KeepAll.", Args: []Arg{{"value", "x"}}, Fix: "Fix: set one of ByMonth, ByWeek, KeepAll."},
	{ID: RuleBackupArchiveCount, Source: backupSource, Attribute: AttrArchiveKeepCount, Summary: "Invalid archive_backup_keep_count (rule backup-archive-keep-count)",
		Detail: "archive_backup_keep_count = %[1]s is outside 1-%[3]v, the range for archive_backup_keep_policy = %[2]q.", Args: []Arg{{"value", "x"}, {"keep policy", "ByMonth"}, {"largest count", int64(31)}},
		Fix: "Fix: keep 1 to %[3]v archived sets per period (ByMonth: 1-31, ByWeek: 1-7)."},
	{ID: RuleLogLocalHoursRange, Source: backupSource, Attribute: AttrLocalLogHours, Summary: "Invalid local_log_retention_hours (rule log-local-retention-hours-range)",
		Detail: "local_log_retention_hours = %[1]s is outside 0-168 (0 keeps no log backups on the instance, 168 is seven days).", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set 0 to 168 hours."},
	{ID: RuleLogLocalSpaceRange, Source: backupSource, Attribute: AttrLocalLogSpace, Summary: "Invalid local_log_retention_space (rule log-local-retention-space-range)",
		Detail: "local_log_retention_space = %[1]s%% is outside 0-50, the share of the instance's storage log backups may use.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set 0 to 50 (percent)."},
	{ID: RuleLogHighSpaceValue, Source: backupSource, Attribute: AttrHighSpaceProtection, Summary: "Invalid high_space_usage_protection (rule log-high-space-usage-protection)",
		Detail: "high_space_usage_protection = %[1]q must be Enable (delete local binlogs when storage runs short) or Disable.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set \"Enable\" or \"Disable\"."},
	{ID: RuleLogRetentionRange, Source: backupSource, Attribute: AttrLogRetention, Summary: "Invalid log_backup_retention_period (rule log-retention-range)",
		Detail: "log_backup_retention_period = %[1]s days is outside 7-730.", Args: []Arg{{"value", "x"}}, Fix: "Fix: keep log backups 7 to 730 days."},
	{ID: RuleLogRetentionAboveData, Source: backupSource, Attribute: AttrLogRetention, Summary: "Invalid log_backup_retention_period (rule log-retention-above-data)",
		Detail: "log_backup_retention_period = %[1]s days is longer than backup_retention_period = %[2]v days; RDS keeps log backups at most as long as data backups.", Args: []Arg{{"value", "x"}, {"data retention", int64(7)}},
		Fix: "Fix: lower log_backup_retention_period to at most %[2]v, or raise backup_retention_period."},
	{ID: RuleLogLocalNumberRange, Source: backupSource, Attribute: AttrLocalLogNumber, Summary: "Invalid log_backup_local_retention_number (rule log-local-retention-number-range)",
		Detail: "log_backup_local_retention_number = %[1]s is neither -1 (no limit) nor within 6-100 binlog files.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set -1 or 6 to 100."},
	{ID: RuleBackupPolicyLeftAsIs, Source: "provider: removing rds_backup_policy changes nothing in the cloud", Severity: SeverityWarning,
		Attribute: AttrInstanceID, Summary: "The backup policy of %[1]s stays as it is",
		Detail: "Destroying rds_backup_policy only stops Terraform managing the backup policy of %[1]s: RDS keeps backing up with the settings it has now.", Args: []Arg{{"instance id", "rm-1"}},
		Fix: "To change them, keep the resource and set the values you want."},
	{ID: RuleBackupMethodValue, Source: backupSource, Attribute: AttrBackupMethod, Summary: "Invalid backup_method (rule backup-method-value)",
		Detail: "backup_method = %[1]q must be Physical, Logical or Snapshot.", Args: []Arg{{"value", "x"}}, Fix: "Fix: set backup_method = \"Physical\" (the default)."},
	{ID: RuleBackupStrategyValue, Source: backupSource, Attribute: AttrBackupStrategy, Summary: "Invalid backup_strategy (rule backup-strategy-value)",
		Detail: "backup_strategy = %[1]q must be instance (the whole instance) or db (the databases in db_names).", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set backup_strategy = \"instance\" or \"db\"."},
	{ID: RuleBackupStrategyDBNames, Source: backupSource, Attribute: AttrBackupDBNames, Summary: "Invalid db_names (rule backup-strategy-db-names)",
		Detail: "backup_strategy = %[1]q: db_names must name the databases to back up when backup_strategy is db, and only then.", Args: []Arg{{"strategy", "db"}},
		Fix: "Fix: with backup_strategy = \"db\" list the databases in db_names; otherwise leave db_names out."},
	{ID: RuleBackupDBNamesLogical, Source: backupSource, Attribute: AttrBackupMethod, Summary: "Invalid backup_method (rule backup-db-names-need-logical)",
		Detail: "backup_method = %[1]q: on MySQL a backup of single databases (backup_strategy = \"db\") is a logical backup.", Args: []Arg{{"value", "x"}},
		Fix: "Fix: set backup_method = \"Logical\", or backup_strategy = \"instance\"."},
	{ID: RuleBackupLogicalNoDB, Source: backupSource, Attribute: AttrBackupMethod, Summary: "Invalid backup_method (rule backup-logical-needs-databases)",
		Detail: "backup_method = %[1]q: a logical backup exports databases, and %[2]s has none.", Args: []Arg{{"value", "x"}, {"instance", "rm-1"}},
		Fix: "Fix: create a database first (rds_database), or use backup_method = \"Physical\"."},
	{ID: RuleBackupDBNotFound, Source: backupSource, Attribute: AttrBackupDBNames, Summary: "Invalid db_names (rule backup-database-not-found)",
		Detail: "db_names names %[1]q, which %[2]s does not have.", Args: []Arg{{"database", "app"}, {"instance", "rm-1"}},
		Fix: "Fix: create the database first (and reference it, e.g. rds_database.<name>.name), or remove it from db_names."},
	{ID: RuleBackupSnapshotNoCloud, Source: backupSource, Attribute: AttrBackupMethod, Summary: "Invalid backup_method (rule backup-snapshot-method-needs-cloud-disk)",
		Detail: "backup_method = %[1]q needs cloud disks; %[2]s uses %[3]s.", Args: []Arg{{"value", "x"}, {"instance", "rm-1"}, {"storage type", "cloud_essd"}},
		Fix: "Fix: use backup_method = \"Physical\" on local disks."},
	{ID: RuleBackupInProgress, Source: backupSource, Severity: SeverityWarning, Attribute: AttrInstanceID, Summary: "A backup of %[1]s is in progress",
		Detail: "RDS runs one backup of an instance at a time, and %[1]s is making one now (job %[2]s).", Args: []Arg{{"instance", "rm-1"}, {"job id", "job-1"}},
		Fix: "The apply waits for it to finish, within the timeout, before it starts this backup."},
	{ID: RuleBackupDailyLimit, Source: backupSource, Attribute: AttrInstanceID, Summary: "%[1]s has made %[2]v backup sets today",
		Detail: "RDS makes at most %[3]v backup sets of an instance a day (UTC), and %[1]s has made %[2]v today.", Args: []Arg{{"instance", "rm-1"}, {"sets today", 20}, {"limit", 20}},
		Fix: "Fix: apply after midnight UTC, or remove a backup you do not need from the configuration."},
	{ID: RuleBackupInstanceNotReady, Source: backupSource, Severity: SeverityWarning, Attribute: AttrInstanceID, Summary: "%[1]s is %[2]s, not Running",
		Detail: "CreateBackup needs a Running instance; %[1]s is %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"status", "Stopped"}},
		Fix: "The apply waits until it is Running again (a Stopped instance must be started first)."},
	{ID: RuleBackupTimeFilter, Source: backupSource, Attribute: "start_time", Summary: "Invalid %[2]s (rule backup-time-filter)",
		Detail: "%[2]s = %[1]q is not a UTC time in the form yyyy-MM-ddTHH:mmZ, the form DescribeBackups filters by.", Args: []Arg{{"value", "x"}, {"attribute", "start_time"}},
		Fix: "Fix: write e.g. \"2026-03-01T00:00Z\" (or use formatdate(\"YYYY-MM-DD'T'hh:mm'Z'\", timeadd(timestamp(), \"-24h\")))."},
	{ID: RuleBackupKeptOnDestroy, Source: backupSource, Severity: SeverityWarning, Attribute: "backup_id", Summary: "RDS keeps backup set %[1]s",
		Detail: "Destroying this rds_backup removes it from the state, but RDS cannot delete backup set %[1]s of %[2]s now: %[3]s It expires with the data backup retention (%[4]v days).",
		Args:   []Arg{{"backup id", "b-1"}, {"instance", "rm-1"}, {"reason", "the set is in use."}, {"retention days", int64(7)}},
		Fix:    "Nothing to do: the set stays restorable until it expires."},
	{ID: RuleReleasedKeepValue, Source: backupSource, Attribute: AttrReleasedKeepPolicy, Summary: "Invalid released_keep_policy (rule released-keep-policy-value)",
		Detail: "released_keep_policy = %[1]q must be %[2]s.", Args: []Arg{{"value", "x"}, {"allowed", "None (no backup set survives the release), Lastest (the latest set; the API's spelling) or All"}},
		Fix: "Fix: set it to one of those values, or leave it out to keep the instance's backup policy."},
	{ID: RuleReleasedKeepForced, Source: backupSource, Attribute: AttrReleasedKeepPolicy, Summary: "Invalid released_keep_policy (rule released-keep-policy-forced)",
		Detail: "released_keep_policy = %[1]q: an instance on cloud disks (%[2]s) created on or after 2024-02-01 (this one: %[3]s) always keeps its latest backup set when released; Alibaba sets Lastest.",
		Args:   []Arg{{"value", "x"}, {"storage type", "cloud_essd"}, {"creation date", "2024-03-01"}}, Fix: "Fix: set released_keep_policy = \"Lastest\" or leave it out."},
	{ID: RuleReleasedKeepOnDestroy, Source: backupSource, Severity: SeverityWarning, Attribute: "id", Summary: "Releasing %[1]s keeps %[2]s",
		Detail: "Destroying %[1]s releases it; RDS keeps %[2]s: data \"rds_backups\" { instance_id = \"%[1]s\" } lists it after the release " +
			"(DescribeDetachedBackups, released = true), and the console restores it (Backups > Backups of released instances); restore_from cannot " +
			"name a released source.", Args: []Arg{{"instance", "rm-1"}, {"what is kept", "its latest backup set"}},
		Fix: "To keep other sets, change released_keep_policy (None, Lastest or All) and apply before destroying."},
	// ---- This plan deletes data (issue 46 §3; data_loss.go): each loss named, prevent_data_loss refuses it ----
	{ID: RuleDataLossBackupSet, Source: "provider: the plan names every data loss; cloud fact: DeleteBackup deletes the set for good (internal/simulator/README.md, Backups)",
		Severity: SeverityWarning, Attribute: "backup_id", Summary: "This apply deletes backup set %[1]s of %[2]s",
		Detail: "DeleteBackup deletes backup set %[1]s of %[2]s (made %[3]s) for good: no restore (restore_from.backup_id = %[1]q) can use it afterwards.",
		Args:   []Arg{{"backup id", "b-1"}, {"instance", "rm-1"}, {"start", "2026-03-01T02:00Z"}},
		Fix:    "Set prevent_data_loss = true to refuse such plans."},
	{ID: RuleDataLossDatabase, Source: "provider: the plan names every data loss; cloud fact: DeleteDatabase drops the database with its tables (internal/simulator/README.md, Accounts and databases)",
		Severity: SeverityWarning, Attribute: "name", Summary: "This apply drops database %[1]s of %[2]s with its data",
		Detail: "DeleteDatabase drops database %[1]q of %[2]s and every table in it; only a backup made before can bring the data back.",
		Args:   []Arg{{"database", "orders"}, {"instance", "rm-1"}},
		Fix:    "Set prevent_data_loss = true to refuse such plans."},
	{ID: RuleDataLossRetention, Source: "provider: the plan names every data loss; cloud fact: RDS deletes the data backups older than a shortened BackupRetentionPeriod (internal/simulator/README.md, Backups)",
		Severity: SeverityWarning, Attribute: AttrBackupRetention, Summary: "Shortening backup_retention_period deletes %[1]v backup sets of %[2]s",
		Detail: "backup_retention_period changes from %[3]v to %[4]v days: RDS deletes at once the data backups older than %[4]v days, and restores to a time before them are no longer possible:\n%[5]s",
		Args:   []Arg{{"sets", 2}, {"instance", "rm-1"}, {"current days", int64(30)}, {"desired days", int64(7)}, {"list", "  - b-1 (automated, started 2026-03-01T02:00Z)"}},
		Fix:    "Set prevent_data_loss = true to refuse such plans."},
	{ID: RuleDataLossAudit, Source: "provider: the plan names every data loss; cloud fact: a shorter DAS SQL log retention deletes the older logs, and turning it off deletes them (internal/simulator/README.md, SQL audit)",
		Severity: SeverityWarning, Attribute: AttrSQLAudit, Summary: "This apply deletes %[4]s of %[1]s",
		Detail: "sql_audit keeps logs %[2]v days now; %[3]s, for good (DAS ModifySqlLogConfig).",
		Args:   []Arg{{"instance", "rm-1"}, {"current days", int64(180)}, {"what the change does", "retention_days = 30 deletes the logs older than 30 days"}, {"what goes", "up to 150 days of SQL audit logs"}},
		Fix:    "Set prevent_data_loss = true to refuse such plans."},
	{ID: RuleMonitoringPeriod, Source: "cloud fact M1: ModifyDBInstanceMonitor Period is 5, 10, 60 or 300 seconds (internal/simulator/README.md, Monitoring period)",
		Attribute: AttrMonitoringPeriod, Summary: "Invalid monitoring_period",
		Detail: "monitoring_period = %[1]d: the cloud samples an instance's metrics every 5, 10, 60 or 300 seconds.",
		Args:   []Arg{{"value", int64(30)}}, Fix: "Set monitoring_period to 5, 10, 60 or 300."},
	{ID: RuleMonitoringBasic, Source: "cloud fact M2: a Basic-edition instance is monitored every 300 seconds only (internal/simulator/README.md, Monitoring period)",
		Attribute: AttrMonitoringPeriod, Summary: "monitoring_period is fixed at 300 seconds on a Basic-edition instance",
		Detail: "monitoring_period = %[1]d: a Basic-edition instance is monitored every 300 seconds only.",
		Args:   []Arg{{"value", int64(60)}}, Fix: "Set monitoring_period = 300, or leave it out."},
	{ID: RuleMonitoringBilled, Source: "cloud fact M3: a monitoring period of a few seconds is billed (internal/simulator/README.md, Monitoring period)",
		Severity: SeverityWarning, Attribute: AttrMonitoringPeriod, Summary: "monitoring_period = %[2]d is billed",
		Detail: "%[1]s will be monitored every %[2]d seconds: a period of a few seconds is billed by the hour, on top of the instance.",
		Args:   []Arg{{"instance", "rm-1"}, {"value", int64(5)}}, Fix: "Set monitoring_period = 60 or 300 to monitor free of charge."},
	{ID: RuleHAConfigMode, Source: "cloud fact H1: ModifyHASwitchConfig HAConfig is Auto or Manual (internal/simulator/README.md, Automatic switchover)",
		Attribute: AttrHAConfig, Summary: "Invalid ha_config.mode",
		Detail: "ha_config.mode = %[1]q: the cloud switches over automatically (Auto) or only when asked (Manual).",
		Args:   []Arg{{"value", "Off"}}, Fix: "Set ha_config.mode to \"Auto\" or \"Manual\"."},
	{ID: RuleHAConfigUntil, Source: "cloud fact H1: ManualHATime goes with HAConfig = Manual, a UTC time yyyy-MM-ddTHH:mm:ssZ (internal/simulator/README.md, Automatic switchover)",
		Attribute: AttrHAConfig, Summary: "Invalid ha_config.manual_until",
		Detail: "ha_config: %[1]s.",
		Args:   []Arg{{"what is wrong", "mode = \"Auto\" takes no manual_until"}},
		Fix:    "With mode = \"Manual\" set manual_until = \"2026-12-08T02:00:00Z\" (UTC); with mode = \"Auto\" leave it out."},
	{ID: RuleHAConfigWindow, Source: "cloud fact H1: ManualHATime is at most 23:59:59 UTC of the seventh day ahead (internal/simulator/README.md, Automatic switchover)",
		Attribute: AttrHAConfig, Summary: "ha_config.manual_until out of range",
		Detail: "ha_config.manual_until = %[1]q: automatic switchover can be turned off from now (%[2]s) until %[3]s at the latest.",
		Args:   []Arg{{"value", "2026-12-20T00:00:00Z"}, {"now", "2026-12-06T12:00:00Z"}, {"latest", "2026-12-13T23:59:59Z"}},
		Fix:    "Set manual_until between now and seven days ahead, or mode = \"Auto\"."},
	{ID: RuleHAConfigBasic, Source: "cloud fact H1: ModifyHASwitchConfig is not for the Basic edition, which has no secondary (internal/simulator/README.md, Automatic switchover)",
		Attribute: AttrHAConfig, Summary: "ha_config needs a secondary node, which a Basic-edition instance lacks",
		Detail: "ha_config.mode = %[1]q: a Basic-edition instance has no secondary node to switch over to.",
		Args:   []Arg{{"value", "Manual"}}, Fix: "Leave ha_config out, or choose the HighAvailability or cluster edition."},
	{ID: RuleHAConfigReverts, Source: "cloud fact H1: the cloud turns automatic switchover on again at ManualHATime (internal/simulator/README.md, Automatic switchover)",
		Severity: SeverityWarning, Attribute: AttrHAConfig, Summary: "Automatic switchover of %[1]s comes back at %[2]s",
		Detail: "%[1]s will not switch over to its secondary on a failure until %[2]s (UTC); then the cloud switches over automatically again. " +
			"The refresh after that time keeps this ha_config in state, so the plan stays empty.",
		Args: []Arg{{"instance", "rm-1"}, {"manual_until", "2026-12-08T02:00:00Z"}},
		Fix:  "Set a later manual_until to extend it (seven days at most), or mode = \"Auto\" to end it now."},
	{ID: RuleSyncMode, Source: "cloud fact S1: the High-availability and cluster editions replicate Semi-sync or Async; Sync is the Enterprise edition's (internal/simulator/README.md, Replication mode)",
		Attribute: AttrSyncMode, Summary: "Invalid sync_mode",
		Detail: "sync_mode = %[1]q: a High-availability or cluster instance replicates to its secondary Semi-sync or Async (Sync is the three-node Enterprise edition's).",
		Args:   []Arg{{"value", "Sync"}}, Fix: "Set sync_mode to \"Semi-sync\" or \"Async\", or leave it out."},
	{ID: RuleSyncModeBasic, Source: "cloud fact S2: a Basic-edition instance has no secondary node (internal/simulator/README.md, Replication mode)",
		Attribute: AttrSyncMode, Summary: "sync_mode needs a secondary node, which a Basic-edition instance lacks",
		Detail: "sync_mode = %[1]q: a Basic-edition instance has no secondary node to replicate to.",
		Args:   []Arg{{"value", "Async"}}, Fix: "Leave sync_mode out, or choose the HighAvailability or cluster edition."},
	{ID: RuleSyncModeChange, Source: "cloud fact S3: changing the replication mode names no switchover (assumption) and Async can lose transactions on a failover (internal/simulator/README.md, Replication mode)",
		Severity: SeverityWarning, Attribute: AttrSyncMode, Summary: "The replication mode of %[1]s changes",
		Detail: "%[1]s replicates %[2]s now and %[3]s after this apply (ModifyDBInstanceHAConfig, HAMode unchanged); no switchover nor restart " +
			"is documented for the change. With Async a failover can lose the transactions the secondary had not received.",
		Args: []Arg{{"instance", "rm-1"}, {"current", "Semi-sync"}, {"planned", "Async"}},
		Fix:  "Keep sync_mode = \"Semi-sync\" where no committed transaction may be lost on a failover."},
	{ID: RuleSQLAuditRetention, Source: "cloud fact: ModifySqlLogConfig Retention is 7, 30, 180 or 365 days (internal/simulator/README.md, SQL audit)", Attribute: AttrSQLAudit,
		Summary: "Invalid sql_audit.retention_days (rule sql-audit-retention)", Detail: "retention_days = %[1]v is not a retention DAS offers: 7, 30, 180 or 365 days.",
		Args: []Arg{{"value", int64(60)}}, Fix: "Fix: set retention_days to 7, 30, 180 or 365."},
	{ID: RuleSQLAuditHot, Source: "cloud fact: ModifySqlLogConfig HotRetention is 1-7 days (internal/simulator/README.md, SQL audit)", Attribute: AttrSQLAudit,
		Summary: "Invalid sql_audit.hot_retention_days (rule sql-audit-hot-retention)", Detail: "hot_retention_days = %[1]v must be 1 to 7 days, and at most retention_days (%[2]v).",
		Args: []Arg{{"value", int64(9)}, {"retention days", int64(30)}}, Fix: "Fix: set hot_retention_days to 1-7 days (7 keeps a week of logs fast to search)."},
	{ID: RuleEndpointPrefix, Source: "cloud fact: AllocateInstancePublicConnection and ModifyDBProxyEndpointAddress take a prefix of 5-40 characters, ModifyDBInstanceConnectionString one of 8-64, none with ~!#%^&*=+|{};:'\",<>/? (internal/simulator/README.md, Endpoints)",
		Attribute: AttrConnectionPrefix, Summary: "Invalid %[1]s (rule endpoint-prefix)",
		Detail: "connection string prefix %[2]q must be %[3]v to %[4]v characters (letters, digits and hyphens) for this call.",
		Args:   []Arg{{"attribute", "connection_string_prefix"}, {"value", "abc"}, {"min", 8}, {"max", 64}},
		Fix:    "Fix: choose a prefix of that length, such as \"orders-db-01\"."},
	{ID: RuleEndpointTaken, Source: "cloud fact: a prefix another instance's endpoint has is refused, DnsConflict and OtherEndpoint.Exist (internal/simulator/README.md, Endpoints)",
		Attribute: AttrConnectionPrefix, Summary: "%[1]s %[2]q is taken", Detail: "instance %[3]s already answers at the connection string with prefix %[2]q (RDS refuses it: DnsConflict).",
		Args: []Arg{{"attribute", "connection_string_prefix"}, {"value", "orders-db-01"}, {"instance", "rm-2"}}, Fix: "Fix: choose another prefix."},
	{ID: RuleEndpointPort, Source: "cloud fact: AllocateInstancePublicConnection and ModifyDBInstanceConnectionString take ports 1000-5999, and ModifyDBProxyEndpointAddress (assumption; internal/simulator/README.md, Endpoints, Database proxy)",
		Attribute: AttrPort, Summary: "Invalid %[1]s port (rule endpoint-port)", Detail: "port %[2]v is outside 1000-5999, the ports RDS serves an endpoint on.",
		Args: []Arg{{"attribute", "port"}, {"value", int64(80)}}, Fix: "Fix: choose a port from 1000 to 5999 (3306 is MySQL's own)."},
	{ID: RuleEndpointLastOne, Source: "cloud fact: ReleaseInstancePublicConnection refuses the last endpoint, AtLeastOneNetTypeExists (internal/simulator/README.md, Endpoints)",
		Attribute: AttrPublicEndpoint, Summary: "public_endpoint cannot be removed from %[1]s",
		Detail: "%[2]s is the only endpoint of %[1]s: RDS keeps at least one (AtLeastOneNetTypeExists).",
		Args:   []Arg{{"instance", "rm-1"}, {"address", "rm-1o.mysql.rds.aliyuncs.com:3306"}},
		Fix:    "Keep public_endpoint, or give the instance an internal endpoint first."},
	{ID: RuleEndpointReadWriteSplitting, Source: "cloud fact: DescribeDBInstanceNetInfo lists the read/write-splitting endpoint with ConnectionStringType ReadWriteSplitting; only ModifyReadWriteSplittingConnection changes it (internal/simulator/README.md, Endpoints, EP6)",
		Attribute: AttrConnectionPrefix, Summary: "%[1]s %[2]q names the read/write-splitting endpoint",
		Detail: "%[3]s is the read/write-splitting endpoint of %[4]s: %[1]s changes the instance's own endpoint, and RDS refuses a prefix that endpoint has (DnsConflict).",
		Args:   []Arg{{"attribute", "connection_string_prefix"}, {"value", "orders-rw"}, {"address", "orders-rw.mysql.rds.aliyuncs.com:3306"}, {"instance", "rm-1"}},
		Fix:    "Fix: choose another prefix; the read/write-splitting endpoint changes with ModifyReadWriteSplittingConnection, outside this provider."},
	{ID: RuleEndpointStops, Source: "provider: the plan names every connection string that stops answering (issue 42 §1; a proxy endpoint's, issue 44 §1)",
		Severity: SeverityWarning, Attribute: AttrConnectionPrefix, Summary: "%[1]s of %[3]s stops answering",
		Detail: "After this apply (%[4]s) clients of %[3]s reach it at %[2]s; %[1]s no longer answers, and applications that still use it fail.",
		Args:   []Arg{{"old address", "rm-1.mysql.rds.aliyuncs.com:3306"}, {"new address", "orders.mysql.rds.aliyuncs.com:3307"}, {"instance", "rm-1"}, {"cause", "ModifyDBInstanceConnectionString"}},
		Fix:    "Point the clients at the new address; set prevent_endpoint_change = true to refuse such plans."},
	{ID: RuleEndpointChangeRefused, Source: "provider: prevent_endpoint_change refuses every plan that stops a connection string answering (issue 42 §1; a proxy endpoint's, issue 44 §1)",
		Attribute: AttrPreventEndpointChange, Summary: "prevent_endpoint_change refuses this plan: %[1]s of %[3]s stops answering",
		Detail: "This apply (%[4]s) moves the clients of %[3]s to %[2]s.",
		Args:   []Arg{{"old address", "rm-1.mysql.rds.aliyuncs.com:3306"}, {"new address", "orders.mysql.rds.aliyuncs.com:3307"}, {"instance", "rm-1"}, {"cause", "ModifyDBInstanceConnectionString"}},
		Fix:    "Undo the change, or set prevent_endpoint_change = false to allow it."},
	{ID: RuleDataLossCrossRegion, Source: "provider: the plan names every data loss; cloud fact: copies are kept Retention days, and a shorter Retention deletes the older copies (assumption CR1; internal/simulator/README.md, Cross-region backups)",
		Severity: SeverityWarning, Attribute: AttrCrossRegion, Summary: "Shortening cross_region.retention_days deletes %[1]v cross-region backups of %[2]s",
		Detail: "cross_region.retention_days changes from %[4]v to %[5]v days: RDS deletes at once the copies in %[3]s older than %[5]v days, the only copies of the data outside the instance's region:\n%[6]s",
		Args:   []Arg{{"copies", 2}, {"instance", "rm-1"}, {"region", "cn-shanghai"}, {"current days", int64(30)}, {"desired days", int64(7)}, {"list", "  - 14563 (in cn-shanghai, started 2026-03-01T02:00:00Z)"}},
		Fix:    "Set prevent_data_loss = true to refuse such plans."},
	{ID: RuleDataLossCrossRelease, Source: "provider: the plan names every data loss; cloud fact: a released cloud-disk instance keeps no cross-region backup (internal/simulator/README.md, Cross-region backups)",
		Severity: SeverityWarning, Attribute: "id", Summary: "Releasing %[2]s deletes its %[1]v cross-region backups",
		Detail: "%[2]s is on cloud disks: when it is released, RDS deletes every cross-region backup of it for good, whatever released_keep_policy says (%[3]s; it keeps only backup sets in the instance's own region, listed by data \"rds_backups\" with released = true):\n%[4]s",
		Args:   []Arg{{"copies", 1}, {"instance", "rm-1"}, {"released_keep_policy", "Lastest"}, {"list", "  - 14563 (in cn-shanghai, started 2026-03-01T02:00:00Z)"}},
		Fix:    "Restore a copy in the destination region before destroying (restore it to a new instance there), or set prevent_data_loss = true to refuse such plans."},
	{ID: RuleCrossRegionTimeFilter, Source: "cloud fact: DescribeCrossRegionBackups takes StartTime and EndTime as yyyy-MM-ddTHH:mm:ssZ in UTC (internal/simulator/README.md, Cross-region backups)", Attribute: "start_time",
		Summary: "Invalid %[2]s (rule cross-region-time-filter)", Detail: "%[2]s = %[1]q is not a UTC time in the form yyyy-MM-ddTHH:mm:ssZ, or end_time is before start_time; DescribeCrossRegionBackups filters by that range.",
		Args: []Arg{{"value", "x"}, {"attribute", "start_time"}}, Fix: "Fix: write e.g. \"2026-03-01T00:00:00Z\" (or formatdate(\"YYYY-MM-DD'T'hh:mm:ss'Z'\", timeadd(timestamp(), \"-720h\"))), with start_time before end_time."},
	{ID: RuleCrossRegionRetention, Source: "cloud fact: ModifyInstanceCrossBackupPolicy Retention is 7-1825 days (internal/simulator/README.md, Cross-region backups)", Attribute: AttrCrossRegion,
		Summary: "Invalid cross_region.retention_days (rule cross-region-retention)", Detail: "retention_days = %[1]v is outside 7-1825 days, the retention RDS offers for cross-region backups.",
		Args: []Arg{{"value", int64(3)}}, Fix: "Fix: set retention_days to 7-1825."},
	{ID: RuleCrossRegionDestination, Source: "cloud fact: the destinations a source region offers are DescribeAvailableCrossRegion's (internal/simulator/README.md, Cross-region backups)", Attribute: AttrCrossRegion,
		Summary: "Invalid cross_region.region (rule cross-region-destination)", Detail: "region = %[1]q: RDS does not copy backups from %[2]s there (DescribeAvailableCrossRegion offers: %[3]s).",
		Args: []Arg{{"value", "cn-hangzhou"}, {"source region", "cn-hangzhou"}, {"offered", "cn-qingdao, cn-shanghai"}}, Fix: "Fix: set region to one of the regions offered."},
	{ID: RuleDataLossRefused, Source: "provider: prevent_data_loss refuses every plan that deletes data (issue 46 §3)", Attribute: AttrPreventDataLoss,
		Summary: "prevent_data_loss refuses this plan: %[1]s", Detail: "%[2]s",
		Args: []Arg{{"loss", "this apply deletes backup set b-1 of rm-1"}, {"what goes", "DeleteBackup deletes backup set b-1 of rm-1 for good."}},
		Fix:  "Nothing was sent. Change the configuration so that the data stays, or set prevent_data_loss = false and apply that first to allow the loss."},
	// ---- Provider-defined actions (issue 28) ----
	{ID: RuleActionSwitchover, Source: switchoverSource, Severity: SeverityWarning, Attribute: AttrInstanceID,
		Summary: "This apply switches %[1]s over to its secondary node",
		Detail:  "rds_switchover makes node %[2]s (zone %[3]s) the primary of %[1]s now (SwitchDBInstanceHA); connections drop during the switch: %[4]s.",
		Args:    []Arg{{"instance", "rm-1"}, {"node", "349054"}, {"zone", "cn-hangzhou-i"}, {"downtime", ExpectedDowntimeHA}},
		Fix:     "Set prevent_restart = true to refuse such plans."},
	{ID: RuleActionSwitchoverRefused, Source: "provider: prevent_restart", Attribute: AttrPreventRestart,
		Summary: "prevent_restart refuses this plan: it switches %[1]s over",
		Detail:  "rds_switchover would make node %[2]s the primary of %[1]s, which drops its connections.", Args: []Arg{{"instance", "rm-1"}, {"node", "349054"}},
		Fix: "prevent_restart = true refuses any plan that takes the instance out of service. Leave the action out of this run, or set prevent_restart = false to allow the switchover."},
	{ID: RuleActionNoSecondary, Source: switchoverSource, Attribute: AttrInstanceID,
		Summary: "%[1]s has no secondary node to switch over to",
		Detail:  "rds_switchover needs a High-availability or cluster primary instance; %[1]s is %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"what", "a Basic-edition instance"}},
		Fix: "Use rds_restart to restart it instead."},
	{ID: RuleActionInstanceUnknown, Source: "provider: the plan names every restart, also a possible one (issue 39)", Severity: SeverityWarning, Attribute: AttrInstanceID,
		Summary: "%[1]s may take an instance known only at apply out of service",
		Detail: "instance_id is known only at apply (its instance is created or replaced in this run), so this plan cannot read the instance: " +
			"%[1]s %[2]s; expected downtime %[3]s. Its checks run again at apply with the instance as it is then, before anything is sent.",
		Args: []Arg{{"action", "rds_restart"}, {"what it does", "restarts it (RestartDBInstance)"}, {"downtime", ExpectedDowntimeHA}},
		Fix:  "Set prevent_restart = true (e.g. to rds_instance.main.prevent_restart) to refuse such plans."},
	{ID: RuleActionInstanceUnknownRefused, Source: "provider: prevent_restart refuses a possible restart as it refuses a certain one (issue 39)", Attribute: AttrPreventRestart,
		Summary: "prevent_restart refuses %[1]s on an instance known only at apply",
		Detail: "instance_id is known only at apply (its instance is created or replaced in this run), and %[1]s %[2]s. With prevent_restart = true " +
			"the action would be refused only then, after the instance and the other resources of this run have changed.",
		Args: []Arg{{"action", "rds_restart"}, {"what it does", "restarts it (RestartDBInstance)"}},
		Fix:  "Leave the action out of this run (trigger it in a later run, or run it with terraform apply -invoke once the instance exists), or set prevent_restart = false to allow it."},
	{ID: RuleActionNothingPending, Source: "provider: scheduled_change (DescribeHistoryTasks, simulator README, Maintenance windows)", Severity: SeverityWarning, Attribute: AttrInstanceID,
		Summary: "Nothing waits for the maintenance window of %[1]s",
		Detail:  "rds_apply_pending applies now the change waiting for the window (a task of the cloud, listed in scheduled_change), and %[1]s has none: the action will do nothing. Parameters set without a restart (inside or outside Terraform, parameters_pending) wait for any restart, not for the window.", Args: []Arg{{"instance", "rm-1"}},
		Fix: "Nothing to do for the window; to put parameters that wait for a restart into effect now, invoke rds_restart (its plan names them)."},
	{ID: RuleActionPendingNotRunnable, Source: "provider: rds_apply_pending runs a waiting spec change or parameter restart; cloud fact: ModifyDBInstanceMaintainTime moves waiting tasks to the new window (simulator README, Maintenance windows)",
		Attribute: AttrInstanceID, Summary: "rds_apply_pending cannot run what waits for the maintenance window of %[1]s",
		Detail: "The change waiting for the window is task %[3]s (%[2]s), a task of its own that a restart does not run; the action would restart %[1]s and leave it waiting.",
		Args:   []Arg{{"instance", "rm-1"}, {"task type", "MigrateToOtherZone"}, {"task", "10000001"}},
		Fix:    "To run it now, set maintenance_window of %[1]s to a window open now: the task moves with the window and the cloud starts it (the plan names its restart)."},
	// ---- SSL and TDE (issue 26; checks in security_rules.go) ----
	{ID: RuleSSLEdition, Source: securitySource, Attribute: AttrSSLEnabled, Summary: "Invalid ssl_enabled (rule ssl-edition)",
		Detail: "ssl_enabled = true: RDS offers SSL on MySQL 5.6 High-availability and on MySQL 5.7 and 8.0 (Basic, High-availability, Cluster); this instance runs MySQL %[1]s on the %[2]s edition.",
		Args:   []Arg{{"engine version", "5.6"}, {"category", "Basic"}}, Fix: "Fix: remove ssl_enabled, or use MySQL 5.7 or 8.0 (or the High-availability edition on 5.6)."},
	{ID: RuleSSLNotDeferred, Source: securitySource, Severity: SeverityWarning, Attribute: AttrSSLEnabled, Summary: "The SSL change of %[1]s cannot wait for the maintenance window",
		Detail: "apply_restarts = \"in_maintenance_window\", but ModifyDBInstanceSSL has no EffectiveTime: RDS changes SSL, and restarts %[1]s, as soon as the apply sends it.", Args: []Arg{{"instance", "rm-1"}},
		Fix: "To restart in the window, apply this change during the window (or leave ssl_enabled as it is until then)."},
	{ID: RuleTDEOneWay, Source: securitySource, Attribute: AttrTDEEnabled, Summary: "Invalid tde_enabled (rule tde-one-way)",
		Detail: "tde_enabled = false: %[1]s has TDE on, and Alibaba documents that TDE on RDS for MySQL \"cannot be disabled\" once enabled.", Args: []Arg{{"instance", "rm-1"}},
		Fix: "Fix: set tde_enabled = true (or remove it to stop managing it); to have an instance without TDE, create a new one and move the data."},
	{ID: RuleTDEEdition, Source: securitySource, Attribute: AttrTDEEnabled, Summary: "Invalid tde_enabled (rule tde-edition)",
		Detail: "tde_enabled = true needs the High-availability or Cluster edition; this instance is %[1]s.", Args: []Arg{{"category", "Basic"}},
		Fix: "Fix: remove tde_enabled, or change category to \"HighAvailability\" first (in place for a MySQL Basic-edition instance, a new instance otherwise), then set tde_enabled in a later apply."},
	{ID: RuleTDEVersion, Source: securitySource, Attribute: AttrTDEEnabled, Summary: "Invalid tde_enabled (rule tde-engine-version)",
		Detail: "tde_enabled = true needs MySQL 5.6 (minor version 20191015 or later), 5.7 or 8.0; this instance runs MySQL %[1]s.", Args: []Arg{{"engine version", "8.4"}},
		Fix: "Fix: remove tde_enabled, or use engine_version 5.7 or 8.0."},
	{ID: RuleTDENotDeferred, Source: securitySource, Severity: SeverityWarning, Attribute: AttrTDEEnabled, Summary: "Turning on TDE on %[1]s cannot wait for the maintenance window",
		Detail: "apply_restarts = \"in_maintenance_window\", but ModifyDBInstanceTDE has no EffectiveTime: RDS turns TDE on, and restarts %[1]s, as soon as the apply sends it.", Args: []Arg{{"instance", "rm-1"}},
		Fix: "To restart in the window, apply this change during the window."},
	{ID: RuleTDEKeyFixed, Source: securitySource, Attribute: AttrTDEKey, Summary: "Invalid tde_encryption_key (rule tde-key-fixed)",
		Detail: "TDE of %[1]s is on with tde_encryption_key = %[2]q and tde_role_arn = %[4]q; the configuration asks for %[3]q and %[5]q. The key is chosen when TDE is turned on, and the provider does not change it afterwards.",
		Args:   []Arg{{"instance", "rm-1"}, {"key now", "key-1"}, {"key wanted", "key-2"}, {"role now", "acs:ram::1:role/a"}, {"role wanted", "acs:ram::1:role/b"}},
		Fix:    "Fix: keep the key and role TDE was turned on with (rotate the key in KMS instead)."},
	{ID: RuleTDEKeyAlone, Source: "provider: a TDE key is only sent when TDE is turned on", Attribute: AttrTDEKey, Summary: "Invalid %[1]s (rule tde-key-without-tde)",
		Detail: "%[1]s is set, but tde_enabled is not true: the key and role are sent only with ModifyDBInstanceTDE when TDE is turned on, so this value would do nothing.", Args: []Arg{{"attribute", "tde_encryption_key"}},
		Fix: "Fix: set tde_enabled = true, or remove %[1]s."},
	// ---- major version upgrades in place (issue 25) ----
	{ID: RuleUpgradePath, Source: upgradeSource, Attribute: AttrEngineVersion, Summary: "RDS cannot upgrade %[1]s from MySQL %[2]s to %[3]s in one step",
		Detail: "RDS upgrades the major version one step at a time (5.5 -> 5.6 -> 5.7 -> 8.0 -> 8.4); %[1]s runs MySQL %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"from", "5.6"}, {"to", "8.0"}, {"next", "5.7"}},
		Fix: "Set engine_version = %[4]q and apply, then continue to %[3]q in a later apply."},
	{ID: RuleUpgradeEdition, Source: upgradeSource, Attribute: AttrEngineVersion, Summary: "RDS cannot upgrade %[1]s in place: %[2]s edition on %[3]s",
		Detail: "RDS upgrades the major version in place for the High-availability edition on local SSD and for the Basic, High-availability and Cluster editions on ESSD (cloud_essd, cloud_essd2, cloud_essd3, general_essd); %[1]s is %[2]s on %[3]s.",
		Args:   []Arg{{"instance", "rm-1"}, {"category", "HighAvailability"}, {"storage type", "cloud_ssd"}},
		Fix:    "Move it to ESSD first (storage_type = \"cloud_essd\", one restart) and upgrade in a later apply, or create an instance of the new version and migrate the data (DTS)."},
	{ID: RuleUpgradeReadOnlyFirst, Source: upgradeSource, Attribute: AttrEngineVersion, Summary: "Upgrade the read-only instances of %[1]s first",
		Detail: "RDS upgrades read-only instances before their primary, and they must be Running; these are not on MySQL %[3]s yet: %[2]s.",
		Args:   []Arg{{"instance", "rm-1"}, {"read-only instances", "rr-1 (MySQL 5.7)"}, {"version", "8.0"}, {"running version", "5.7"}},
		Fix: "In two applies: first keep engine_version = %[4]q on %[1]s, set engine_version = %[3]q on those rds_readonly_instance resources " +
			"and apply (only they are upgraded); then set engine_version = %[3]q on %[1]s and apply. (terraform apply -target=rds_readonly_instance.NAME " +
			"does not help: it plans the primary too, because the read-only instance refers to it.)"},
	{ID: RuleUpgradeReadOnlyNotKnown, Source: upgradeSource, Attribute: AttrEngineVersion, Summary: "Cannot check the read-only instances of %[1]s",
		Detail: "RDS upgrades read-only instances before their primary, and listing them failed: %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"error", "Throttling"}},
		Fix: "Plan again when the cloud answers."},
	{ID: RuleUpgradeAlone, Source: upgradeSource, Attribute: AttrEngineVersion, Summary: "Upgrade the major version of %[1]s in an apply of its own",
		Detail: "UpgradeDBInstanceEngineVersion carries no other change, and this plan also changes %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"other changes", "instance_type"}},
		Fix: "Apply the upgrade first, then the other changes (or the other way round)."},
	{ID: RuleUpgrade16KAvailable, Source: upgradeSource + "; 16K rules 1, 2 and 4", Severity: SeverityWarning, Attribute: AttrAtomicWrite,
		Summary: "After the upgrade %[1]s can have 16K atomic write",
		Detail:  "MySQL %[2]s on %[3]s meets 16K atomic write's prerequisites and the instance is eligible, so atomic_write_16k_supported becomes true; the upgrade leaves atomic_write_16k off (assumption: the cloud turns it on by itself only at creation).",
		Args:    []Arg{{"instance", "rm-1"}, {"version", "5.7"}, {"storage type", "cloud_essd"}},
		Fix:     "Set atomic_write_16k = true in a later apply (one restart) to get it."},

	// ---- zone moves in place (issue 25 §3) ----
	{ID: RuleZoneMoveEdition, Source: zoneSource, Attribute: AttrZoneID, Summary: "RDS cannot move %[1]s to another zone in place",
		Detail: "MigrateToOtherZone moves MySQL instances of the High-availability and Basic editions; %[1]s is %[2]s %[3]s.", Args: []Arg{{"instance", "rm-1"}, {"engine", "MySQL"}, {"category", "cluster"}},
		Fix: "Keep zone_id, or create an instance in the new zone and migrate the data (DTS)."},
	{ID: RuleZoneMoveBasicSecondary, Source: zoneSource, Attribute: AttrZoneIDSlaveA, Summary: "%[1]s has no secondary node",
		Detail: "The Basic edition runs one node, so it has no secondary zone (MigrateToOtherZone refuses ZoneIdSlave1 and ZoneIdSlave2 for it).", Args: []Arg{{"instance", "rm-1"}},
		Fix: "Remove zone_id_slave_a and zone_id_slave_b, or change category to HighAvailability first."},
	{ID: RuleZoneMoveThirdZone, Source: zoneSource, Attribute: AttrZoneIDSlaveB, Summary: "%[1]s has no third node",
		Detail: "zone_id_slave_b is the zone of a third node, which only three-node editions have; %[1]s is %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"category", "HighAvailability"}},
		Fix: "Remove zone_id_slave_b."},
	{ID: RuleZoneUnknown, Source: zoneSource + "; DescribeRegions lists the zones of each region", Attribute: AttrZoneID,
		Summary: "%[2]q is not a zone of this region",
		Detail:  "%[1]s = %[2]q: the region's zones (DescribeRegions) are %[4]s, and moving %[3]s to another zone would be refused with InvalidZoneId.NotFound.",
		Args:    []Arg{{"attribute", "zone_id"}, {"zone", "cn-hangzhou-z"}, {"instance", "rm-1"}, {"zones", "cn-hangzhou-i, cn-hangzhou-j"}},
		Fix:     "Set %[1]s to one of %[4]s."},
	{ID: RuleZoneMoveVSwitch, Source: zoneSource + "; a vSwitch belongs to one zone (VPC documentation)", Attribute: AttrVSwitchID,
		Summary: "Moving %[1]s to %[4]s needs a vSwitch in %[4]s",
		Detail:  "vswitch_id %[2]q is a vSwitch of zone %[3]s, and an instance moved to another zone needs a vSwitch of its VPC %[5]s in the new zone.",
		Args:    []Arg{{"instance", "rm-1"}, {"vswitch", "vsw-1"}, {"from zone", "cn-hangzhou-i"}, {"to zone", "cn-hangzhou-j"}, {"vpc", "vpc-1"}},
		Fix:     "Set vswitch_id to a vSwitch of %[5]s in zone %[4]s (create one in the VPC console or with alicloud_vswitch if there is none)."},
	{ID: RuleZoneMoveMinorVersion, Source: zoneSource, Attribute: AttrZoneID, Summary: "RDS cannot move %[1]s to another zone on minor version %[2]s",
		Detail: "An instance on cloud disks (%[3]s) moves to another zone only on minor version " + MinZoneMoveKernel + " or later; %[1]s runs %[2]s.",
		Args:   []Arg{{"instance", "rm-1"}, {"minor version", "rds_20200630"}, {"storage type", "cloud_essd"}},
		Fix:    "Upgrade the minor version first (UpgradeDBInstanceKernelVersion, or target_minor_version), then move it in a later apply."},
	{ID: RuleZoneMoveReadOnlyRunning, Source: zoneSource, Attribute: AttrZoneID, Summary: "The read-only instances of %[1]s must be Running to move it",
		Detail: "RDS moves an instance to another zone only while its read-only instances are Running (OperationDenied.MasterDBInstanceState); these are not: %[2]s.",
		Args:   []Arg{{"instance", "rm-1"}, {"read-only instances", "rr-1 (Stopped)"}},
		Fix:    "Wait until they are Running (start or repair them), then plan again."},
	{ID: RuleZoneMoveNotKnown, Source: zoneSource, Attribute: AttrZoneID, Summary: "Cannot check whether RDS can move %[1]s",
		Detail: "Moving an instance to another zone depends on its minor version and its read-only instances, and reading them failed: %[2]s.", Args: []Arg{{"instance", "rm-1"}, {"error", "Throttling"}},
		Fix: "Plan again when the cloud answers."},
	{ID: RuleZoneMoveAlone, Source: zoneSource, Attribute: AttrZoneID, Summary: "Move %[1]s to another zone in an apply of its own",
		Detail: "The zone move is one MigrateToOtherZone order with one switchover, and this plan also changes %[2]s (the provider does not send a spec change with the move).",
		Args:   []Arg{{"instance", "rm-1"}, {"other changes", "instance_type"}},
		Fix:    "Apply the zone move first, then the other changes (or the other way round)."},
	{ID: RuleZoneMoveBPEUnchecked, Source: zoneSource + "; the zones that support I/O acceleration are a list in Alibaba's docs, not an API answer",
		Severity: SeverityWarning, Attribute: AttrZoneID, Summary: "Cannot check at plan that %[2]s supports Buffer Pool Extension",
		Detail: "%[1]s has Buffer Pool Extension on, and RDS moves such an instance only to a zone that supports I/O acceleration. " +
			"No API lists those zones, so the plan cannot check %[2]s; if it does not support them, MigrateToOtherZone is refused at apply and nothing changes.",
		Args: []Arg{{"instance", "rm-1"}, {"zone", "cn-hangzhou-k"}},
		Fix:  "Check %[2]s in Alibaba's list of zones that support I/O acceleration, or set buffer_pool_extension = false in an apply before the move."},
	{ID: RuleZoneMoveReadOnlyWindow, Source: zoneSource + "; assumption: the window runs both tasks at its start", Attribute: AttrApplyRestarts,
		Summary: "%[1]s would restart in the window its primary moves zone in",
		Detail: "This apply schedules %[2]s's move to another zone for its maintenance window and a restart of read-only instance %[1]s for the same window. " +
			"RDS moves an instance only while its read-only instances are Running (OperationDenied.MasterDBInstanceState), so the move would fail at the window.",
		Args: []Arg{{"read-only instance", "rr-1"}, {"primary", "rm-1"}},
		Fix:  "Set apply_restarts = \"immediately\" on %[1]s (its change happens now, before the move), or change it in an apply after the move."},
	{ID: RuleUpgradePending, Source: upgradeSource + "; assumption: no API call withdraws a scheduled upgrade", Attribute: AttrEngineVersion,
		Summary: "The upgrade of %[1]s to MySQL %[3]s waits for the maintenance window",
		Detail:  "%[1]s runs MySQL %[2]s and the cloud upgrades it to %[3]s in its maintenance window (scheduled_change); engine_version = %[4]q asks for another change, and no API call withdraws the scheduled upgrade.",
		Args:    []Arg{{"instance", "rm-1"}, {"running", "5.7"}, {"scheduled", "8.0"}, {"configured", "5.7"}},
		Fix:     "Keep engine_version = %[3]q until the window has passed, then change it."},
	{ID: RuleReadOnlyBehindPendingUpgrade, Source: upgradeSource + "; the primary's upgrade waits for its maintenance window (DescribeHistoryTasks)", Attribute: AttrMasterInstanceID,
		Summary: "%[1]s upgrades to MySQL %[2]s in its maintenance window: add its read-only instance after that",
		Detail:  "A new read-only instance of %[1]s runs the version its primary runs now, MySQL %[3]s, and RDS upgrades read-only instances before their primary: the upgrade to %[2]s waiting for the window would fail there, and later plans with it.",
		Args:    []Arg{{"primary", "rm-1"}, {"scheduled", "8.0"}, {"running", "5.7"}},
		Fix:     "Create the read-only instance after %[1]s's maintenance window has passed (scheduled_change of %[1]s says when); scheduled_change of %[1]s says when it starts."},
	// ---- Editions in place (issue 25 §4; edition_rules.go) ----
	{ID: RuleEditionUpgradeClass, Source: editionSource, Attribute: AttrInstanceType,
		Summary: "Upgrading %[1]s to the High-availability edition needs a High-availability class",
		Detail:  "RDS upgrades the edition when the spec change orders a class of the new edition, and instance_type %[2]q is the instance's Basic-edition class, which the High-availability edition does not offer.",
		Args:    []Arg{{"instance", "rm-1"}, {"class", "mysql.n2.medium.1"}},
		Fix:     "Set instance_type to a High-availability class in the same apply (DescribeAvailableClasses with Category=HighAvailability lists them, e.g. mysql.n2.medium.2c)."},
	{ID: RuleEditionUpgrade16K, Source: editionSource + "; 16K rule 3", Attribute: AttrAtomicWrite,
		Summary: "Turn 16K atomic write on for %[1]s after its edition upgrade",
		Detail:  "%[1]s is still a Basic-edition instance when this apply's spec change reaches the cloud, and an existing Basic-edition instance cannot turn 16K atomic write on (16K rule 3).",
		Args:    []Arg{{"instance", "rm-1"}},
		Fix:     "Apply the edition upgrade first with atomic_write_16k unchanged, then set atomic_write_16k = true in a later apply (one more restart)."},
	// ---- Minor versions (issue 25 §2; minor_version_rules.go) ----
	{ID: RuleMinorVersionFormat, Source: minorSource, Attribute: AttrTargetMinorVersion, Summary: "Invalid target_minor_version",
		Detail: "target_minor_version is rds_YYYYMMDD for MySQL on the Basic and High-availability editions; got %[1]q.", Args: []Arg{{"value", "20200229"}},
		Fix: "Use the form rds_20200229 (the versions are in Alibaba's AliSQL release notes), or remove target_minor_version."},
	{ID: RuleMinorVersionEngine, Source: minorSource, Attribute: AttrTargetMinorVersion, Summary: "target_minor_version is for MySQL",
		Detail: "The provider upgrades minor versions of MySQL instances only (rds_YYYYMMDD); this instance runs %[1]s.", Args: []Arg{{"engine", "PostgreSQL"}},
		Fix: "Remove target_minor_version."},
	{ID: RuleMinorVersionNotOffered, Source: minorSource, Attribute: AttrTargetMinorVersion, Summary: "Minor version %[1]s is not offered yet",
		Detail: "The latest minor version RDS offers for MySQL %[2]s is %[3]s (LatestKernelVersion); %[1]s is later.", Args: []Arg{{"target", "rds_20990101"}, {"engine version", "8.0"}, {"latest", "rds_20250630"}},
		Fix: "Set target_minor_version = %[3]q or an earlier release later than the running one."},
	{ID: RuleMinorVersionNotReleased, Source: minorSource + "; DescribeDBMiniEngineVersions", Attribute: AttrTargetMinorVersion,
		Summary: "Minor version %[1]s was never released",
		Detail:  "RDS lists the minor versions it releases for MySQL %[2]s (DescribeDBMiniEngineVersions), and %[1]s is not one of them: the upgrade would be refused with InvalidTargetMinorVersion.NotFound.",
		Args:    []Arg{{"target", "rds_20240101"}, {"engine version", "8.0"}, {"later releases", "rds_20230630, rds_20250630"}},
		Fix:     "Set target_minor_version to one of the released versions later than the running one: %[3]s."},
	{ID: RuleMinorVersionBehind, Source: minorSource, Severity: SeverityWarning, Attribute: AttrTargetMinorVersion,
		Summary: "%[1]s runs a later minor version than target_minor_version",
		Detail:  "The cloud upgraded %[1]s to %[2]s (auto_upgrade_minor_version = \"Auto\"); target_minor_version = %[3]q is older, and a minor version cannot be lowered, so no plan downgrades it. This warning appears once.",
		Args:    []Arg{{"instance", "rm-1"}, {"running", "rds_20250630"}, {"configured", "rds_20230630"}},
		Fix:     "Set target_minor_version = %[2]q to match, or auto_upgrade_minor_version = \"Manual\" to upgrade only when you ask."},
	{ID: RuleMinorVersionAlone, Source: minorSource, Attribute: AttrTargetMinorVersion, Summary: "Upgrade the minor version of %[1]s in an apply of its own",
		Detail: "The minor version upgrade is a task of its own, and this plan also changes %[2]s (a major version upgrade, or restart-needing changes waiting for the same maintenance window).",
		Args:   []Arg{{"instance", "rm-1"}, {"other changes", "engine_version"}}, Fix: "Apply the minor version upgrade first, then the other changes."},
	{ID: RuleMinorVersionPending, Source: minorSource + "; assumption: no API call withdraws a scheduled upgrade", Attribute: AttrTargetMinorVersion,
		Summary: "A minor version upgrade of %[1]s already waits for the maintenance window",
		Detail:  "scheduled_change holds: %[2]s; target_minor_version = %[3]q asks for another, and no API call withdraws the scheduled one.",
		Args:    []Arg{{"instance", "rm-1"}, {"scheduled", "target_minor_version changes from rds_20200229 to rds_20230630"}, {"configured", "rds_20250630"}},
		Fix:     "Keep target_minor_version as scheduled until the window has passed, then change it."},
	{ID: RuleTDEMinorVersion, Source: securitySource + "; minimum minor version of MySQL 5.6", Attribute: AttrTDEEnabled, Summary: "TDE on MySQL 5.6 needs minor version %[3]s or later",
		Detail: "%[1]s runs (or is created on) minor version %[2]s of MySQL 5.6, and RDS turns TDE on for MySQL 5.6 from %[3]s on.",
		Args:   []Arg{{"instance", "rm-1"}, {"minor version", "rds_20190815"}, {"minimum", "rds_20191015"}},
		Fix:    "Set target_minor_version = %[3]q or later with apply_restarts = \"immediately\": the apply upgrades the minor version first, then turns TDE on."},
	// ---- Destroys as programs (issue 23; destroy_program.go) ----
	{ID: RuleDestroyReleasesReadOnly, Source: "cloud fact: a released primary's read-only instances are released with it (\"Release or unsubscribe from an ApsaraDB RDS for MySQL instance\"; simulator README)",
		Severity: SeverityWarning, Attribute: "read_only_instance_ids", Summary: "Releasing %[1]s also releases its read-only instances %[2]s",
		Detail: "The cloud releases the read-only instances of a primary with it; an rds_readonly_instance of one of them finds it gone.",
		Args:   []Arg{{"instance", "rm-1"}, {"read-only instances", "rr-1, rr-2"}},
		Fix:    "To keep a read-only instance's data, back it up or replace it by a new primary before destroying %[1]s."},
}

// pendingCancelAdvice is how a change waiting for the window is cancelled, by kind
// (PendingBehaviours, column "reverted").
const pendingCancelAdvice = "To cancel a waiting spec change, 16K atomic write toggle, zone move or parameter, set the attributes it changes back to the instance's current values; " +
	"a waiting major or minor version upgrade cannot be withdrawn (keep it as scheduled until the window, or set maintenance_window to one open now to run it now). " +
	"The guide \"Changes waiting for the maintenance window\" lists what each later change does"

// billingSource cites the subscription billing rules.
const billingSource = "cloud fact: CreateDBInstance, TransformDBInstancePayType and ModifyInstanceAutoRenewalAttribute references (internal/simulator/README.md, Subscription billing)"

// switchoverSource cites the cloud's switchover.
const switchoverSource = "cloud fact: SwitchDBInstanceHA switches a primary to its secondary node, which DescribeDBInstanceHAConfig names; Basic edition has none (API reference)"

// minorSource cites the minor version rules.
const minorSource = "cloud facts: UpgradeDBInstanceKernelVersion reference and \"Update the minor engine version\" (simulator README, Minor versions)"

// upgradeSource cites the upgrade rules.
const upgradeSource = "cloud facts: UpgradeDBInstanceEngineVersion reference and \"Upgrade the major engine version\" (simulator README, Major version upgrade)"

const (
	backupSource   = "cloud fact: ModifyBackupPolicy, CreateBackup and DeleteBackup rules (internal/simulator/README.md, Backups)"
	securitySource = "cloud fact: ModifyDBInstanceSSL and ModifyDBInstanceTDE (internal/simulator/README.md, SSL and TDE)"
	moveSource     = "provider: moved blocks from the alicloud provider (guide \"Moving from the alicloud provider\")"
	accessSource   = "cloud fact: CreateAccount, CreateDatabase and GrantAccountPrivilege rules (internal/simulator/README.md, Accounts and databases)"
)

// accessArgs are the arguments every access row takes (CheckAccess passes all six).
var accessArgs = []Arg{{"value", "app_user"}, {"longest account name", 32}, {"resource kind", "accounts"},
	{"instance", "rm-1"}, {"the other object named", "dba_super"}, {"password attribute", "password_wo"}}

// Rules is the rule table by id.
var Rules = func() map[RuleID]Rule {
	m := make(map[RuleID]Rule, len(ruleTable))
	for _, r := range ruleTable {
		if _, dup := m[r.ID]; dup {
			panic("rdsservice: rule " + string(r.ID) + " listed twice")
		}
		m[r.ID] = r
	}
	return m
}()

// RuleTable returns the rows in table order (for docs and tests).
func RuleTable() []Rule { return append([]Rule(nil), ruleTable...) }

// literal escapes text for a row's fmt formats (the password's special characters hold '%').
func literal(text string) string { return strings.ReplaceAll(text, "%", "%%") }

// Raise renders row id for value. It panics on an id the table lacks, and on arguments that do
// not match the row's Args in number and type: both are mistakes in the provider's code, which
// the tests of the calling rule find, never a user's input.
func Raise(id RuleID, value string, args ...any) Problem {
	r, ok := Rules[id]
	if !ok {
		panic("rdsservice: no rule " + string(id))
	}
	if err := r.checkArgs(args); err != nil {
		panic("rdsservice: rule " + string(id) + ": " + err.Error())
	}
	return r.render(value, args...)
}

func problem(id RuleID, value string, args ...any) Problem { return Raise(id, value, args...) }

func (r Rule) checkArgs(args []any) error {
	if len(args) != len(r.Args) {
		return fmt.Errorf("%d arguments, want %d (%s)", len(args), len(r.Args), r.argNames())
	}
	for i, a := range args {
		if want, got := fmt.Sprintf("%T", r.Args[i].Example), fmt.Sprintf("%T", a); want != got {
			return fmt.Errorf("argument %d (%s) is a %s, want %s", i+1, r.Args[i].Name, got, want)
		}
	}
	return nil
}

func (r Rule) argNames() string {
	names := make([]string, len(r.Args))
	for i, a := range r.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// Examples are the row's example arguments, in order.
func (r Rule) Examples() []any {
	out := make([]any, len(r.Args))
	for i, a := range r.Args {
		out[i] = a.Example
	}
	return out
}

// format is fmt.Sprintf that lets a row use fewer arguments than its Args list (Summary, Detail
// and Fix share one list).
func format(f string, args ...any) string {
	if !strings.Contains(f, "%") {
		return f
	}
	out := fmt.Sprintf(f, args...)
	if i := strings.Index(out, "%!(EXTRA "); i >= 0 {
		out = out[:i]
	}
	return out
}

// RestartProblem renders the restart warning for restarts (may: possibly, values unknown at plan),
// or with refuse the prevent_restart error (a possible restart refused as a certain one), pointed
// at attribute.
func RestartProblem(restarts []Restart, may, refuse bool, attribute string) Problem {
	var b strings.Builder
	for i, r := range restarts {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  - %s: %s; expected downtime %s", r.InstanceID, strings.Join(r.Reasons, "; "), r.Downtime)
		if r.When != "" {
			b.WriteString("; restarts " + r.When + ", not during this apply")
		}
	}
	who := restartedInstances(restarts)
	id := RuleRestart
	switch {
	case refuse && may:
		id = RuleMayRestartRefusedUnknown
	case refuse:
		id = RuleRestartRefused
	case may:
		id = RuleMayRestart
	case allWithPrimary(restarts):
		id = RuleRestartWithPrimary
	case len(restarts) == 1 && restarts[0].Task != "" && restarts[0].When != "": // one running now (window open) is this apply's
		id, attribute = RulePendingRestart, AttrScheduledChange
	case len(restarts) > 0 && restarts[0].When != "" && !restarts[0].ByPrimary:
		id, attribute = RuleRestartDeferred, AttrApplyRestarts
	}
	p := problem(id, "", who, b.String())
	p.Attribute = attribute
	return p
}

// restartedInstances names every instance of restarts once, with its number of restarts when
// more than one, so that two instances' warnings never share a summary (Terraform folds warnings
// with equal summaries into "and N more similar warnings").
func restartedInstances(restarts []Restart) string {
	var ids []string
	count := map[string]int{}
	for _, r := range restarts {
		if count[r.InstanceID] == 0 {
			ids = append(ids, r.InstanceID)
		}
		count[r.InstanceID]++
	}
	for i, id := range ids {
		if n := count[id]; n > 1 {
			ids[i] = fmt.Sprintf("%s (%d restarts)", id, n)
		}
	}
	if len(ids) == 1 {
		return "RDS instance " + ids[0]
	}
	return "RDS instances " + strings.Join(ids, ", ")
}
