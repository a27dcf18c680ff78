package rdsservice

import (
	"testing"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TestExistingFromAttributeDefaults: the one conversion of the API's instance answer fills what the
// answer leaves out the way the attributes show it: the class family's architecture, "Unlock".
func TestExistingFromAttributeDefaults(t *testing.T) {
	bare, err := ExistingFromAttribute(&rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceClass: "mysql.x8.medium.2c", LockMode: " "})
	if err != nil || bare.Architecture != Architecture("mysql.x8.medium.2c") || bare.LockMode != LockUnlocked {
		t.Fatalf("defaults: %+v, %v", bare, err)
	}
	told, _ := ExistingFromAttribute(&rdsapi.DBInstanceAttribute{DBInstanceID: "rm-1", DBInstanceClass: "mysql.x8.medium.2c",
		InstructionSetArch: " ARM ", LockMode: "ManualLock"})
	if told.Architecture != rdsapi.ArchitectureARM || told.LockMode != "ManualLock" {
		t.Fatalf("as answered: %+v", told)
	}
}
