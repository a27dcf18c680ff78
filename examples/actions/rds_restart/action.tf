# Run it with `terraform apply -invoke=action.rds_restart.main`: the plan names the restart and its
# downtime, and refuses it when the instance has prevent_restart = true.
action "rds_restart" "main" {
  config {
    instance_id     = "rm-bp1example00000"
    prevent_restart = false
  }
}
