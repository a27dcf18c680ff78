variable "database" {
  type = object({
    engine_version = string
    storage_type   = string
    category       = string
    instance_type  = string
  })

  # Refuse, before anything is planned, a configuration the plan would refuse with atomic_write_16k = true.
  validation {
    condition = provider::rds::atomic_write_16k({
      engine         = "MySQL"
      engine_version = var.database.engine_version
      storage_type   = var.database.storage_type
      category       = var.database.category
      instance_type  = var.database.instance_type
    }).supported
    error_message = provider::rds::atomic_write_16k({
      engine         = "MySQL"
      engine_version = var.database.engine_version
      storage_type   = var.database.storage_type
      category       = var.database.category
      instance_type  = var.database.instance_type
    }).reason
  }
}

# An existing x86 instance bought before 2025-05-14 cannot turn it on: reason is the plan's own message.
output "old_instance" {
  value = provider::rds::atomic_write_16k({
    engine         = "MySQL"
    engine_version = "8.0"
    storage_type   = "cloud_essd"
    category       = "HighAvailability"
    instance_type  = "mysql.n2.medium.2c"
    purchase_date  = "2024-06-01"
  })
}
