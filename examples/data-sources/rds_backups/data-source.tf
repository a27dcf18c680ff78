# Clone last night's backup: the newest set of the last day, restored into a new instance.
data "rds_backups" "last_night" {
  instance_id = "rm-bp1example00000"
  start_time  = formatdate("YYYY-MM-DD'T'hh:mm'Z'", timeadd(plantimestamp(), "-24h"))
}

resource "rds_instance" "clone" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 100
  restore_from = {
    source_instance_id = "rm-bp1example00000"
    backup_id          = data.rds_backups.last_night.backups[0].backup_id
  }
}
