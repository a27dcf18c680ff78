package rdsservice

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// ProductLineCutoff is the purchase date from which every eligible instance supports 16K atomic
// write (rule 2). Instances bought earlier qualify only if they are YiTian (arm) and their product
// type was never changed.
var ProductLineCutoff = time.Date(2025, 5, 14, 0, 0, 0, 0, time.UTC)

// Eligible values (rule 1). Anything else, including cloud_ssd, local_ssd and MySQL 8.4, is not.
var (
	eligibleVersions     = []string{"5.7", "8.0"}
	eligibleStorageTypes = []string{"cloud_essd", "cloud_essd2", "cloud_essd3", "general_essd"}
)

// Expected downtime texts for restart warnings. They are estimates: the cloud documents a
// transient disconnection for a switchover, not a guaranteed duration.
const (
	// ExpectedDowntimeHA applies to High-availability and Cluster instances, which restart by
	// switching to the standby.
	ExpectedDowntimeHA = "about 30 to 60 seconds of unavailability per instance (HA switchover)"
	// ExpectedDowntimeSingleNode applies to Basic-edition and read-only instances, which have no
	// standby to switch to.
	ExpectedDowntimeSingleNode = "a few minutes of unavailability per instance (single node restart, no standby)"
)

// ExpectedDowntime returns the downtime text for an instance of the given category; readOnly
// instances are single nodes whatever their category says.
func ExpectedDowntime(category string, readOnly bool) string {
	if readOnly || strings.EqualFold(strings.TrimSpace(category), "Basic") {
		return ExpectedDowntimeSingleNode
	}
	return ExpectedDowntimeHA
}

// NewInstanceSpec is what decides 16K atomic write for an instance bought now.
type NewInstanceSpec struct {
	Engine        string
	EngineVersion string
	StorageType   string
	Category      string
	InstanceClass string
}

// ExistingInstance is what the rules need to know about an instance that already exists.
type ExistingInstance struct {
	ID            string
	Engine        string
	EngineVersion string
	StorageType   string
	Category      string
	InstanceClass string
	// Storage is the storage size in GB.
	Storage int64
	// Architecture is InstructionSetArch ("arm" or "x86"; from the class when the answer leaves it
	// out, and empty in a hand-built value: then derive it from the class).
	Architecture string
	// Supported is init_optimized_writes, Enabled is optimized_writes.
	Supported    bool
	Enabled      bool
	CreationTime time.Time
	// MasterID is set for a read-only instance; MasterEnabled is the primary's flag when known.
	MasterID      string
	MasterEnabled *bool
	// Status, DeletionProtection and BufferPoolExtension as the API reports them.
	Status string
	// LockMode ("Unlock" or empty when not locked) and LockReason as the API reports them.
	LockMode, LockReason string
	DeletionProtection   bool
	BufferPoolExtension  bool
	// MinorVersion is CurrentKernelVersion; LatestMinorVersion and AutoUpgradeMinorVersion as the API reports them.
	MinorVersion, LatestMinorVersion, AutoUpgradeMinorVersion string
	// ReleasedMinorVersions lists the minor versions DescribeDBMiniEngineVersions offers for the
	// major version (nil: not read).
	ReleasedMinorVersions []string
	// UpgradeWaiting is the major version a read-only instance's upgrade waiting for its
	// maintenance window goes to ("" when none waits or it was not read).
	UpgradeWaiting string
}

// SpecChange lists the new values of a planned change; "" (or 0 for Storage) means unchanged.
type SpecChange struct {
	InstanceClass string
	StorageType   string
	EngineVersion string
	Storage       int64
	// Category is the edition an edition upgrade moves to (edition_rules.go); "" when unchanged.
	Category string
}

// yitianFamily matches YiTian class families: digits followed by m (High-availability) or e
// (Cluster), e.g. n2m, x4m, n2e.
var yitianFamily = regexp.MustCompile(`^[a-z]+[0-9]+[me]$`)

// Architecture derives "arm" (YiTian) or "x86" from a class name such as mysql.n2m.medium.2c.
// InstructionSetArch is authoritative when the API returns it; this is the fallback and the only
// source at plan time for a class that is not bought yet.
func Architecture(class string) string {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(class)), ".")
	if len(parts) >= 2 && yitianFamily.MatchString(parts[1]) {
		return rdsapi.ArchitectureARM
	}
	return rdsapi.ArchitectureX86
}

// ExistingFromAttribute builds an ExistingInstance from DescribeDBInstanceAttribute: the one
// conversion of the API's instance answer (the provider's attribute values are made from it).
// The architecture is the class family's and LockMode "Unlock" when the answer leaves them out.
// MasterEnabled stays nil: it needs a second read of the primary.
func ExistingFromAttribute(attr *rdsapi.DBInstanceAttribute) (ExistingInstance, error) {
	inst := ExistingInstance{
		ID:            attr.DBInstanceID,
		Engine:        attr.Engine,
		EngineVersion: string(attr.EngineVersion),
		StorageType:   attr.DBInstanceStorageType,
		Category:      attr.Category,
		InstanceClass: attr.DBInstanceClass,
		Storage:       int64(attr.DBInstanceStorage),
		Architecture:  strings.ToLower(strings.TrimSpace(attr.InstructionSetArch)),
		MasterID:      attr.MasterInstanceID,
		Status:        attr.DBInstanceStatus,
		LockMode:      strings.TrimSpace(attr.LockMode),
		LockReason:    attr.LockReason,

		DeletionProtection:  bool(attr.DeletionProtection),
		BufferPoolExtension: SwitchOn(string(attr.IoAccelerationEnabled)),
	}
	if inst.Architecture == "" {
		inst.Architecture = Architecture(attr.DBInstanceClass)
	}
	if inst.LockMode == "" {
		inst.LockMode = LockUnlocked
	}
	if attr.OptimizedWrites != nil {
		inst.Supported = attr.OptimizedWrites.Supported
		inst.Enabled = attr.OptimizedWrites.Enabled
	}
	if attr.CreationTime != "" {
		t, err := ParseAPITime(attr.CreationTime)
		if err != nil {
			return inst, fmt.Errorf("instance %s: CreationTime: %w", attr.DBInstanceID, err)
		}
		inst.CreationTime = t
	}
	return inst, nil
}

// ParseAPITime parses the cloud's UTC timestamps (2011-05-30T12:11:04Z, with or without seconds).
func ParseAPITime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02T15:04:05Z", "2006-01-02T15:04Z", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognised time %q (want yyyy-MM-ddTHH:mm:ssZ)", s)
}

// IsMySQL reports whether engine is MySQL (any case, spaces around).
func IsMySQL(engine string) bool { return strings.EqualFold(strings.TrimSpace(engine), "MySQL") }

func contains(list []string, v string) bool {
	for _, item := range list {
		if item == v {
			return true
		}
	}
	return false
}

func versionEligible(v string) bool { return contains(eligibleVersions, strings.TrimSpace(v)) }

func storageEligible(s string) bool {
	return contains(eligibleStorageTypes, strings.ToLower(strings.TrimSpace(s)))
}

func engineProblem(engine string) Problem { return problem(Rule16KEngine, engine, engine) }

// changing describes a planned change for messages: "" when the value is the current one.
func changing(from, to string) string {
	if from == "" || from == to {
		return ""
	}
	return fmt.Sprintf(" (changing from %q)", from)
}

func versionProblem(version, from string) Problem {
	return problem(Rule16KVersion, version, version, changing(from, version))
}

func storageProblem(storage, from string) Problem {
	return problem(Rule16KStorageType, storage, storage, changing(from, storage))
}

// prerequisiteProblems checks rule 1 (engine, version, storage). The engine comes first and alone:
// versions and storage of other engines say nothing useful.
func prerequisiteProblems(engine, version, versionFrom, storage, storageFrom string) []Problem {
	if !IsMySQL(engine) {
		return []Problem{engineProblem(engine)}
	}
	var problems []Problem
	if !versionEligible(version) {
		problems = append(problems, versionProblem(version, versionFrom))
	}
	if !storageEligible(storage) {
		problems = append(problems, storageProblem(storage, storageFrom))
	}
	return problems
}

// EligibleForNew checks rules 1 and 2 for an instance bought now (on or after the cutoff, so the
// product line always qualifies; class and category do not matter at creation). An empty result
// means the instance will be eligible.
func EligibleForNew(spec NewInstanceSpec) []Problem {
	return prerequisiteProblems(spec.Engine, spec.EngineVersion, "", spec.StorageType, "")
}

// DefaultAtomicWrite is rule 4: a new instance created without an explicit choice gets 16K atomic
// write exactly when it is eligible. The provider sends this value explicitly.
func DefaultAtomicWrite(spec NewInstanceSpec) bool { return len(EligibleForNew(spec)) == 0 }

// after returns the values an instance will have once change is applied.
func after(current ExistingInstance, change SpecChange) (class, storage, version string) {
	class, storage, version = current.InstanceClass, current.StorageType, current.EngineVersion
	if change.InstanceClass != "" {
		class = change.InstanceClass
	}
	if change.StorageType != "" {
		storage = change.StorageType
	}
	if change.EngineVersion != "" {
		version = change.EngineVersion
	}
	return class, storage, version
}

func currentArchitecture(current ExistingInstance) string {
	if current.Architecture == rdsapi.ArchitectureARM || current.Architecture == rdsapi.ArchitectureX86 {
		return current.Architecture
	}
	return Architecture(current.InstanceClass)
}

// ChangesProductType reports whether change moves the instance between x86 and YiTian classes.
func ChangesProductType(current ExistingInstance, change SpecChange) bool {
	if change.InstanceClass == "" || change.InstanceClass == current.InstanceClass {
		return false
	}
	return Architecture(change.InstanceClass) != currentArchitecture(current)
}

func boughtBeforeCutoff(current ExistingInstance) bool {
	return !current.CreationTime.IsZero() && current.CreationTime.Before(ProductLineCutoff)
}

// PredictSupportedAfter predicts init_optimized_writes once change is applied: rule 1 on the new
// values, rule 9 for a product-type change of an instance bought before the cutoff, and otherwise
// the product line the cloud reports now. When the answer cannot be known from what the API shows
// (see PredictSupportedAfterKnown) it assumes the product type was never changed.
func PredictSupportedAfter(current ExistingInstance, change SpecChange) bool {
	supported, _ := PredictSupportedAfterKnown(current, change)
	return supported
}

// PredictSupportedAfterKnown is PredictSupportedAfter plus whether the prediction is certain.
// It is not when the instance fails rule 1 now (so init_optimized_writes=false says nothing about
// its product line), the change fixes rule 1, and the instance is YiTian bought before the cutoff
// (or its purchase date is unknown): whether its product type was ever changed decides, and the
// API does not show that. The provider plans atomic_write_16k_supported as unknown then.
func PredictSupportedAfterKnown(current ExistingInstance, change SpecChange) (supported, known bool) {
	_, storage, version := after(current, change)
	if len(prerequisiteProblems(current.Engine, version, "", storage, "")) > 0 {
		return false, true
	}
	if ChangesProductType(current, change) && boughtBeforeCutoff(current) {
		return false, true
	}
	if len(prerequisiteProblems(current.Engine, current.EngineVersion, "", current.StorageType, "")) == 0 {
		return current.Supported, true
	}
	switch {
	case current.CreationTime.IsZero():
		return true, false
	case !boughtBeforeCutoff(current):
		return true, true
	case currentArchitecture(current) == rdsapi.ArchitectureARM:
		return true, false
	default:
		return false, true
	}
}

// ToggleWarnings returns what CheckToggle cannot decide before apply: turning the feature on
// together with a change that fixes rule 1 on an instance whose product-type history the API does
// not show. The cloud decides at apply time; the provider shows these as plan warnings.
func ToggleWarnings(current ExistingInstance, want bool, change SpecChange) []Problem {
	if !want || len(CheckToggle(current, want, change)) > 0 {
		return nil
	}
	if _, known := PredictSupportedAfterKnown(current, change); known {
		return nil
	}
	return []Problem{problem(Rule16KDecidedAtApply, "true", current.ID, current.StorageType, current.EngineVersion)}
}

func isReadOnly(current ExistingInstance) bool { return current.MasterID != "" }

// toggleEdition reports whether an existing instance of this category may turn the feature on
// (rule 3). Read-only instances follow their primary's edition; an unknown category is left to
// the cloud.
func toggleEdition(current ExistingInstance) bool {
	c := strings.TrimSpace(current.Category)
	if c == "" || isReadOnly(current) {
		return true
	}
	return strings.EqualFold(c, "HighAvailability") || strings.EqualFold(c, "cluster")
}

// CheckToggle checks a planned state of an existing instance: want is the planned flag, change the
// planned class/storage/version. It covers rules 1, 2, 3 and 9 (rule 7 needs the primary: Plan). An empty result means the cloud
// will accept the change.
func CheckToggle(current ExistingInstance, want bool, change SpecChange) []Problem {
	if !want {
		return nil
	}
	class, storage, version := after(current, change)
	versionFrom, storageFrom := "", ""
	if change.EngineVersion != "" {
		versionFrom = current.EngineVersion
	}
	if change.StorageType != "" {
		storageFrom = current.StorageType
	}
	if problems := prerequisiteProblems(current.Engine, version, versionFrom, storage, storageFrom); len(problems) > 0 {
		return problems
	}
	var problems []Problem
	switch {
	case ChangesProductType(current, change) && boughtBeforeCutoff(current):
		fix := fmt.Sprintf("Choose an instance type of the same architecture (%s) or set atomic_write_16k = false.", currentArchitecture(current))
		if !current.Supported {
			// Its product type was changed before: the same architecture is refused too.
			fix = fmt.Sprintf("Set atomic_write_16k = false: instance %s lost 16K atomic write for good when its product type was changed before, whatever its architecture.", current.ID)
		}
		problems = append(problems, problem(Rule16KProductType, class, current.InstanceClass, currentArchitecture(current), class, Architecture(class),
			current.ID, current.CreationTime.Format("2006-01-02"), currentArchitecture(current), fix))
	case !PredictSupportedAfter(current, change):
		problems = append(problems, problem(Rule16KNotSupported, "true", current.ID))
	}
	if !current.Enabled && !toggleEdition(current) {
		problems = append(problems, problem(Rule16KBasicEdition, current.Category, current.Category))
	}
	return problems
}

// CheckBufferPoolExtension checks that Buffer Pool Extension (IoAccelerationEnabled) is only asked
// for on general_essd storage.
func CheckBufferPoolExtension(storageType string, want bool) []Problem {
	if !want || strings.EqualFold(strings.TrimSpace(storageType), "general_essd") {
		return nil
	}
	return []Problem{problem(RuleBPEStorageType, storageType, storageType)}
}

// SpecChangeRestarts lists why applying change (and the planned flag, when wantFlag is not nil)
// restarts the instance; empty means no restart. The caller sends all of it in one
// ModifyDBInstanceSpec, so it is one restart whatever the number of reasons.
func SpecChangeRestarts(current ExistingInstance, wantFlag *bool, change SpecChange) []string {
	var reasons []string
	if wantFlag != nil && *wantFlag != current.Enabled && IsMySQL(current.Engine) {
		reasons = append(reasons, fmt.Sprintf("atomic_write_16k changes from %t to %t", current.Enabled, *wantFlag))
	}
	if change.InstanceClass != "" && change.InstanceClass != current.InstanceClass {
		reasons = append(reasons, fmt.Sprintf("instance_type changes from %q to %q", current.InstanceClass, change.InstanceClass))
	}
	if change.StorageType != "" && change.StorageType != current.StorageType {
		reasons = append(reasons, fmt.Sprintf("storage_type changes from %q to %q", current.StorageType, change.StorageType))
	}
	newType := current.StorageType
	if change.StorageType != "" {
		newType = change.StorageType
	}
	if change.Storage != 0 && change.Storage != current.Storage && StorageChangeRestarts(current.Storage, change.Storage, current.StorageType, newType) {
		reasons = append(reasons, fmt.Sprintf("storage changes from %d GB to %d GB", current.Storage, change.Storage))
	}
	if change.EngineVersion != "" && change.EngineVersion != current.EngineVersion {
		reasons = append(reasons, fmt.Sprintf("engine_version changes from %q to %q", current.EngineVersion, change.EngineVersion))
	}
	if reason := editionUpgradeReason(current, change); reason != "" {
		reasons = append(reasons, reason)
	}
	return reasons
}

// FollowingReadOnly returns the read-only instances that turn 16K atomic write on (and restart
// once each) when their primary turns it on (rule 7): the eligible ones that have it off now.
func FollowingReadOnly(primaryEnabled, primaryWant bool, readOnly []ExistingInstance) []string {
	if primaryEnabled || !primaryWant {
		return nil
	}
	var ids []string
	for _, ro := range readOnly {
		if !ro.Enabled && ro.Supported {
			ids = append(ids, ro.ID)
		}
	}
	return ids
}

// SwitchOn reads an API switch value (1, true, on, enabled) as on.
func SwitchOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "on", "enabled":
		return true
	}
	return false
}

// CloseMatches lists the offered classes closest to want (edit distance), at most five.
func CloseMatches(want string, offered []string) string {
	if len(offered) == 0 {
		return "No class is offered for this combination; check engine_version, category and storage_type."
	}
	sorted := append([]string(nil), offered...)
	sort.SliceStable(sorted, func(i, j int) bool {
		di, dj := editDistance(want, sorted[i]), editDistance(want, sorted[j])
		if di != dj {
			return di < dj
		}
		return sorted[i] < sorted[j]
	})
	if len(sorted) > 5 {
		sorted = sorted[:5]
	}
	return "Close matches: " + strings.Join(sorted, ", ") + "."
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
