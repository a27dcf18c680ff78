# A parameter template for a fleet of MySQL 8.0 instances. The group holds exactly these
# parameters: removing a key removes it from the group. back_log takes effect only after a
# restart, so `restarts` is true: applying the group to an instance restarts it.
resource "rds_parameter_group" "fleet" {
  name           = "fleet_default_80"
  description    = "Shared settings of the web fleet"
  engine_version = "8.0"
  parameters = {
    innodb_io_capacity = "4000"
    wait_timeout       = "3600"
    back_log           = "4000"
  }
}

output "group_restarts_instances" {
  value = rds_parameter_group.fleet.restarts
}
