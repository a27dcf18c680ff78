data "rds_zones" "ha" {
  engine         = "MySQL"
  engine_version = "8.0"
  category       = "HighAvailability"
  storage_type   = "cloud_essd"
  multi_zone     = true
}

# The first zone, and a zone for the secondary node.
output "placement" {
  value = {
    zone_id         = data.rds_zones.ha.zones[0].zone_id
    zone_id_slave_a = data.rds_zones.ha.zones[0].secondary_zone_ids[0]
  }
}
