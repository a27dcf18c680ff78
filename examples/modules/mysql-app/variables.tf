variable "name" {
  description = "Instance name (2 to 256 characters, starting with a letter)."
  type        = string
}

variable "instance_type" {
  description = "Instance class."
  type        = string
  default     = "mysql.n2.medium.2c"
}

variable "security_ips" {
  description = "Client addresses allowed to connect (IPs or CIDR blocks)."
  type        = list(string)
}

variable "atomic_write_16k" {
  description = "16K atomic write: null lets the provider plan the default (on when eligible); each toggle restarts the instance."
  type        = bool
  default     = null
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
