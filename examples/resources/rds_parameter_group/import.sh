# A parameter group is imported by its id.
terraform import rds_parameter_group.fleet rpg-0123456789abcdef
