output "instance_id" {
  value = rds_instance.this.id
}

output "address" {
  description = "host:port applications connect to (with TLS)."
  value       = "${rds_instance.this.connection_string}:${rds_instance.this.port}"
}

output "ssl_enabled" {
  value = rds_instance.this.ssl_enabled
}

output "ssl_expire_time" {
  description = "When the SSL certificate expires; renew it before then."
  value       = rds_instance.this.ssl_expire_time
}

output "tde_enabled" {
  value = rds_instance.this.tde_enabled
}

output "deletion_protection" {
  value = rds_instance.this.deletion_protection
}

output "prevent_restart" {
  value = rds_instance.this.prevent_restart
}

output "backup_retention_period" {
  value = rds_backup_policy.this.backup_retention_period
}

output "log_backup_retention_period" {
  value = rds_backup_policy.this.log_backup_retention_period
}
