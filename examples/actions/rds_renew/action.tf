# Run it with `terraform apply -invoke=action.rds_renew.main`: the plan names the purchase and the
# subscription's new end; it renews an instance locked by its expired subscription too.
action "rds_renew" "main" {
  config {
    instance_id = "rm-bp1example00000"
    period      = 1
  }
}
