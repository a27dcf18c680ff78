data "rds_databases" "all" {
  instance_id = "rm-bp1example00000"
}

# Which accounts may use each database, and how.
output "grants" {
  value = { for db in data.rds_databases.all.databases : db.name => db.accounts }
}
