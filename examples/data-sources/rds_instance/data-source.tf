data "rds_instance" "orders" {
  id = "rm-bp1orders0000000"
}

output "orders_atomic_write" {
  value = {
    enabled   = data.rds_instance.orders.atomic_write_16k
    supported = data.rds_instance.orders.atomic_write_16k_supported
  }
}
