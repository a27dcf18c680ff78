# An account is imported by <instance_id>:<name>. Its password cannot be read: the first apply after
# the import sets it to password_wo (the new password_wo_version counts as a change).
terraform import rds_account.app rm-bp1example00000:app_user
