package rdsservice

import "testing"

// A parameter task whose own values this apply sets back is cancelled by the cloud, also when values
// set outside Terraform before it wait on for a restart (the task lists them with PendingAppliedReason):
// nothing restarts in the window (sweep seed 52). A value waiting on that the task did not list keeps it.
func TestParametersWithdrawnBesideValuesWaitingFromBefore(t *testing.T) {
	before := map[string]string{"innodb_open_files": "4000"}
	task := PendingChange{TaskID: "t-1", Changes: []string{parameterRestartReasonPrefix + "back_log 3000 -> 4000)", PendingAppliedReason(before)}}
	d := Decision{Parameters: ParameterDecision{ParameterPlan: ParameterPlan{Withdrawn: []string{"back_log"}}, Pending: before, PendingKnown: true}}
	if !parametersWithdrawn(task, d) {
		t.Errorf("the task's own values set back beside %v waiting from before: not withdrawn", before)
	}
	d.Parameters.Pending = map[string]string{"innodb_open_files": "4000", "back_log": "4000"}
	if parametersWithdrawn(task, d) {
		t.Errorf("back_log still waits: the task is withdrawn")
	}
	d.Parameters.Pending = nil
	for _, changes := range [][]string{task.Changes, task.Changes[:1]} {
		if !parametersWithdrawn(PendingChange{TaskID: "t-1", Changes: changes}, d) {
			t.Errorf("every value set back, nothing waiting after the apply (changes %q): not withdrawn", changes)
		}
	}
}

// A read-only instance's parameter task lists beside its values the follow of its primary's toggle
// (the deferring plan recorded it there): that follow is the primary's task, not the read-only
// instance's, so setting the values back withdraws the task all the same (sweep seed 63, a later run
// that set back both the primary's toggle and the read-only instance's parameters).
func TestParametersWithdrawnBesideTheFollowOfThePrimary(t *testing.T) {
	task := PendingChange{TaskID: "t-1", Changes: []string{parameterRestartReasonPrefix + "back_log 3000 -> 4000)",
		followReasonPrefix + "rm-1 turning atomic_write_16k on in the primary's maintenance window (atomic_write_16k changes from false to true)"}}
	d := Decision{Parameters: ParameterDecision{ParameterPlan: ParameterPlan{Withdrawn: []string{"back_log"}}, PendingKnown: true}}
	if !parametersWithdrawn(task, d) {
		t.Errorf("the read-only instance's values set back beside its follow of the primary: not withdrawn")
	}
}
