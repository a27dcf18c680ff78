# `terraform test` for the production module against the local RDS simulator: each run applies for real.
# The first apply turns SSL and TDE on right after creation (two restarts the plan names), so it runs with
# prevent_restart = false; the second applies the module's defaults; the last lifts deletion protection so that
# the suite can destroy the instance at the end.

provider "rds" {}

variables {
  name               = "production-test"
  security_ips       = ["127.0.0.1"]
  tde_encryption_key = "0d0f3ab9-key-of-the-test"
  tde_role_arn       = "acs:ram::1234567890:role/aliyunrdsinstanceencryptiondefaultrole"
}

run "create" {
  variables {
    prevent_restart = false
  }
  assert {
    condition     = output.ssl_enabled && output.tde_enabled
    error_message = "SSL and TDE should be on after the first apply."
  }
  assert {
    condition     = can(regex("^[0-9]{4}-[0-9]{2}-[0-9]{2}T", output.ssl_expire_time))
    error_message = "ssl_expire_time should be read back, got ${coalesce(output.ssl_expire_time, "null")}."
  }
  assert {
    condition     = output.deletion_protection && output.backup_retention_period == 30 && output.log_backup_retention_period == 14
    error_message = "deletion protection and the backup policy should be as the module sets them."
  }
}

run "guarded" {
  variables {
    expected_instance_id = run.create.instance_id
  }
  assert {
    condition     = output.prevent_restart && output.instance_id == var.expected_instance_id
    error_message = "prevent_restart should be on, on the same instance."
  }
}

run "unprotect_for_destroy" {
  variables {
    deletion_protection = false
  }
  assert {
    condition     = !output.deletion_protection
    error_message = "deletion protection should be off so the suite can destroy the instance."
  }
}
