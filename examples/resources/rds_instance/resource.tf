resource "rds_instance" "orders" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.large.2c"
  storage        = 100
  storage_type   = "cloud_essd"
  zone_id        = "cn-hangzhou-i"
  vpc_id         = "vpc-bp1orders"
  vswitch_id     = "vsw-bp1orders"
  instance_name  = "orders"
  security_ips   = ["10.0.0.0/16"]

  # Left unset, the plan shows the value the cloud will choose (on, for this eligible configuration).
  atomic_write_16k = true

  # Tuned around 16K atomic write; these apply online. Only the names listed here are managed.
  parameters = {
    innodb_io_capacity     = "4000"
    innodb_flush_neighbors = "0"
    sync_binlog            = "1000"
  }

  # Production guard: any plan that would restart this instance fails instead of warning.
  prevent_restart     = true
  deletion_protection = true

  timeouts = {
    create = "60m"
    update = "30m"
  }
}
