package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// rdsservice.PlanInstance's answer written back into an instance's plan (its request is the
// resource's objects as attrRequestOf converts them, modifyplan.go).

// planEnv is what a plan reads the cloud through (rdsservice.Env).
func (p *ProviderData) planEnv() rdsservice.Env {
	return rdsservice.Env{API: p.API, Region: p.Region, Now: p.cloudNow, Classes: &p.classes, Templates: &p.parameterTemplates, Ledger: &p.plans,
		Journal: p.Journal}
}

// scheduledInputs are what scheduled_change is planned from: the prior state's, the spec before
// its task (private state) and the spec planned.
func scheduledInputs(current types.Object, from *specValues, requested specFields) rdsservice.ScheduledInputs {
	return rdsservice.ScheduledInputs{Recorded: isKnown(current), From: from, Requested: specOf(requested), RequestedKnown: isKnown(*requested.InstanceType)}
}

// scheduledChangeOf is the planned scheduled_change as a Terraform value.
func scheduledChangeOf(c rdsservice.ScheduledChange, current types.Object) types.Object {
	switch c {
	case rdsservice.ScheduledUnknown:
		return types.ObjectUnknown(scheduledChangeAttrTypes)
	case rdsservice.ScheduledNone:
		return types.ObjectNull(scheduledChangeAttrTypes)
	}
	return current
}

// setPlannedValues writes the planned computed values into the plan.
func setPlannedValues(v rdsservice.PlannedValues, plan *instanceModel) {
	plan.StorageActual = int64Value(v.StorageActual)
	plan.LockMode = stringValue(v.LockMode)
	plan.ExpireTime = stringValue(v.ExpireTime)
	plan.MinorVersion = stringValue(v.MinorVersion)
}

// addReadFailures reports the facts the plan could not read.
func addReadFailures(diags *diag.Diagnostics, failures []rdsservice.ReadFailure) {
	for _, f := range failures {
		switch {
		case f.Warning:
			diags.AddWarning(f.Summary, f.Detail)
		case f.Attribute != "":
			diags.AddAttributeError(path.Root(f.Attribute), f.Summary, f.Detail)
		default:
			diags.AddError(f.Summary, f.Detail)
		}
	}
}

// stringValue and int64Value are a typed value as a Terraform value (null stays null).
func stringValue(v rdsservice.Val[string]) types.String {
	switch {
	case v.IsNull():
		return types.StringNull()
	case v.IsUnknown():
		return types.StringUnknown()
	}
	return types.StringValue(v.Value())
}

// mapValue is a planned map as a Terraform value.
func mapValue(v rdsservice.MapValue, diags *diag.Diagnostics) types.Map {
	switch {
	case v.Null:
		return types.MapNull(types.StringType)
	case v.Unknown:
		return types.MapUnknown(types.StringType)
	}
	return stringMapValue(v.Values, diags)
}

func int64Value(v rdsservice.Val[int64]) types.Int64 {
	switch {
	case v.IsNull():
		return types.Int64Null()
	case v.IsUnknown():
		return types.Int64Unknown()
	}
	return types.Int64Value(v.Value())
}
