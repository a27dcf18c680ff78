package main

import (
	"strings"
	"testing"
)

// Figure 9's configuration takes its version from a variable (so each apply changes only that),
// and the versions go up one major version at a time, as the cloud upgrades.
func TestUpgradeConfig(t *testing.T) {
	c := upgradeConfig()
	if !strings.Contains(c, "engine_version   = var.engine_version") || strings.Contains(c, `engine_version   = "8.0"`) {
		t.Fatalf("the version is not the variable:\n%s", c)
	}
	if len(upgradeVersions) < 2 {
		t.Fatalf("figure 9 needs at least one upgrade: %v", upgradeVersions)
	}
	steps := map[string]string{"5.5": "5.6", "5.6": "5.7", "5.7": "8.0", "8.0": "8.4"}
	for i := 1; i < len(upgradeVersions); i++ {
		if steps[upgradeVersions[i-1]] != upgradeVersions[i] {
			t.Errorf("%s -> %s is not one major version", upgradeVersions[i-1], upgradeVersions[i])
		}
	}
}
