# `terraform query -generate-config-out=generated.tf` writes a resource and an import block for every
# instance found: here the MySQL primaries whose name starts with "orders-".
list "rds_instance" "orders" {
  provider         = rds
  include_resource = true
  config {
    name_regex = "^orders-"
    engine     = "MySQL"
  }
}
