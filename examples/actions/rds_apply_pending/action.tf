# The change waiting for the maintenance window (the instance's scheduled_change), now:
# `terraform apply -invoke=action.rds_apply_pending.main`. The plan names the restart it brings.
action "rds_apply_pending" "main" {
  config {
    instance_id     = "rm-bp1example00000"
    prevent_restart = false
  }
}
