package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// While a class change of another family waits for the window, the state keeps the requested
// instruction_set_arch with the requested class, and private state the running one (issue 39 §4:
// the refresh read the running architecture back beside the requested class, so the state after
// the apply went stale).
func TestPendingSpecKeepsTheArchitecture(t *testing.T) {
	requested := instanceModel{InstanceType: types.StringValue("mysql.n2.medium.2c"), InstructionSetArch: types.StringValue("x86")}
	seen := instanceModel{InstanceType: types.StringValue("mysql.n2m.large.2c"), InstructionSetArch: types.StringValue("arm")}
	before := specOf(seen.specFields())
	setSpec(specOf(requested.specFields()), seen.specFields())
	if got := seen.InstructionSetArch.ValueString(); got != "x86" {
		t.Errorf("rds_instance while the change waits: instruction_set_arch %q, want the requested x86", got)
	}
	setSpec(before, seen.specFields())
	if got := seen.InstructionSetArch.ValueString(); got != "arm" {
		t.Errorf("rds_instance as the planner compares it: instruction_set_arch %q, want the running arm", got)
	}
	ro := readonlyInstanceModel{InstanceType: types.StringValue("mysqlro.n2m.small.1c"), InstructionSetArch: types.StringValue("arm")}
	setSpec(specOf((&readonlyInstanceModel{InstanceType: types.StringValue("mysqlro.n2.medium.1c"), InstructionSetArch: types.StringValue("x86")}).specFields()), ro.specFields())
	if got := ro.InstructionSetArch.ValueString(); got != "x86" {
		t.Errorf("rds_readonly_instance while the change waits: instruction_set_arch %q, want the requested x86", got)
	}
}
