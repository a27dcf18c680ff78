resource "rds_instance" "orders" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 100
}

resource "rds_readonly_instance" "reporting" {
  master_instance_id = rds_instance.orders.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100
}

resource "rds_db_proxy" "orders" {
  instance_id = rds_instance.orders.id
}

# A read-only endpoint for analytics: reads only, on the read-only instances, in proportion to
# its own weights; the default endpoint of rds_db_proxy keeps its own.
resource "rds_db_proxy_endpoint" "analytics" {
  instance_id     = rds_db_proxy.orders.instance_id
  description     = "analytics"
  read_write_mode = "ReadOnly"
  read_only_weights = {
    (rds_readonly_instance.reporting.id) = 100
  }
  max_delay_seconds = 60 # reports tolerate more lag than the application

  # Its own address: orders-analytics.rwlb.rds.aliyuncs.com:3307. A later change moves it in place, and
  # the plan names the address that stops answering.
  connection_string_prefix = "orders-analytics"
  port                     = 3307
}
