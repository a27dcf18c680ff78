package rdsservice

import (
	"fmt"
	"regexp"
	"strings"
)

// The docs' statements about what a change restarts and what the plan checks are rendered here
// from the planner (Plan) and the rule table, so that a rule and its documentation are
// one thing. templates/guides/plan-rules.md.tmpl is RenderRuleDocs' output (a test fails when it
// is stale), and the schema descriptions of storage use StorageChangeEffect.

// ChangeEffect is what one kind of change of an existing instance does, as Plan decides it.
type ChangeEffect struct {
	Attribute string
	Change    string
	Restarts  bool
	// Action is the operation whose restart it is (ModifyDBInstanceSpec, ModifyDBInstanceSSL...).
	Action string
}

// docInstance is the existing instance the effects are planned on: MySQL 8.0 on ESSD, 16K atomic
// write off, Buffer Pool Extension off.
var docInstance = ExistingInstance{
	ID: "rm-example", Engine: "MySQL", EngineVersion: "8.0", StorageType: "general_essd", Category: "HighAvailability",
	InstanceClass: "mysql.n2.medium.2c", Storage: 100, Supported: true, Status: StatusRunning,
}

// ChangeEffects plans one example of each kind of change with Plan itself, and records whether the
// plan restarts the instance.
func ChangeEffects() []ChangeEffect {
	localSSD := docInstance
	localSSD.StorageType = "local_ssd"
	cases := []struct {
		attribute, change string
		from              ExistingInstance
		edit              func(*Desired)
	}{
		{AttrInstanceType, "any change", docInstance, func(d *Desired) { d.InstanceClass = Known("mysql.n4.medium.2c") }},
		{AttrStorage, "growing cloud-disk storage of the same type", docInstance, func(d *Desired) { d.Storage = Known(int64(200)) }},
		{AttrStorage, "growing `local_ssd` storage", localSSD, func(d *Desired) { d.Storage = Known(int64(200)) }},
		{AttrStorage, "reducing storage", docInstance, func(d *Desired) { d.Storage = Known(int64(50)) }},
		{AttrStorage, "changing it together with `storage_type`", docInstance, func(d *Desired) {
			d.Storage, d.StorageType = Known(int64(200)), Known("cloud_essd")
		}},
		{AttrStorageType, "any change", docInstance, func(d *Desired) { d.StorageType = Known("cloud_essd") }},
		{AttrAtomicWrite, "any change", docInstance, func(d *Desired) { d.AtomicWrite = Known(true) }},
		{AttrBufferPoolExtension, "any change", docInstance, func(d *Desired) { d.BufferPoolExtension = Known(true) }},
		{AttrSSLEnabled, "turning it on or off (with a switchover; never deferred)", docInstance, func(d *Desired) { d.Security.SSL = Known(true) }},
		{AttrTDEEnabled, "turning it on (assumed: not documented; never deferred)", docInstance, func(d *Desired) { d.Security.TDE = Known(true) }},
	}
	effects := make([]ChangeEffect, 0, len(cases))
	for _, c := range cases {
		prior := c.from
		desired := Desired{
			Engine: Known(prior.Engine), EngineVersion: Known(prior.EngineVersion), InstanceClass: Known(prior.InstanceClass),
			StorageType: Known(prior.StorageType), Category: Known(prior.Category), Storage: Known(prior.Storage),
			AtomicWrite: Known(prior.Enabled), BufferPoolExtension: Known(prior.BufferPoolExtension),
			ApplyRestarts: ApplyRestartsImmediately,
		}
		c.edit(&desired)
		d := Plan(PlanInput{Label: prior.ID, Prior: &prior, Desired: desired})
		effect := ChangeEffect{Attribute: c.attribute, Change: c.change, Restarts: len(d.Restarts) > 0}
		for _, op := range d.Program.Operations {
			if op.Restart != nil && effect.Action == "" {
				effect.Action = op.Action
			}
		}
		effects = append(effects, effect)
	}
	return effects
}

// AlwaysRestarts reports whether every kind of change of attribute restarts the instance (false
// for an attribute with no evaluated effect).
func AlwaysRestarts(attribute string) bool {
	seen := false
	for _, e := range ChangeEffects() {
		if e.Attribute == attribute {
			seen = true
			if !e.Restarts {
				return false
			}
		}
	}
	return seen
}

// StorageChangeEffect is the sentence the storage attribute's description ends with.
func StorageChangeEffect() string {
	var online, restart []string
	for _, e := range ChangeEffects() {
		switch {
		case e.Attribute != AttrStorage:
		case e.Restarts:
			restart = append(restart, e.Change)
		default:
			online = append(online, e.Change)
		}
	}
	return capitalize(joinWords(online)) + " is online (no restart); " + joinWords(restart) +
		" ends with a switchover (a restart), named in the plan."
}

// RenderRuleDocs renders the plan-rules guide: what each change does and every row of the rule
// table.
func RenderRuleDocs() string {
	var b strings.Builder
	b.WriteString(`---
page_title: "Plan-time rules and restarts"
subcategory: "Guides"
description: |-
  What each change of an instance restarts, and every rule the plan checks, generated from the provider's rule table.
---

# Plan-time rules and restarts

This page is generated from the provider's rule table and planner (` + "`internal/rdsservice`" + `,
` + "`make generate`" + `); a test fails when it differs from them. Every rule below is decided at plan time:
an error refuses the plan with no API write, a warning is shown in the plan.

## What a change of an existing instance does

| attribute | change | effect |
|---|---|---|
`)
	for _, e := range ChangeEffects() {
		effect := "online, no restart"
		switch {
		case e.Restarts && e.Action == OpModifySpec:
			effect = "restarts the instance (one `ModifyDBInstanceSpec`, one restart with any other spec change)"
		case e.Restarts:
			effect = "restarts the instance (`" + e.Action + "`, a restart of its own)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", e.Attribute, e.Change, effect)
	}
	b.WriteString(`
## What a plan deletes

Every plan that deletes data for good names what goes in a warning; with ` + "`prevent_data_loss = true`" + ` on the
resource (` + "`rds_instance`, `rds_backup`, `rds_database`, `rds_backup_policy`" + `) the plan fails instead (rule ` + "`" + string(RuleDataLossRefused) + "`" + `),
before anything is sent, naming every loss at once.

| rule | what goes |
|---|---|
`)
	for _, id := range DataLossFamily {
		fmt.Fprintf(&b, "| `%s` | %s |\n", id, docText(Rules[id].Summary))
	}
	b.WriteString(`
## Rules checked at plan time

| rule | attribute | severity | message |
|---|---|---|---|
`)
	for _, r := range RuleTable() {
		severity := "error"
		if r.Severity == SeverityWarning {
			severity = "warning"
		}
		attribute := "(environment)"
		if r.Attribute != "" {
			attribute = "`" + r.Attribute + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.ID, attribute, severity, docText(r.Summary))
	}
	return b.String()
}

var formatVerb = regexp.MustCompile(`%(\[\d+\])?[a-z]`)

// docText is a row's summary with its arguments shown as "…" and markdown table cells kept whole.
func docText(s string) string {
	return strings.ReplaceAll(formatVerb.ReplaceAllString(s, "…"), "|", `\|`)
}

func joinWords(items []string) string {
	switch len(items) {
	case 0:
		return "no change"
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
