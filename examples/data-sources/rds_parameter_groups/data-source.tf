# The fleet's parameter groups, to apply one to an instance by name.
data "rds_parameter_groups" "fleet" {
  name_regex = "^fleet_default$"
}

resource "rds_instance" "app" {
  engine             = "MySQL"
  engine_version     = "8.0"
  instance_type      = "mysql.n2.medium.2c"
  storage            = 100
  parameter_group_id = data.rds_parameter_groups.fleet.ids[0]
}
