# The region's parameter groups whose name starts with "fleet_".
list "rds_parameter_group" "fleet" {
  provider         = rds
  include_resource = true
  config {
    name_regex = "^fleet_"
  }
}
