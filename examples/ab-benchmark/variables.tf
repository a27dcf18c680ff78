variable "engine_version" {
  description = "MySQL version: 5.7 or 8.0 (the versions 16K atomic write supports)."
  type        = string
  default     = "8.0"
}

variable "instance_type" {
  description = "Class of both instances; the published runs used mysql.n2.large.2c and mysql.x2.large.2c."
  type        = string
  default     = "mysql.x2.large.2c"
}

variable "storage" {
  description = "Storage of both instances in GB; large enough for the data set (30 x 40M rows is about 300 GB)."
  type        = number
  default     = 500
}

variable "storage_type" {
  description = "An ESSD-class storage type."
  type        = string
  default     = "cloud_essd"
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
  description = "Database account the benchmark uses (create it on both instances first)."
  type        = string
  default     = "sbtest"
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
