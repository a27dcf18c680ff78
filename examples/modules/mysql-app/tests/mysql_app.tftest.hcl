# `terraform test` for the mysql-app module against the local RDS simulator: each run applies for real (create,
# then a 16K atomic write toggle that restarts the instance) and the suite destroys everything at the end.
# Run it as the guide "Testing your modules" (way 2) shows (`make test-modules` does).

provider "rds" {}

variables {
  name             = "mysql-app-test"
  security_ips     = ["127.0.0.1"]
  account_password = "Passw0rd-Test-2026"
}

run "create" {
  assert {
    condition     = output.atomic_write_16k == true
    error_message = "16K atomic write should be on by default for MySQL 8.0 on ESSD."
  }
  assert {
    condition     = can(regex("^[^:]+:[0-9]+$", output.address))
    error_message = "address should be host:port, got ${output.address}."
  }
  assert {
    condition     = output.account_privilege == "ReadWrite" && output.database_name == "app"
    error_message = "the account should own the app database."
  }
}

run "turn_16k_off" {
  # The first run's id comes in as a variable: OpenTofu (1.6.1 and later) reads run outputs in a run's
  # variables, but not in its assertions, so this form works with both CLIs.
  variables {
    atomic_write_16k     = false
    expected_instance_id = run.create.instance_id
  }
  assert {
    condition     = output.atomic_write_16k == false
    error_message = "16K atomic write should be off after the toggle."
  }
  assert {
    condition     = output.instance_id == var.expected_instance_id
    error_message = "the toggle must restart the instance in place, not replace it."
  }
}
