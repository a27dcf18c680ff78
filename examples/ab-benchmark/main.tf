# A/B benchmark of 16K atomic write, reproducing Alibaba's published setup: otherwise identical High-availability
# MySQL 8.0 instances on Premium ESSD (general_essd), one with 16K atomic write off (the baseline), one with it on
# (published: +47% write QPS on a dedicated class, +48% on a general-purpose class) and one with it on together with
# Buffer Pool Extension (published: +93%). The provider also creates the sysbench account and database on each
# instance, so the printed commands run as they are from a client host in the same VPC. See README.md.
terraform {
  required_version = ">= 1.11" # write-only attributes (password_wo)
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

resource "rds_instance" "variant" {
  for_each = var.variants

  engine                = "MySQL"
  engine_version        = var.engine_version
  category              = "HighAvailability"
  instance_type         = var.instance_type
  storage               = var.storage
  storage_type          = var.storage_type
  zone_id               = var.zone_id
  vpc_id                = var.vpc_id
  vswitch_id            = var.vswitch_id
  security_ips          = var.client_cidrs
  instance_name         = "ab-atomic-write-${each.key}"
  atomic_write_16k      = each.value.atomic_write_16k
  buffer_pool_extension = each.value.buffer_pool_extension
}

resource "rds_database" "sbtest" {
  for_each = rds_instance.variant

  instance_id   = each.value.id
  name          = "sbtest"
  character_set = "utf8mb4"
}

resource "rds_account" "sbtest" {
  for_each = rds_instance.variant

  instance_id         = each.value.id
  name                = var.mysql_user
  type                = "Normal"
  password_wo         = var.mysql_password
  password_wo_version = var.mysql_password_version
}

resource "rds_account_privilege" "sbtest" {
  for_each = rds_instance.variant

  instance_id  = each.value.id
  account_name = rds_account.sbtest[each.key].name
  privilege    = "ReadWrite"
  db_names     = [rds_database.sbtest[each.key].name]
}

locals {
  # The published runs: oltp_write_only, 30 tables x 40M rows (about 300 GB), 64 threads, 100 s, skewed access.
  sysbench_common = join(" ", [
    "--db-driver=mysql",
    "--mysql-user=${var.mysql_user}",
    "--mysql-password=\"$MYSQL_PASSWORD\"",
    "--mysql-db=sbtest",
    "--tables=${var.tables}",
    "--table-size=${var.table_size}",
  ])
}
