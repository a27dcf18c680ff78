resource "rds_instance" "primary" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.large.2c"
  storage          = 100
  storage_type     = "cloud_essd"
  zone_id          = "cn-hangzhou-i"
  vpc_id           = "vpc-bp1orders"
  vswitch_id       = "vsw-bp1orders"
  atomic_write_16k = true
}

# Read-only instances inherit atomic_write_16k from the primary; with the primary on, they cannot turn it off.
resource "rds_readonly_instance" "reporting" {
  count              = 2
  master_instance_id = rds_instance.primary.id
  engine_version     = "8.0"
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
  storage_type       = "cloud_essd"
  zone_id            = "cn-hangzhou-i"
  vswitch_id         = "vsw-bp1orders"
  instance_name      = "reporting-${count.index}"
}
