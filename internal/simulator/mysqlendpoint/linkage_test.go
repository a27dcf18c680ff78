package mysqlendpoint_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The endpoint and its engine are simulator-only: the provider binary must not link them (size, build time, and a
// SQL engine has no business inside a Terraform provider).
func TestProviderBinaryDoesNotLinkTheEndpoint(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/openrds/terraform-provider-rds").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps listed %d packages; the provider has far more", len(deps))
	}
	for _, dep := range deps {
		for _, banned := range []string{"/mysqlendpoint", "github.com/dolthub/", "github.com/go-sql-driver/"} {
			if strings.Contains(dep, banned) {
				t.Errorf("the provider binary links %s", dep)
			}
		}
	}
}
