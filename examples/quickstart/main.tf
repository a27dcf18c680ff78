# Quickstart: one MySQL 8.0 instance with 16K atomic write, an account and a database it may use.
#
# Against the local simulator (what `make demo` does):
#   export ALIBABA_CLOUD_RDS_ENDPOINT=http://127.0.0.1:PORT   # printed by bin/rds-simulator
#   export ALIBABA_CLOUD_ACCESS_KEY_ID=demo-access-key-id
#   export ALIBABA_CLOUD_ACCESS_KEY_SECRET=demo-access-key-secret
#   export TF_VAR_db_password='Quick-start1'                  # the account's password (never stored in state)
# Against the real cloud: leave ALIBABA_CLOUD_RDS_ENDPOINT unset and export your own keys and region.

terraform {
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

# Credentials, region and endpoint come from the ALIBABA_CLOUD_* environment variables.
provider "rds" {}

variable "atomic_write_16k" {
  description = "Set true/false to toggle 16K atomic write (one restart); null lets the provider plan the default (on when eligible)."
  type        = bool
  default     = null
}

resource "rds_instance" "quickstart" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  storage_type   = "cloud_essd"
  instance_name  = "quickstart"
  security_ips   = ["10.0.0.0/24", "127.0.0.1"] # 127.0.0.1: the local simulator's MySQL endpoint accepts the printed login

  atomic_write_16k = var.atomic_write_16k
}

# The account's password: ephemeral, so it reaches the cloud but never the state or a plan file.
variable "db_password" {
  description = "Password of the app account: 8-32 characters, three of upper case, lower case, digits, !@#$%^&*()_+-="
  type        = string
  sensitive   = true
  ephemeral   = true
}

resource "rds_database" "app" {
  instance_id   = rds_instance.quickstart.id
  name          = "app"
  character_set = "utf8mb4"
}

resource "rds_account" "app" {
  instance_id         = rds_instance.quickstart.id
  name                = "app_user"
  password_wo         = var.db_password
  password_wo_version = 1
}

resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.quickstart.id
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.app.name]
}

output "instance_id" {
  value = rds_instance.quickstart.id
}

output "atomic_write_16k" {
  value = rds_instance.quickstart.atomic_write_16k
}

output "connection" {
  value = "${rds_instance.quickstart.connection_string}:${rds_instance.quickstart.port}"
}

output "login" {
  value = "mysql -h ${rds_instance.quickstart.connection_string} -P ${rds_instance.quickstart.port} -u ${rds_account.app.name} -p ${rds_database.app.name}"
}
