# A backup before a risky migration; its backup_id restores a new instance.
resource "rds_backup" "before_migration" {
  instance_id = "rm-bp1example00000"
}

# A logical backup of one database.
resource "rds_backup" "orders_only" {
  instance_id     = "rm-bp1example00000"
  backup_method   = "Logical"
  backup_strategy = "db"
  db_names        = ["orders"]
}
