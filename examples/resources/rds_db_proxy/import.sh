# The database proxy is imported by its primary instance's id.
terraform import rds_db_proxy.orders rm-bp1example
