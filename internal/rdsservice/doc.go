// Package rdsservice holds the provider's own knowledge of ApsaraDB RDS and the apply built on
// rdsapi.API. The rules are written from the product specification alone, independently of the
// simulator, so that a test comparing the two across the whole matrix means something.
//
// Entry points:
//   - [Plan] (planner.go): one pure function from facts and configuration to a [Decision]:
//     computed values, the problems to show, and the [Program]. No I/O, so it runs the same at
//     plan and again before a write. Its input is a [PlanInput] (plan_input.go, values in [Val],
//     values.go), its answer a [Decision] (decision.go); it plans creates and replacements
//     (planner.go), clones (plan_clone.go), read-only creates (plan_readonly.go), updates
//     (plan_update.go) and the restarts they cause, guarded and deferred (plan_restarts.go).
//   - [PlanInstance] (plan_instance.go): one plan of an instance as ModifyPlan asks it, an
//     [InstanceRequest] in typed values: it reads the facts the change needs (plan_facts.go)
//     through the process's caches ([Catalogue], [TemplateCache]), calls Plan, plans the computed
//     values (plan_values.go, plan_scheduled.go) and records what the plans that follow need in
//     the run's [Ledger] (run_ledger.go). [PlannedAttrs] (plan_attrs.go) are its computed values
//     by attribute name, which ModifyPlan writes back; [PlanInterruptedCreate] what the create
//     journal left for a new instance (create_interrupted_plan.go).
//   - [Program] (program.go): for each instance the apply touches, the ordered operations (API
//     action and parameters; when: now, right after creation, in the maintenance window; effect:
//     restart, replacement, none). The plan's restart warnings are rendered from it.
//   - [Execute] (executor.go, executor_spec.go, executor_*.go): the one executor that runs a Program for every
//     instance resource (primary, clone, read-only): creates, waits, parameters, spec orders (now
//     or for the window), followers, in-place settings. Before a spec order it reads the instance
//     again and, when it changed since the plan, decides again with Plan.
//   - [PlanAction] and [ExecuteAction] (action_program.go): the provider-defined actions
//     (restart, switchover, apply what waits for the window) as one-operation programs the same
//     executor runs, planning again right before the write.
//   - [PlanBackupPolicy] and [ExecuteBackupPolicy] (backup_policy_program.go): rds_backup_policy's
//     ModifyBackupPolicy calls as a program of the same executor, planned again before each call.
//   - [PlanAccess] and [ExecuteAccess] (access_program.go, executor_access.go): the writes of
//     rds_account, rds_database and rds_account_privilege (create, description, password reset,
//     grants and revokes that differ from the cloud, delete) as a program of the same executor,
//     planned again before each write; the waits and the adoption of a re-sent create live there.
//   - [PlanDestroyProgram] and [ExecuteDestroy] (destroy_program.go, executor_destroy.go): a
//     destroy of either instance resource (conversion, release, wait; or abandonment), planned
//     again before each write; [ExecuteBackupCreate] and [PlanBackupDelete] (backup_program.go):
//     rds_backup and rds_backup_now's CreateBackup, and rds_backup's DeleteBackup.
//   - The rule table (ruletable.go, [Rules]): every rule's row, its source, attribute, severity
//     and texts. Every plan message is rendered from a row; the plan-rules guide is generated from
//     the same rows ([RenderRuleDocs]).
//   - Checks of single values and of the access resources: [CheckConfig], [CheckAccess],
//     [CheckParameters], [CheckMaintenanceWindow]; the 16K atomic write rules (atomic_write_rules.go).
//   - The class catalogue: [Catalogue] (catalogue.go, catalogue_zones.go) caches what the cloud
//     offers for the planner ([Catalogue.ClassFacts]) and the discovery data sources, which pick
//     from it with [SelectClasses] (catalogue_select.go).
//   - The rules behind the provider functions (functions.go, functions_rules.go): [AtomicWrite16K],
//     [ParseInstanceClass], [MaintenanceWindowUTC], [ParameterRestarts], over the planner's checks.
//   - Which attribute changes replace a resource: the table and [Replaced] (replacement.go); the
//     provider builds its schemas' RequiresReplace modifiers from the table.
//   - Reads of the API (the files named `*_reads`): listings and lookups of instances, accounts,
//     databases, backups and tags; creates and clones with their waits (create.go), and the
//     [Waiter] that polls under the resource's deadline (wait.go).
//
// A file's name says what it holds: `*_rules` files check conditions and raise rule-table rows,
// `*_program` files build operations (programBuilder methods, Plan* entry points), `executor` and
// `executor_*` files run them (every executor method, the API calls and their waits), and `*_reads`
// files read the API.
package rdsservice
