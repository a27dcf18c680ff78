output "instances" {
  description = "Connection string, 16K atomic write and Buffer Pool Extension of each variant."
  value = {
    for name, instance in rds_instance.variant : name => {
      id                    = instance.id
      connection_string     = instance.connection_string
      port                  = instance.port
      atomic_write_16k      = instance.atomic_write_16k
      buffer_pool_extension = instance.buffer_pool_extension
    }
  }
}

output "sysbench_prepare" {
  description = "Load the same data set into each variant (run them one after another, or from separate hosts)."
  value = {
    for name, instance in rds_instance.variant : name =>
    "sysbench oltp_write_only ${local.sysbench_common} --mysql-host=${instance.connection_string} --mysql-port=${instance.port} --threads=${var.prepare_threads} prepare"
  }
}

output "sysbench_run" {
  description = "Run the write-only workload on each variant and compare the queries-per-second lines."
  value = {
    for name, instance in rds_instance.variant : name =>
    "sysbench oltp_write_only ${local.sysbench_common} --mysql-host=${instance.connection_string} --mysql-port=${instance.port} --threads=${var.threads} --time=${var.duration_seconds} --report-interval=10 --rand-type=special --rand-spec-pct=15 run"
  }
}
