# The office's addresses, kept once for the account and linked to every instance that needs them.
resource "rds_whitelist_template" "office" {
  name         = "office_vpn"
  ip_whitelist = ["203.0.113.0/24", "198.51.100.7"]
}

resource "rds_instance" "orders" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = "mysql.n2.large.2c"
  storage        = 100
  security_ips   = ["10.10.0.0/16"]

  whitelist_template_ids = [rds_whitelist_template.office.id]
}

resource "rds_readonly_instance" "reporting" {
  master_instance_id = rds_instance.orders.id
  instance_type      = "mysqlro.n2.medium.1c"
  storage            = 100

  # Named lists beside the instance's default one, an ECS security group, and the template.
  security_ip_groups = {
    bi_tools = ["10.20.0.0/16"]
  }
  security_group_ids     = ["sg-bp1reporting"]
  whitelist_template_ids = [rds_whitelist_template.office.id]
}
