data "rds_instance_classes" "app" {
  zone_id                    = "cn-hangzhou-i"
  engine_version             = "8.0"
  category                   = "HighAvailability"
  storage_type               = "cloud_essd"
  min_memory_gib             = 8
  atomic_write_16k           = true
  preferred_instance_classes = ["mysql.x4m.medium.2c", "mysql.x4.medium.2c", "mysql.n4.medium.2c"]
}

resource "rds_instance" "app" {
  engine         = "MySQL"
  engine_version = "8.0"
  instance_type  = data.rds_instance_classes.app.instance_class
  storage        = 100
  storage_type   = "cloud_essd"
  zone_id        = "cn-hangzhou-i"
  vpc_id         = "vpc-bp1app"
  vswitch_id     = "vsw-bp1app"
}
