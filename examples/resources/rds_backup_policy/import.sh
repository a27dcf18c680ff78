# A backup policy is imported by its instance id.
terraform import rds_backup_policy.orders rm-bp1example00000
