package rdsservice

import (
	"context"
	"fmt"
)

// DestroyPlanned is what the plan of an instance's destroy says: its refusals and warnings, and
// the facts it could not read.
type DestroyPlanned struct {
	Problems     []Problem
	ReadFailures []ReadFailure
}

// PlanInstanceDestroy plans the destroy of an instance from its state (req), rendered from its
// program. A read-only instance's release is recorded in the run's ledger for its primary's plan;
// a primary's read-only instances are read for their deletion protection (they may be another
// workspace's), and the cross-region backups its release deletes are named. Without env.API (an
// unconfigured provider) nothing is read; without env.Ledger nothing is recorded.
func PlanInstanceDestroy(ctx context.Context, env Env, req DestroyRequest) DestroyPlanned {
	out := DestroyPlanned{Problems: releasedReadOnly(env.Ledger, req)}
	if env.API != nil && len(req.ReadOnlyInstances) > 0 {
		protected, err := ProtectedReadOnly(ctx, env.API, req.ReadOnlyInstances)
		if err != nil {
			out.ReadFailures = []ReadFailure{{Summary: "Cannot read the read-only instances the destroy releases",
				Detail: fmt.Sprintf("RDS instance %s: %v. Plan again.", req.InstanceID, err)}}
			return out
		}
		req.ProtectedReadOnly = protected
	}
	out.Problems = append(out.Problems, PlanDestroyProgram(req).Messages()...)
	cloudDisk := BackupFacts{StorageType: req.StorageType}.CloudDisk()
	if req.ReadOnly || env.API == nil || !cloudDisk || !DestroyReleases(req) {
		return out // read-only instances have no backups of their own; an abandoned subscription keeps them
	}
	loss, err := PlanCrossRegionReleaseLoss(ctx, env.API, req.InstanceID, cloudDisk, req.KeepPolicy, env.Now())
	switch {
	case err != nil:
		out.ReadFailures = []ReadFailure{{Summary: "Cannot read the cross-region backups the destroy deletes",
			Detail: fmt.Sprintf("RDS instance %s: %v. Plan again.", req.InstanceID, err)}}
	case loss != nil:
		out.Problems = append(out.Problems, GuardDataLoss(req.PreventDataLoss, *loss)...)
	}
	return out
}

// releasedReadOnly records the release of a read-only instance and warns when this run's plan of
// its primary named it as restarting with the primary; it refuses the release while this run's plan
// of the primary's proxy still weights it (ReleasedWhileWeighted). Terraform destroys a resource
// before it updates one the resource depends on (hashicorp/terraform,
// internal/terraform/transform_destroy_edge.go), so the read-only instance is gone before its
// primary's change.
func releasedReadOnly(l *Ledger, req DestroyRequest) []Problem {
	if l == nil || !req.ReadOnly || req.InstanceID == "" {
		return nil
	}
	l.RecordReleased(req.InstanceID)
	out := ReleasedWhileWeighted(l, req.MasterID, req.InstanceID)
	if l.Follows(req.MasterID, req.InstanceID) {
		out = append(out, Raise(RuleReadOnlyReleasedFirst, req.InstanceID, req.InstanceID, req.MasterID))
	}
	return out
}
