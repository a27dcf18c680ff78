output "instance_id" {
  value = rds_instance.this.id
}

output "address" {
  description = "host:port applications connect to."
  value       = "${rds_instance.this.connection_string}:${rds_instance.this.port}"
}

output "atomic_write_16k" {
  value = rds_instance.this.atomic_write_16k
}

output "database_name" {
  value = rds_database.app.name
}

output "account_name" {
  value = rds_account.app.name
}

output "account_privilege" {
  value = rds_account_privilege.app.privilege
}

output "maintenance_window" {
  description = "The UTC window maintenance_window_local becomes."
  value       = local.maintenance_window
}
