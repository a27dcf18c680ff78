data "rds_accounts" "app" {
  instance_id = "rm-bp1example00000"
  name_regex  = "^app_"
}

output "app_accounts" {
  value = data.rds_accounts.app.names
}
