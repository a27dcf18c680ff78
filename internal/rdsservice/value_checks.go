package rdsservice

import (
	"net"
	"regexp"
	"strings"
	"time"
)

// Checks of single values that the configuration alone decides (the provider's attribute
// validators and import ids call them). Each returns the broken rows of the rule table.

// CheckStorageStep refuses a storage size that is not a multiple of step GB.
func CheckStorageStep(storage, step int64) []Problem {
	if step <= 0 || storage%step == 0 {
		return nil
	}
	return []Problem{problem(RuleStorageStep, "", step, storage, (storage/step+1)*step)}
}

var startsWithLetter = regexp.MustCompile(`^\p{L}`)

// CheckInstanceName applies the DBInstanceDescription rules to instance_name.
func CheckInstanceName(name string) []Problem {
	n := len([]rune(name))
	lower := strings.ToLower(name)
	switch {
	case n < 2 || n > 255:
		return []Problem{problem(RuleNameLength, name, n)}
	case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"):
		return []Problem{problem(RuleNameScheme, name)}
	case !startsWithLetter.MatchString(name):
		return []Problem{problem(RuleNameLetter, name, name)}
	}
	return nil
}

// CheckSecurityIP accepts an IPv4 address or an IPv4 CIDR block, as SecurityIps does.
func CheckSecurityIP(s string) []Problem {
	if !strings.Contains(s, ":") {
		if ip := net.ParseIP(s); ip != nil && ip.To4() != nil {
			return nil
		}
		if ip, _, err := net.ParseCIDR(s); err == nil && ip.To4() != nil {
			return nil
		}
	}
	return []Problem{problem(RuleSecurityIP, s, s)}
}

// CheckRegex accepts a Go (RE2) regular expression.
func CheckRegex(s string) []Problem {
	if _, err := regexp.Compile(s); err != nil {
		return []Problem{problem(RuleRegex, s, s, err.Error())}
	}
	return nil
}

// CheckListFilter refuses a list filter value that is none of the known values in any letter
// case: the API would answer an empty list, which reads as "no such instances".
func CheckListFilter(attribute, value string, known []string) []Problem {
	for _, k := range known {
		if strings.EqualFold(k, value) {
			return nil
		}
	}
	return []Problem{problem(RuleListFilter, value, attribute, value, strings.Join(known, ", "))}
}

// CheckWholeNumber refuses a number that is not whole or lies outside [lowest, highest]; value is
// the number as the configuration wrote it.
func CheckWholeNumber(attribute, value string, whole bool, n, lowest, highest, fallback int64) []Problem {
	if whole && n >= lowest && n <= highest {
		return nil
	}
	return []Problem{problem(RuleWholeNumber, value, attribute, value, lowest, highest, fallback)}
}

// APITimeLayout is how the RDS API writes and reads instants (RestoreTime, StartTime).
const APITimeLayout = "2006-01-02T15:04:05Z"

// CheckUTCTimestamp accepts real instants written as UTC yyyy-MM-ddTHH:mm:ssZ: the shape alone
// would let month 13 through to the API. attribute names the value in the message.
func CheckUTCTimestamp(attribute, value string) []Problem {
	if _, err := time.Parse(APITimeLayout, value); err != nil {
		return []Problem{problem(RuleTimestamp, value, attribute, value)}
	}
	return nil
}

// instanceIDShape is an RDS instance id: letters, digits and hyphens (rm-bp1..., rr-bp1...).
var instanceIDShape = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]*-[A-Za-z0-9]+$`)

// CheckImportID accepts the id terraform import gives resource (an instance id alone).
func CheckImportID(resource, id string) []Problem {
	if instanceIDShape.MatchString(id) {
		return nil
	}
	example := "rm-bp1example"
	if resource == "rds_readonly_instance" {
		example = "rr-bp1example"
	}
	return []Problem{problem(RuleImportID, id, resource, id, example)}
}

// CheckReadOnlyClassShape refuses an instance_type that is not an RDS class code.
func CheckReadOnlyClassShape(class string) []Problem {
	if strings.Contains(class, ".") {
		return nil
	}
	return []Problem{problem(RuleReadOnlyClassShape, class, class)}
}
