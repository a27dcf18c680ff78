# app_user may read and write the orders database. Adding a database to db_names grants the
# privilege on it, removing one revokes it.
resource "rds_account_privilege" "app_orders" {
  instance_id  = "rm-bp1example00000"
  account_name = "app_user"
  privilege    = "ReadWrite"
  db_names     = ["orders"]
}
