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

# An instance created with the group runs its values from the start (DBParamGroupId, no restart).
# Its own `parameters` win over the group's: wait_timeout runs 600 here, and the plan says so.
resource "rds_instance" "web" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = "mysql.n2.medium.2c"
  storage            = 20
  instance_name      = "web-1"
  parameter_group_id = rds_parameter_group.fleet.id
  parameters = {
    wait_timeout = "600"
  }
}
