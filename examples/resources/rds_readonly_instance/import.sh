# A read-only instance is imported by its id; its primary is read from the cloud.
terraform import 'rds_readonly_instance.reporting[0]' rr-bp1reporting00000
