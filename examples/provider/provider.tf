terraform {
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

# Credentials come from the environment (ALIBABA_CLOUD_ACCESS_KEY_ID, ALIBABA_CLOUD_ACCESS_KEY_SECRET)
# or from an Alibaba Cloud CLI profile; never write a secret into a configuration file.
provider "rds" {
  region = "cn-hangzhou"
}
