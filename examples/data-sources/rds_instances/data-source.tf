# Every running MySQL instance whose name starts with "orders", across all pages.
data "rds_instances" "orders" {
  name_regex = "^orders"
  engine     = "MySQL"
  status     = "Running"
}

# Instances that could turn 16K atomic write on: eligible, off, and not Basic edition (a Basic-edition
# instance gets it only at creation).
output "without_atomic_write" {
  value = [for i in data.rds_instances.orders.instances : i.id if i.atomic_write_16k_supported && !i.atomic_write_16k && i.category != "Basic"]
}
