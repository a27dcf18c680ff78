# The started database proxies of every primary instance in the region.
list "rds_db_proxy" "all" {
  provider         = rds
  include_resource = true
}
