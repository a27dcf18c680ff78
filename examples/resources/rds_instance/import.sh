# An instance is imported by its id.
terraform import rds_instance.orders rm-bp1orders0000000
