package simulator

import (
	"regexp"
	"strings"
	"time"
)

// productLineDate: instances bought on or after it are eligible for 16K atomic write (rule 2).
var productLineDate = time.Date(2025, 5, 14, 0, 0, 0, 0, time.UTC)

// yitianFamily matches YiTian (ARM) class families: digits then "m" (high availability) or "e"
// (cluster), e.g. n2m, x4m, n2e.
var yitianFamily = regexp.MustCompile(`^[a-z]+[0-9]+[me]$`)

// architecture derives the instruction set from the class family.
func architecture(class string) string {
	parts := strings.Split(class, ".")
	if len(parts) >= 2 && yitianFamily.MatchString(parts[1]) {
		return "arm"
	}
	return "x86"
}

var atomicWriteStorage = map[string]bool{"cloud_essd": true, "cloud_essd2": true, "cloud_essd3": true, "general_essd": true}

// eligible is init_optimized_writes (rules 1, 2, 9): MySQL 5.7/8.0 on an ESSD storage type,
// bought on or after the product-line date, or YiTian whose product type never changed.
func eligible(engine, version, storageType, class string, purchase time.Time, productTypeChanged bool) bool {
	if !strings.EqualFold(engine, "MySQL") || (version != "5.7" && version != "8.0") || !atomicWriteStorage[storageType] {
		return false
	}
	return !purchase.Before(productLineDate) || (architecture(class) == "arm" && !productTypeChanged)
}

func (in *instance) eligible() bool {
	return eligible(in.Engine, in.EngineVersion, in.StorageType, in.Class, in.PurchaseTime, in.ProductTypeChanged)
}

func (in *instance) isMySQL() bool { return strings.EqualFold(in.Engine, "MySQL") }

// crossesProductType tells whether moving to newClass changes the product type (x86 <-> YiTian)
// of an instance bought before the product-line date, which makes it a standard instance
// (rule 9).
func crossesProductType(in *instance, newClass string) bool {
	return in.PurchaseTime.Before(productLineDate) && architecture(newClass) != architecture(in.Class)
}

// parseOptimizedWrites reads an OptimizedWrites parameter: set is false when it is absent.
func parseOptimizedWrites(p params) (on, set bool, e *apiError) {
	v := strings.TrimSpace(p.get("OptimizedWrites"))
	switch v {
	case "":
		return false, false, nil
	case "optimized":
		return true, true, nil
	case "none":
		return false, true, nil
	}
	return false, false, newErr(400, "InvalidOptimizedWrites.Malformed", "OptimizedWrites must be \"optimized\" or \"none\", got %q.", truncate(v))
}

func errOWNotSupported(why string) *apiError {
	return newErr(400, "OptimizedWrites.NotSupported", "16K atomic write (OptimizedWrites=optimized) is not supported: %s", why)
}

// notEligibleReason names the first failing prerequisite of rules 1, 2 and 9.
func notEligibleReason(engine, version, storageType string, productTypeChanged bool) string {
	switch {
	case !strings.EqualFold(engine, "MySQL"):
		return "the engine is " + engine + "; only MySQL 5.7 and 8.0 support it."
	case version != "5.7" && version != "8.0":
		return "MySQL " + version + " does not support it; use 5.7 or 8.0."
	case !atomicWriteStorage[storageType]:
		return "storage type " + storageType + " does not support it; use cloud_essd, cloud_essd2, cloud_essd3 or general_essd."
	case productTypeChanged:
		return "the instance's product type was changed between x86 and YiTian, so it is a standard instance, which does not support it."
	default:
		return "the instance is a standard (x86) instance bought before 2025-05-14, which does not support it."
	}
}

func (in *instance) notEligibleReason() string {
	return notEligibleReason(in.Engine, in.EngineVersion, in.StorageType, in.ProductTypeChanged)
}

// isCloudDisk reports whether a storage type is a cloud disk (README "Storage").
func isCloudDisk(storageType string) bool {
	return strings.HasPrefix(storageType, "cloud_") || storageType == "general_essd"
}

// shrinkable is the storage scale-in prerequisite: MySQL 5.7/8.0 on ESSD (README "Storage").
func shrinkable(engine, version, storageType string) bool {
	return strings.EqualFold(engine, "MySQL") && (version == "5.7" || version == "8.0") && atomicWriteStorage[storageType]
}
