# The account's office templates, to manage them with the instances that link them.
list "rds_whitelist_template" "office" {
  provider         = rds
  include_resource = true
  config {
    name = "office"
  }
}
