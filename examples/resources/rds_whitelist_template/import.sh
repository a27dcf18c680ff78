# A whitelist template is imported by its id (TemplateId).
terraform import rds_whitelist_template.office 412
