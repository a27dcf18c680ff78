# A production instance whose restarts happen in its maintenance window: a change to atomic_write_16k, the class or
# a parameter that needs a restart is scheduled for the next 02:00Z-03:00Z window and the apply returns at once; all
# of them waiting for one window make one restart. See README.md.
terraform {
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

variable "instance_type" {
  type    = string
  default = "mysql.n2.medium.2c"
}

variable "atomic_write_16k" {
  type    = bool
  default = false
}

variable "back_log" {
  description = "A MySQL parameter that takes effect only after a restart."
  type        = string
  default     = "3000"
}

resource "rds_instance" "orders" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = var.instance_type
  storage            = 20
  zone_id            = "cn-hangzhou-i"
  vpc_id             = "vpc-orders"
  vswitch_id         = "vsw-orders"
  instance_name      = "orders"
  maintenance_window = "02:00Z-03:00Z"
  apply_restarts     = "in_maintenance_window"
  atomic_write_16k   = var.atomic_write_16k
  parameters = {
    back_log = var.back_log
  }
}

output "scheduled_change" {
  description = "What waits for the maintenance window, if anything."
  value       = rds_instance.orders.scheduled_change
}

output "parameters_pending" {
  description = "Parameters configured but waiting for a restart (the window's)."
  value       = rds_instance.orders.parameters_pending
}
