package rdsservice

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Provider-defined functions (issue 43): pure answers from the rules compiled into the provider,
// each over the functions the planner itself uses, so a function's reason is the plan's message.

// AtomicWriteFacts is what atomic_write_16k(facts) takes. A zero Purchase is an instance bought
// now; a set one is an existing instance bought then, asked to turn the feature on.
type AtomicWriteFacts struct {
	Engine, EngineVersion, StorageType, Category, InstanceClass string
	Purchase                                                    time.Time
	// Architecture is arm or x86; "" derives it from the class.
	Architecture string
}

// AtomicWriteAnswer is { supported, default, reason }.
type AtomicWriteAnswer struct {
	// Supported is atomic_write_16k_supported (init_optimized_writes) for such an instance.
	Supported bool
	// Default is the value the instance gets when atomic_write_16k is not set.
	Default bool
	// Reason is why atomic_write_16k = true would be refused: the plan's messages, "" when it
	// would be accepted.
	Reason string
}

// AtomicWrite16K answers for a new instance as the plan of a create does (rules 1 and 4), and
// for an existing one as the plan of an update does (CheckToggle: rules 1, 2, 3).
func AtomicWrite16K(f AtomicWriteFacts) AtomicWriteAnswer {
	spec := NewInstanceSpec{Engine: f.Engine, EngineVersion: f.EngineVersion, StorageType: f.StorageType, Category: f.Category, InstanceClass: f.InstanceClass}
	if f.Purchase.IsZero() {
		return AtomicWriteAnswer{Supported: DefaultAtomicWrite(spec), Default: DefaultAtomicWrite(spec), Reason: ProblemText(EligibleForNew(spec))}
	}
	existing := ExistingInstance{ID: fmt.Sprintf("(%s bought %s)", f.InstanceClass, f.Purchase.Format("2006-01-02")), Engine: f.Engine,
		EngineVersion: f.EngineVersion, StorageType: f.StorageType, Category: f.Category, InstanceClass: f.InstanceClass,
		Architecture: f.Architecture, CreationTime: f.Purchase}
	existing.Supported = SupportedAtPurchase(existing)
	return AtomicWriteAnswer{Supported: existing.Supported, Default: existing.Supported && !boughtBeforeCutoff(existing),
		Reason: ProblemText(CheckToggle(existing, true, SpecChange{}))}
}

// SupportedAtPurchase is init_optimized_writes of an instance whose product type was never
// changed: rule 1 on its values, and rule 2 on its purchase date and architecture.
func SupportedAtPurchase(inst ExistingInstance) bool {
	if len(prerequisiteProblems(inst.Engine, inst.EngineVersion, "", inst.StorageType, "")) > 0 {
		return false
	}
	return !boughtBeforeCutoff(inst) || currentArchitecture(inst) == "arm"
}

// ProblemText joins the errors' details as the plan shows them, one after another; "" for none.
func ProblemText(problems []Problem) string {
	var parts []string
	for _, p := range problems {
		if p.Severity == SeverityError {
			parts = append(parts, p.Detail)
		}
	}
	return strings.Join(parts, " ")
}

// ClassInfo is what a class name says: instance_class(name).
type ClassInfo struct {
	// Family is the family code (n2, x4m, n2e), Group General (n) or Dedicated (x).
	Family, Group string
	CPU           int64
	MemoryGiB     int64
	// Architecture is the planner's (Architecture): arm for YiTian families, else x86.
	Architecture string
	// Edition is Basic, HighAvailability, cluster or ReadOnly.
	Edition string
}

var classNamePattern = regexp.MustCompile(`^(mysql|mysqlro|pg|pgro|mariadb)\.([nx])([0-9]+)([me]?)\.((?:[0-9]*x)?large|medium|small)\.(1|2c|xc|1c)$`)

// ParseInstanceClass reads <engine>.<family>.<size>.<suffix>: the size gives the CPU cores
// (small 1, medium 2, large 4, xlarge 8, Nxlarge 8N), the family's digit the GiB per core.
func ParseInstanceClass(name string) (ClassInfo, []Problem) {
	m := classNamePattern.FindStringSubmatch(strings.TrimSpace(name))
	if m == nil {
		return ClassInfo{}, []Problem{problem(RuleClassNameShape, name, name)}
	}
	ratio, _ := strconv.ParseInt(m[3], 10, 64)
	info := ClassInfo{Family: m[2] + m[3] + m[4], Group: map[string]string{"n": "General", "x": "Dedicated"}[m[2]], CPU: sizeCores(m[5]),
		Architecture: Architecture(name)}
	info.MemoryGiB = info.CPU * ratio
	switch readOnly := strings.HasSuffix(m[1], "ro"); {
	case readOnly != (m[6] == "1c"):
		return ClassInfo{}, []Problem{problem(RuleClassNameShape, name, name)}
	case readOnly:
		info.Edition = "ReadOnly"
	default:
		info.Edition = map[string]string{"1": "Basic", "2c": "HighAvailability", "xc": "cluster"}[m[6]]
	}
	return info, nil
}

func sizeCores(size string) int64 {
	switch size {
	case "small":
		return 1
	case "medium":
		return 2
	case "large":
		return 4
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(size, "xlarge"), 10, 64)
	if err != nil {
		n = 1 // plain xlarge
	}
	return 8 * n
}
