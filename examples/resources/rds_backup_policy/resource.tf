# Production backups: daily at 18:00 UTC on four days, data kept 30 days, log backups (point-in-time
# restores) kept 14 days. Attributes left out keep the instance's current values.
resource "rds_backup_policy" "orders" {
  instance_id                 = "rm-bp1example00000"
  preferred_backup_time       = "18:00Z-19:00Z"
  preferred_backup_period     = ["Monday", "Wednesday", "Friday", "Sunday"]
  backup_retention_period     = 30
  log_backup_enabled          = true
  log_backup_retention_period = 14
  local_log_retention_hours   = 24

  # A copy of every set in Shanghai, kept a year, with log backups for point-in-time restores there.
  cross_region = {
    region             = "cn-shanghai"
    retention_days     = 365
    log_backup_enabled = true
  }
}
