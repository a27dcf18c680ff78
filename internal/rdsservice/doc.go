// Package rdsservice holds the provider's own knowledge of ApsaraDB RDS and the apply built on
// rdsapi.API. Its entry points:
//
//   - Plan (planner.go): one pure function from facts and configuration to a Decision: computed
//     values, problems (every rule and message is a row of the rule table, ruletable.go), and the
//     Program.
//   - Program (program.go): for each instance the apply touches, the ordered operations (API
//     action and parameters; when: now, right after creation, in the maintenance window; effect:
//     restart, replacement, none). The plan's restart warnings are rendered from it.
//   - Execute (executor.go, executor_spec.go): the one executor that runs a Program for every
//     instance resource (primary, clone, read-only): creates, waits, parameters, spec orders (now
//     or for the window), followers, in-place settings (Settings). Before a spec order it reads the
//     instance again and, when it changed since the plan, decides again with Plan.
//   - The 16K atomic write rules (rules.go), parameters (parameters.go), waits (wait.go) and the
//     access rules (account_rules.go).
//
// The rules are written from the product specification alone, independently of the simulator,
// so that a test comparing the two across the whole matrix means something.
package rdsservice
