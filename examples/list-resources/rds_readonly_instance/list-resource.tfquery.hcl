# Every read-only instance in one VPC.
list "rds_readonly_instance" "replicas" {
  provider         = rds
  include_resource = true
  config {
    vpc_id = "vpc-bp1example00000"
  }
}
