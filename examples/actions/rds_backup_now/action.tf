# A backup before a risky change: run it with `terraform apply -invoke=action.rds_backup_now.main`,
# or from a resource's lifecycle as below.
action "rds_backup_now" "main" {
  config {
    instance_id   = "rm-bp1example00000"
    backup_method = "Physical"
  }
}

resource "terraform_data" "schema_migration" {
  input = "v42"
  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.rds_backup_now.main]
    }
  }
}
