# The further endpoints (not the default one) of one instance's database proxy.
list "rds_db_proxy_endpoint" "orders" {
  provider         = rds
  include_resource = true
  config {
    instance_id = "rm-bp1example00000"
  }
}
