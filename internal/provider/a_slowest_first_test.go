package provider

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// The slowest tests of the package are declared here, longest first, in the file whose name sorts
// first, so that they start first. `go test` calls top-level tests in the order they are declared
// (files in name order) and, once the sequential ones are done, lets the parallel ones run in that
// same order, -parallel at a time. Declared in their topic's files, the oracle and the fault matrix
// (a minute and more each) came last and ran on alone at the end of `make test` with the other
// slots empty; started first, they overlap the many short tests instead. Each is a one-line call
// of the test's body, which stays in its topic's file. A test that grows past about 20 s (the
// longest of the others, idle, -parallel 4) belongs here.

func TestOraclePlanAgreesWithApply(t *testing.T) { oraclePlanAgreesWithApply(t) }

func TestAccReliabilityFaultMatrix(t *testing.T) { reliabilityFaultMatrix(t) }

func TestAccInstance_securityIPsIsTheDefaultArray(t *testing.T) { securityIPsIsTheDefaultArray(t) }

func TestAccInstance_sslAndTDE(t *testing.T) { instanceSSLAndTDE(t) }

func TestFaultMatrixProtocol(t *testing.T) { faultMatrixProtocol(t) }

func TestAccInstance_createToggleNoopImport(t *testing.T) { instanceCreateToggleNoopImport(t) }

func TestOracleUnderFaults(t *testing.T) { oracleUnderFaults(t) }

func TestAccPlan_storageRules(t *testing.T) { planStorageRules(t) }

// TestSlowestTestsAreDeclaredFirst fails when another test file's name sorts before this one's,
// which would start its tests before the slowest.
func TestSlowestTestsAreDeclaredFirst(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	if len(files) == 0 || files[0] != "a_slowest_first_test.go" {
		t.Errorf("the test files in name order start %q, want a_slowest_first_test.go first: rename the other, so that the slowest tests start first", files[:min(len(files), 1)])
	}
}
