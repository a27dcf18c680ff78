package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Destroys in the oracle's combinations (issue 23): the factor "destroy" removes the read-only
// instance, or the primary (with everything that refers to it), from the configuration, so that the
// destroy's program (rdsservice/destroy_program.go) meets the other features' states before the
// run: billing (with the billing factor's levels, a pay-as-you-go instance released, a subscription
// converted and released, or abandoned), locks, scheduled tasks, drift, imports without
// prepaid_on_destroy, prevent_restart, backup policies. After the apply the cloud must agree with
// the plan: a released instance is gone, an abandoned one runs on.

// comboDestroyLevels are the factor's levels; the first is "no destroy".
var comboDestroyLevels = []string{"no", "the read-only instance", "the primary"}

// comboNormalizeDestroy maps a combination with a destroy to what it really is: a level that only
// changes the configuration after the run is "not used" once that configuration is gone; the
// read-only instance needs to exist.
func comboNormalizeDestroy(c []int) {
	at := func(f string) *int { return &c[comboFactorIndex(f)] }
	set := func(f, l string) { *at(f) = slices.Index(comboFactors[comboFactorIndex(f)].levels, l) }
	level := func(f string) string { return comboLevel(c, f) }
	switch level("destroy") {
	case "no":
		return
	case "the read-only instance":
		if level("topology") == "primary" {
			set("destroy", "no")
		}
		comboNormalizeReadOnlyGone(c)
		return
	}
	for _, f := range []string{"apply_restarts", "16K", "class", "storage", "parameters", "replace", "data protection"} {
		*at(f) = 0
	}
	after := map[string]string{"guard": "rename", "tags": "added", "minor version": "set to Manual", "storage autoscaling": "turned on",
		"backup policy": "set"}
	for f, l := range after {
		if level(f) == l {
			*at(f) = 0
		}
	}
}

// comboNormalizeReadOnlyGone: the read-only instance's own changes are "not used" when the run
// destroys it. The primary's changes that restart its read-only instances with it (a 16K toggle,
// a minor version upgrade) are left out too: Terraform destroys the read-only instance first, and a
// primary planned before that destroy still names its restart in the program. The destroy plan then
// corrects a 16K follow restart (readonly-released-before-primary, TestReadonlyReleasedBeforePrimaryToggle)
// but not a minor version's; comparing restarts by the program, this factor cannot take them.
func comboNormalizeReadOnlyGone(c []int) {
	set := func(f, l string) { c[comboFactorIndex(f)] = slices.Index(comboFactors[comboFactorIndex(f)].levels, l) }
	renames := map[string][2]string{"class": {"read-only", "unchanged"}, "storage": {"read-only grows", "unchanged"},
		"parameters": {"restart-needing on the read-only", "none"}, "guard": {"prevent_restart on the read-only", "none"}}
	for f, r := range renames {
		if comboLevel(c, f) == r[0] {
			set(f, r[1])
		}
	}
	if comboLevel(c, "class") == "both" {
		set("class", "primary")
	}
	if comboLevel(c, "parameters") == "restart-needing on both" {
		set("parameters", "restart-needing")
	}
	c[comboFactorIndex("16K")] = 0
	if comboLevel(c, "minor version") == "upgrade" {
		c[comboFactorIndex("minor version")] = 0
	}
}

// comboDestroy removes what the level destroys from the configuration after the run. The
// subscription of billing's "prepaid" level is abandoned; its other subscriptions are converted and
// released (comboBilling's prepaid_on_destroy).
func comboDestroy(level, billing string, pb map[string]any, after []oracleResource) []oracleResource {
	switch level {
	case "the read-only instance":
		return slices.DeleteFunc(after, func(r oracleResource) bool { return r.addr == "rds_readonly_instance.ro" })
	case "no":
		return after
	}
	if billing == "prepaid" {
		pb["prepaid_on_destroy"] = rdsservice.OnDestroyAbandon
	}
	return nil
}

// checkDestroys compares the cloud with each destroy the applied plan showed: the instance is gone
// (or being released), unless the plan abandoned it, which leaves it running.
func (w *oracleWorld) checkDestroys(plan *oraclePlan, disagree func(class, format string, args ...any)) {
	api, err := w.h.directClient()
	if err != nil {
		w.h.t.Fatal(err)
	}
	w.abandoned = map[string]bool{}
	for addr, p := range plan.res {
		if p.action != actDelete || !isInstanceResource(addr) {
			continue
		}
		var id string
		_ = attrOf(p.prior, "id").As(&id)
		w.abandoned[id] = abandonedOnDestroy(p.prior)
		attr, err := api.DescribeDBInstanceAttribute(context.Background(), id)
		gone := rdsapi.IsNotFound(err) || err == nil && attr.DBInstanceStatus == rdsservice.StatusDeleting
		switch abandoned := abandonedOnDestroy(p.prior); {
		case err != nil && !rdsapi.IsNotFound(err):
			disagree("destroyed instance unreadable after apply", "DescribeDBInstanceAttribute %s after the destroy of %s: %v", id, addr, err)
		case abandoned && gone:
			disagree("abandoned instance released", "%s: the plan abandons %s (prepaid_on_destroy = abandon), but the cloud released it", addr, id)
		case !abandoned && !gone:
			disagree("destroyed instance still in the cloud", "%s: the plan destroys %s, but it is %s after the apply", addr, id, attr.DBInstanceStatus)
		}
	}
}

// warnedOfDestroyFailure: the plan of this destroy warned that the instance's lock makes the cloud
// refuse it (destroy-program's lock warning; for a replacement, the update's), and the apply failed
// on that lock.
func warnedOfDestroyFailure(p *oraclePlanned, applyErr string) bool {
	var id, lock string
	_ = attrOf(p.prior, "id").As(&id)
	_ = attrOf(p.prior, "lock_mode").As(&lock)
	if p.action != actDelete && p.action != actReplace || lock == "" || !strings.Contains(applyErr, lock) {
		return false
	}
	summary := fmt.Sprintf(rdsservice.Rules[rdsservice.RuleInstanceLocked].Summary, id)
	for _, d := range p.diags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary {
			return true
		}
	}
	return false
}

// deletesAgree: the cloud received the planned deletes, less those of read-only instances whose
// primary this run deletes too. The cloud releases a read-only instance with its primary, so when
// the primary goes first the read-only instance's destroy finds it gone and sends nothing
// (checkDestroys then checks that it is gone).
func deletesAgree(served, planned int, plan *oraclePlan) bool {
	deleted := func(p *oraclePlanned) bool { return p.action == actDelete || p.action == actReplace }
	primaries, withPrimary := map[string]bool{}, 0
	for addr, p := range plan.res {
		var id string
		if strings.HasPrefix(addr, "rds_instance.") && deleted(p) && attrOf(p.prior, "id").As(&id) == nil {
			primaries[id] = true
		}
	}
	for addr, p := range plan.res {
		var master string
		if strings.HasPrefix(addr, "rds_readonly_instance.") && deleted(p) && attrOf(p.prior, "master_instance_id").As(&master) == nil && primaries[master] {
			withPrimary++
		}
	}
	return served <= planned && served >= planned-withPrimary
}
