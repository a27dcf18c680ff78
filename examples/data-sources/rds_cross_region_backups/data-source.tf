# The copies of the last 30 days in the destination region.
data "rds_cross_region_backups" "last_month" {
  instance_id = "rm-bp1example00000"
  region      = "cn-shanghai"
  start_time  = formatdate("YYYY-MM-DD'T'hh:mm:ss'Z'", timeadd(plantimestamp(), "-720h"))
  end_time    = formatdate("YYYY-MM-DD'T'hh:mm:ss'Z'", plantimestamp())
}

output "newest_copy" {
  value = try(data.rds_cross_region_backups.last_month.backups[0].cross_backup_id, null)
}
