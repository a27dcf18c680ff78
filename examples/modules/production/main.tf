# production: one MySQL 8.0 High-availability instance set up for production data: deletion protection,
# prevent_restart, restarts left to the maintenance window where the API can defer them, SSL, TDE (optionally
# with your own KMS key), a backup policy with point-in-time recovery, and the latest backup set kept when the
# instance is released. tests/ applies it against the local simulator (`make test-modules`).
#
# A new instance gets SSL and TDE right after its creation, each with a restart the plan names; prevent_restart
# refuses restarts, so create the instance with prevent_restart = false, then keep the default (true).

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
  category       = "HighAvailability"
  instance_type  = var.instance_type
  storage        = var.storage
  storage_type   = "cloud_essd"
  instance_name  = var.name
  security_ips   = var.security_ips

  deletion_protection  = var.deletion_protection
  prevent_restart      = var.prevent_restart
  maintenance_window   = var.maintenance_window
  apply_restarts       = "in_maintenance_window"
  released_keep_policy = "Lastest"

  ssl_enabled        = true
  tde_enabled        = true
  tde_encryption_key = var.tde_encryption_key
  tde_role_arn       = var.tde_role_arn
}

resource "rds_backup_policy" "this" {
  instance_id                 = rds_instance.this.id
  preferred_backup_time       = var.backup_time
  preferred_backup_period     = var.backup_days
  backup_retention_period     = var.backup_retention_days
  log_backup_enabled          = true
  log_backup_retention_period = var.log_backup_retention_days
}
