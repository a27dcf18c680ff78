# mysql-app: one MySQL 8.0 instance with 16K atomic write, a database and an account that owns it (ReadWrite).
# tests/ holds two `terraform test` suites: functions.tftest.hcl checks the variables' validation with
# mock_provider (no simulator, no cloud), mysql_app.tftest.hcl applies the module against the local simulator;
# see the guide "Testing your modules".

terraform {
  required_version = ">= 1.11"
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

resource "rds_instance" "this" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = var.instance_type
  storage        = 20
  storage_type   = var.storage_type
  instance_name  = var.name
  security_ips   = var.security_ips

  atomic_write_16k   = var.atomic_write_16k
  maintenance_window = local.maintenance_window
  parameters         = length(var.parameters) > 0 ? var.parameters : null
}

locals {
  maintenance_window = var.maintenance_window_local == null ? null : provider::rds::maintenance_window_utc(var.maintenance_window_local, var.time_zone)
}

resource "rds_database" "app" {
  instance_id   = rds_instance.this.id
  name          = var.database_name
  character_set = "utf8mb4"
}

resource "rds_account" "app" {
  instance_id         = rds_instance.this.id
  name                = var.account_name
  password_wo         = var.account_password
  password_wo_version = var.account_password_version
}

resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.this.id
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.app.name]
}
