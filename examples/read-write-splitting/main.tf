# Read/write splitting: a primary, two read-only instances and the database proxy in front of them.
# The application connects to the proxy's default endpoint: writes and transactions go to the primary,
# plain reads to the read-only instances, 1:3. Reports connect to a second, read-only endpoint.
# See README.md for a run against the local simulator.

terraform {
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

# Credentials, region and endpoint come from the ALIBABA_CLOUD_* environment variables.
provider "rds" {}

variable "db_password" {
  description = "Password of the app account: 8-32 characters, three of upper case, lower case, digits, !@#$%^&*()_+-="
  type        = string
  sensitive   = true
  ephemeral   = true
}

resource "rds_instance" "orders" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20
  storage_type   = "cloud_essd"
  instance_name  = "orders"
  security_ips   = ["10.0.0.0/24", "127.0.0.1"] # 127.0.0.1: the local simulator's endpoints accept the login
}

resource "rds_readonly_instance" "reads" {
  count              = 2
  master_instance_id = rds_instance.orders.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 20
  instance_name      = "orders-ro-${count.index}"
  security_ip_groups = { default = ["10.0.0.0/24", "127.0.0.1"] } # the same clients as the primary, connecting directly
}

resource "rds_database" "shop" {
  instance_id   = rds_instance.orders.id
  name          = "shop"
  character_set = "utf8mb4"
}

resource "rds_account" "app" {
  instance_id         = rds_instance.orders.id
  name                = "app_user"
  password_wo         = var.db_password
  password_wo_version = 1
}

resource "rds_account_privilege" "app" {
  instance_id  = rds_instance.orders.id
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.shop.name]
}

# The default endpoint: the primary takes no plain reads; the read-only instances take them 1:3.
resource "rds_db_proxy" "orders" {
  instance_id = rds_instance.orders.id
  read_only_weights = {
    primary                             = 0
    (rds_readonly_instance.reads[0].id) = 100
    (rds_readonly_instance.reads[1].id) = 300
  }
  max_delay_seconds = 10
}

# A read-only endpoint for reports: only the second read-only instance, which may lag a minute.
resource "rds_db_proxy_endpoint" "reports" {
  instance_id     = rds_db_proxy.orders.instance_id
  description     = "reports"
  read_write_mode = "ReadOnly"
  read_only_weights = {
    (rds_readonly_instance.reads[1].id) = 100
  }
  max_delay_seconds = 60
}

output "instances" {
  value = {
    primary   = rds_instance.orders.id
    read_only = rds_readonly_instance.reads[*].id
  }
}

output "proxy" {
  value = "${rds_db_proxy.orders.connection_string}:${rds_db_proxy.orders.port}"
}

output "reports" {
  value = "${rds_db_proxy_endpoint.reports.connection_string}:${rds_db_proxy_endpoint.reports.port}"
}
