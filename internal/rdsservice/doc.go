// Package rdsservice holds the provider's own knowledge of ApsaraDB RDS: the rules, the planner
// that applies them, and the service operations built on rdsapi.API. The rules are written from
// the product specification alone, independently of the simulator, so that a test comparing the
// two across the whole matrix means something.
//
// Entry points:
//   - [Plan] (planner.go) turns facts and configuration into a [Decision]: computed values, the
//     problems to show, the restarts and replacements, and the operations each instance will
//     undergo. It is pure: no I/O, so it runs the same at plan and again before a write.
//   - The rule table (ruletable.go, [Rules]) is every rule's row: its source, the attribute it
//     points at, its severity and its texts. Every plan message is rendered from a row;
//     docs/rules.md is generated from the same rows ([RenderRuleDocs]).
//   - Checks of single values and of the access resources: [CheckConfig], [CheckAccess],
//     [CheckParameters], [CheckMaintenanceWindow]; the 16K atomic write rules (rules.go).
//   - Operations against the API: creates and clones with their waits (create.go), the spec change
//     and listings (ops.go), parameters (parameters_ops.go), accounts and databases
//     (access_ops.go), and the [Waiter] that polls under the resource's deadline (wait.go).
package rdsservice
