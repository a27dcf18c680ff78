# A grant is imported by <instance_id>:<account_name>:<privilege>; the databases are read from the cloud.
terraform import rds_account_privilege.app_orders rm-bp1example00000:app_user:ReadWrite
