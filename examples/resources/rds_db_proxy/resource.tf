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
  # Reads split 1:3 between the primary and the read-only instance (multiples of 100, at most 10000).
  read_only_weights = {
    primary                              = 100
    (rds_readonly_instance.reporting.id) = 300
  }
  max_delay_seconds = 10 # a read-only instance further behind receives no reads
  features = {
    read_write_splitting   = true
    connection_persist     = false
    transaction_split      = false
    causal_consistent_read = false
  }
}
