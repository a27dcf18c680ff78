# A proxy endpoint is imported by its primary instance's id and its endpoint id.
terraform import rds_db_proxy_endpoint.analytics rm-bp1example:ta9um4example
