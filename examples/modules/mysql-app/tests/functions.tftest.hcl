# `terraform test` of the module's input validation with a mocked provider: no simulator, no cloud account.
# The variables' validation calls provider functions (provider::rds::...), which run under mock_provider
# because they call no API. Each run only plans.

mock_provider "rds" {}

variables {
  name             = "mysql-app-test"
  security_ips     = ["127.0.0.1"]
  account_password = "Passw0rd-Test-2026"
}

run "defaults_and_a_local_window" {
  command = plan
  variables {
    maintenance_window_local = "02:00-03:00"
    parameters               = { innodb_io_capacity = "4000" }
  }
  assert {
    condition     = output.maintenance_window == "18:00Z-19:00Z"
    error_message = "02:00-03:00 in Asia/Shanghai is 18:00Z-19:00Z, got ${coalesce(output.maintenance_window, "null")}."
  }
}

run "refuses_a_basic_class" {
  command = plan
  variables {
    instance_type = "mysql.n2.medium.1"
  }
  expect_failures = [var.instance_type]
}

run "refuses_16k_on_cloud_ssd" {
  command = plan
  variables {
    storage_type     = "cloud_ssd"
    atomic_write_16k = true
  }
  expect_failures = [var.atomic_write_16k]
}

run "refuses_a_parameter_that_restarts" {
  command = plan
  variables {
    parameters = { innodb_buffer_pool_instances = "8" }
  }
  expect_failures = [var.parameters]
}

run "refuses_a_zone_with_daylight_saving_time" {
  command = plan
  variables {
    maintenance_window_local = "02:00-03:00"
    time_zone                = "Europe/Berlin"
  }
  expect_failures = [var.time_zone]
}
