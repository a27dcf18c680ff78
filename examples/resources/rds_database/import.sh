# A database is imported by <instance_id>:<name>.
terraform import rds_database.orders rm-bp1example00000:orders
