# The databases whose name starts with "orders", on every primary instance in the region.
list "rds_database" "orders" {
  provider         = rds
  include_resource = true
  config {
    name_regex = "^orders"
  }
}
