variable "parameters" {
  type    = map(string)
  default = { innodb_io_capacity = "4000", sync_binlog = "1" }

  # This module tunes parameters online only: a parameter that needs a restart is refused here.
  validation {
    condition     = alltrue([for name in keys(var.parameters) : !provider::rds::parameter_restarts(name, "8.0")])
    error_message = "Only parameters that take effect without a restart may be set here."
  }
}

output "restarts" {
  value = { for name in keys(var.parameters) : name => provider::rds::parameter_restarts(name, "8.0") }
}
