# The backup policies of the "orders-" primaries, to manage them next to the instances.
list "rds_backup_policy" "orders" {
  provider         = rds
  include_resource = true
  config {
    name_regex = "^orders-"
  }
}
