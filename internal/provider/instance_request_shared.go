package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// plannedParts point at the computed attributes both instance resources plan alike and at
// parameters, and hold the planned parameter_group_id.
type plannedParts struct {
	atomicWrite, atomicWriteSupported *types.Bool
	architecture, status              *types.String
	pending, groupValues, tagsAll     *types.Map
	groupID                           types.String
	parameters                        *types.Map
	endpoints                         endpointParts
}

// writeShared writes the decision's values both instance resources plan alike (config points at
// the same attributes of the configuration).
func writeShared(p, config plannedParts, dec rdsservice.Decision, diags *diag.Diagnostics) {
	*p.atomicWrite, *p.atomicWriteSupported = boolOf(dec.AtomicWrite), boolOf(dec.AtomicWriteSupported)
	*p.architecture, *p.status = stringOf(dec.Architecture), stringOf(dec.Status)
	*p.pending = mapValue(rdsservice.PlannedPending(!config.parameters.IsNull(), dec.Parameters), diags)
	*p.groupValues = mapValue(rdsservice.PlannedGroupValues(dec.Parameters, valString(p.groupID)), diags)
	planEndpointValues(dec, config.endpoints, p.endpoints)
}
