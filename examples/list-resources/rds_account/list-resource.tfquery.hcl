# The accounts of one instance. Without instance_id, those of every primary instance in the region.
list "rds_account" "orders" {
  provider         = rds
  include_resource = true
  config {
    instance_id = "rm-bp1example00000"
  }
}
