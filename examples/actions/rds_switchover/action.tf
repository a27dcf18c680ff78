# Run it with `terraform apply -invoke=action.rds_switchover.main` on a High-availability or cluster
# instance: the plan names the switchover (connections drop once), and prevent_restart refuses it.
action "rds_switchover" "main" {
  config {
    instance_id     = "rm-bp1example00000"
    prevent_restart = false
  }
}
