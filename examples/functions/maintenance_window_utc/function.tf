variable "maintenance_window_local" {
  type        = string
  default     = "02:00-03:00"
  description = "Daily maintenance window in Beijing time."

  validation {
    condition     = can(provider::rds::maintenance_window_utc(var.maintenance_window_local, "Asia/Shanghai"))
    error_message = "Give the window as HH:mm-HH:mm, with different start and end."
  }
}

# "18:00Z-19:00Z", the form rds_instance's maintenance_window takes.
output "maintenance_window" {
  value = provider::rds::maintenance_window_utc(var.maintenance_window_local, "Asia/Shanghai")
}
