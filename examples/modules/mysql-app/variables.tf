variable "name" {
  description = "Instance name (2 to 256 characters, starting with a letter)."
  type        = string
}

variable "instance_type" {
  description = "Instance class, High-availability edition."
  type        = string
  default     = "mysql.n2.medium.2c"

  # Provider functions call no API: these checks run in `terraform validate` and under mock_provider.
  validation {
    condition     = can(provider::rds::instance_class(var.instance_type))
    error_message = "instance_type must be a class name such as mysql.n2.medium.2c."
  }
  validation {
    condition     = try(provider::rds::instance_class(var.instance_type).edition, "") == "HighAvailability"
    error_message = "instance_type must be a High-availability class (ending in .2c): this module keeps a standby."
  }
}

variable "storage_type" {
  description = "Storage type."
  type        = string
  default     = "cloud_essd"
}

variable "security_ips" {
  description = "Client addresses allowed to connect (IPs or CIDR blocks)."
  type        = list(string)
}

variable "atomic_write_16k" {
  description = "16K atomic write: null lets the provider plan the default (on when eligible); each toggle restarts the instance."
  type        = bool
  default     = null

  validation {
    condition = var.atomic_write_16k != true || provider::rds::atomic_write_16k({
      engine = "MySQL", engine_version = "8.0", storage_type = var.storage_type, category = "HighAvailability", instance_type = var.instance_type
    }).supported
    error_message = provider::rds::atomic_write_16k({
      engine = "MySQL", engine_version = "8.0", storage_type = var.storage_type, category = "HighAvailability", instance_type = var.instance_type
    }).reason
  }
}

variable "maintenance_window_local" {
  description = "Daily maintenance window in local time (HH:mm-HH:mm, time_zone); null keeps the cloud's."
  type        = string
  default     = null

  validation {
    condition     = var.maintenance_window_local == null || can(provider::rds::maintenance_window_utc(coalesce(var.maintenance_window_local, "-"), var.time_zone))
    error_message = "maintenance_window_local must be HH:mm-HH:mm with different start and end."
  }
}

variable "time_zone" {
  description = "Time zone of maintenance_window_local: UTC, an offset such as +08:00, or a zone without daylight saving time."
  type        = string
  default     = "Asia/Shanghai"

  validation {
    condition     = can(provider::rds::maintenance_window_utc("00:00-01:00", var.time_zone))
    error_message = "time_zone must be UTC, an offset such as +08:00, or a zone name without daylight saving time."
  }
}

variable "parameters" {
  description = "MySQL parameters to tune; this module allows only those that take effect without a restart."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for name in keys(var.parameters) : !provider::rds::parameter_restarts(name, "8.0")])
    error_message = "Only parameters that take effect without a restart may be set (provider::rds::parameter_restarts)."
  }
}

variable "database_name" {
  description = "The application's database."
  type        = string
  default     = "app"
}

variable "account_name" {
  description = "The application's account, granted ReadWrite on the database."
  type        = string
  default     = "app_user"
}

variable "account_password" {
  description = "The account's password. Write-only: it never reaches the state or a plan file."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "account_password_version" {
  description = "Change it to set the account's password to the current account_password."
  type        = number
  default     = 1
}
