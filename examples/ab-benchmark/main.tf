# A/B benchmark of 16K atomic write: two otherwise identical instances, one with the feature on and one with it
# off, and the sysbench commands to compare them. Run the printed commands from a host inside the VPC.
terraform {
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

locals {
  variants = {
    on  = true
    off = false
  }
}

resource "rds_instance" "variant" {
  for_each = local.variants

  engine           = "MySQL"
  engine_version   = var.engine_version
  instance_type    = var.instance_type
  storage          = var.storage
  storage_type     = var.storage_type
  zone_id          = var.zone_id
  vpc_id           = var.vpc_id
  vswitch_id       = var.vswitch_id
  security_ips     = var.client_cidrs
  instance_name    = "ab-atomic-write-${each.key}"
  atomic_write_16k = each.value
}

locals {
  # The published runs: 30 tables x 40M rows, 64 threads, 100 s, skewed access.
  sysbench_common = join(" ", [
    "--db-driver=mysql",
    "--mysql-user=${var.mysql_user}",
    "--mysql-password=\"$MYSQL_PASSWORD\"",
    "--mysql-db=sbtest",
    "--tables=${var.tables}",
    "--table-size=${var.table_size}",
  ])
}
