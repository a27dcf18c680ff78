# The password comes from an ephemeral variable and goes into the write-only password_wo: it is
# never stored in the state or the plan. Raise password_wo_version to set a new password.
variable "app_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "rds_account" "app" {
  instance_id         = "rm-bp1example00000"
  name                = "app_user"
  description         = "Application account"
  password_wo         = var.app_password
  password_wo_version = 1
}

# The privileged account (at most one per instance): every privilege on every database.
resource "rds_account" "admin" {
  instance_id         = "rm-bp1example00000"
  name                = "dba"
  type                = "Super"
  password_wo         = var.app_password
  password_wo_version = 1
}
