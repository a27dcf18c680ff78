variable "instance_type" {
  type    = string
  default = "mysql.n4.medium.2c"

  validation {
    condition     = provider::rds::instance_class(var.instance_type).memory_gib >= 8
    error_message = "The application needs at least 8 GiB of memory."
  }
  validation {
    condition     = provider::rds::instance_class(var.instance_type).edition == "HighAvailability"
    error_message = "Production instances are High-availability edition (a class ending in .2c)."
  }
}

# { family = "n4", group = "General", cpu = 2, memory_gib = 8, architecture = "x86", edition = "HighAvailability" }
output "class" {
  value = provider::rds::instance_class(var.instance_type)
}
