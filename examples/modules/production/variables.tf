variable "name" {
  description = "Instance name (2 to 256 characters, starting with a letter)."
  type        = string
}

variable "instance_type" {
  description = "Instance class."
  type        = string
  default     = "mysql.n2.medium.2c"
}

variable "storage" {
  description = "Storage in GB."
  type        = number
  default     = 100
}

variable "security_ips" {
  description = "Client addresses allowed to connect (IPs or CIDR blocks)."
  type        = list(string)
}

variable "deletion_protection" {
  description = "Refuse destroys and replacements. Set false (and apply) before destroying the instance."
  type        = bool
  default     = true
}

variable "prevent_restart" {
  description = "Refuse any plan that restarts the instance. Set false for the first apply: SSL and TDE are turned on right after creation, each with a restart."
  type        = bool
  default     = true
}

variable "maintenance_window" {
  description = "Daily UTC window in which deferrable restarts (class, storage, parameters) run."
  type        = string
  default     = "02:00Z-03:00Z"
}

variable "tde_encryption_key" {
  description = "KMS key id for TDE; null: a key the cloud manages. It cannot change once TDE is on."
  type        = string
  default     = null
}

variable "tde_role_arn" {
  description = "ARN of the RAM role RDS assumes to use tde_encryption_key."
  type        = string
  default     = null
}

variable "backup_time" {
  description = "One-hour UTC window of the data backups."
  type        = string
  default     = "03:00Z-04:00Z"
}

variable "backup_days" {
  description = "Days of the data backups (at least two)."
  type        = list(string)
  default     = ["Monday", "Wednesday", "Friday", "Sunday"]
}

variable "backup_retention_days" {
  description = "Days data backups are kept (7-730)."
  type        = number
  default     = 30
}

variable "log_backup_retention_days" {
  description = "Days log backups (point-in-time recovery) are kept: 7 up to backup_retention_days."
  type        = number
  default     = 14
}
