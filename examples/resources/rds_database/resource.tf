resource "rds_database" "orders" {
  instance_id   = "rm-bp1example00000"
  name          = "orders"
  character_set = "utf8mb4"
  description   = "Orders of the shop"
}
