package rdsservice

import (
	"fmt"
	"strings"
)

// RenderPendingDocs renders the guide "Changes waiting for the maintenance window" from
// PendingBehaviours: templates/guides/pending-changes.md.tmpl is its output (a test fails when it
// is stale; make generate rewrites it).
func RenderPendingDocs() string {
	var b strings.Builder
	b.WriteString(`---
page_title: "Changes waiting for the maintenance window"
subcategory: "Guides"
description: |-
  What a later run does to each kind of change waiting for the maintenance window, generated from the provider's table.
---

# Changes waiting for the maintenance window

With ` + "`apply_restarts = \"in_maintenance_window\"`" + ` (or a change ordered outside Terraform) a change waits in
the cloud's task centre for the instance's ` + "`maintenance_window`" + `, and ` + "`scheduled_change`" + ` shows it. Every later
plan names the restart it brings, and ` + "`prevent_restart = true`" + ` refuses it. This page is generated from the
provider's table (` + "`internal/rdsservice`, `PendingBehaviours`; `make generate`" + `); the planner follows it, and a
test plays each case against the simulator. What a later run does:

`)
	cols := []struct {
		title string
		cell  func(PendingBehaviour) string
	}{
		{"`maintenance_window` changes", func(p PendingBehaviour) string { return p.WindowMoved }},
		{"the attributes are set back", func(p PendingBehaviour) string { return p.Reverted }},
		{"more restarting work for the same window", func(p PendingBehaviour) string { return p.MoreWork }},
		{"a read-only instance is added or released", func(p PendingBehaviour) string { return p.ReadOnly }},
		{"`rds_apply_pending`", func(p PendingBehaviour) string { return p.ApplyPending }},
	}
	for _, p := range PendingBehaviours {
		fmt.Fprintf(&b, "## %s\n\n| later run | behaviour |\n|---|---|\n", capitalize(string(p.Kind)))
		for _, c := range cols {
			fmt.Fprintf(&b, "| %s | %s |\n", c.title, strings.ReplaceAll(c.cell(p), "|", `\|`))
		}
		b.WriteString("\n")
	}
	b.WriteString("Cloud facts and assumptions behind these rows are in the simulator's README (\"Maintenance windows\", " +
		"\"Zone moves\", \"Major version upgrade\"): `ModifyDBInstanceMaintainTime` moves waiting tasks to the new window, a later " +
		"order of the same kind replaces a waiting one, and no API call withdraws a scheduled major or minor version upgrade.\n")
	return b.String()
}
