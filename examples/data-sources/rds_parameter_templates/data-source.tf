data "rds_parameter_templates" "mysql80" {
  engine         = "MySQL"
  engine_version = "8.0"
}

# The parameters whose change restarts the instance, for a module that wants to keep them out.
output "restart_required" {
  value = [for p in data.rds_parameter_templates.mysql80.parameters : p.name if p.restart_required]
}
