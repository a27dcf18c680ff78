variable "engine_version" {
  description = "MySQL version: 5.7 or 8.0 (the versions 16K atomic write supports)."
  type        = string
  default     = "8.0"
}

variable "variants" {
  description = "The instances to compare: the published baseline (off), 16K atomic write on, and on with Buffer Pool Extension."
  type = map(object({
    atomic_write_16k      = bool
    buffer_pool_extension = bool
  }))
  default = {
    off    = { atomic_write_16k = false, buffer_pool_extension = false }
    on     = { atomic_write_16k = true, buffer_pool_extension = false }
    on_bpe = { atomic_write_16k = true, buffer_pool_extension = true }
  }
}

variable "instance_type" {
  description = "Class of every variant (4 cores, 8 GB): mysql.x2.large.2c (dedicated, +47% published) or mysql.n2.large.2c (general-purpose, +48%)."
  type        = string
  default     = "mysql.x2.large.2c"
}

variable "storage" {
  description = "Storage of both instances in GB; large enough for the data set (30 x 40M rows is about 300 GB)."
  type        = number
  default     = 500
}

variable "storage_type" {
  description = "Premium ESSD (general_essd), as in the published runs; Buffer Pool Extension needs it."
  type        = string
  default     = "general_essd"
}

variable "zone_id" {
  type = string
}

variable "vpc_id" {
  type = string
}

variable "vswitch_id" {
  type = string
}

variable "client_cidrs" {
  description = "Addresses allowed to connect (the benchmark host)."
  type        = list(string)
}

variable "mysql_user" {
  description = "Database account the benchmark uses; this configuration creates it on every variant."
  type        = string
  default     = "sbtest"
}

variable "mysql_password" {
  description = "Password of the benchmark account. Write-only: it never reaches the state or the plan. Export the same value as MYSQL_PASSWORD on the client host."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "mysql_password_version" {
  description = "Change it to set a new mysql_password on the accounts."
  type        = number
  default     = 1
}

variable "prepare_threads" {
  description = "Threads for sysbench prepare (loading 300 GB with one thread takes hours)."
  type        = number
  default     = 30
}

variable "tables" {
  type    = number
  default = 30
}

variable "table_size" {
  type    = number
  default = 40000000
}

variable "threads" {
  type    = number
  default = 64
}

variable "duration_seconds" {
  type    = number
  default = 100
}
