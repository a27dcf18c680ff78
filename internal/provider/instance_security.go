package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// SSL and TDE of rds_instance (issue 26 §3-4): the schema attributes, the planner's inputs, and the
// read back. The rules, restarts and operations are rdsservice's (security_rules.go, security_program.go). Both are
// managed only when configured: an instance without them costs no extra API call per refresh.

func securityAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"ssl_enabled": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "SSL encryption of the instance's endpoint (`ModifyDBInstanceSSL`, read back with " +
				"`DescribeDBInstanceSSL`). Turning it on or off restarts the instance, with a switchover on High-availability " +
				"and Cluster editions; the plan names the restart, `prevent_restart` refuses it, and `apply_restarts = " +
				"\"in_maintenance_window\"` cannot defer it (the API has no EffectiveTime). Offered on MySQL 5.6 " +
				"High-availability and on MySQL 5.7 and 8.0. Unset: not managed.",
		},
		"ssl_expire_time": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the SSL certificate expires (UTC), one year after SSL was turned on; null when SSL is off or `ssl_enabled` is not set.",
		},
		"tde_enabled": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Transparent Data Encryption (`ModifyDBInstanceTDE`, read back with `DescribeDBInstanceTDE`). " +
				"One way: Alibaba documents that TDE cannot be disabled, so `false` on an instance that has it is a plan error. " +
				"Needs the High-availability or Cluster edition and MySQL 5.6 (minor version 20191015 or later), 5.7 or 8.0. " +
				"Turning it on is planned as a restart (an assumption: Alibaba does not document one). Unset: not managed.",
		},
		"tde_encryption_key": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The KMS key id TDE is turned on with (`EncryptionKey`); unset: a key the cloud manages. " +
				"It cannot change once TDE is on.",
		},
		"tde_role_arn": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "The ARN of the RAM role RDS assumes to use `tde_encryption_key` (`RoleArn`).",
		},
	}
}

// readSecurity reads back what the model manages: SSL when ssl_enabled is set, TDE when
// tde_enabled is set. A read failure is an error: a managed value is never guessed.
func readSecurity(ctx context.Context, api rdsapi.API, id string, m *instanceModel, diags *diag.Diagnostics) {
	m.SSLExpireTime = types.StringNull()
	if !m.SSLEnabled.IsNull() {
		ssl, err := api.DescribeDBInstanceSSL(ctx, id)
		if err != nil {
			diags.AddError("Error reading SSL of RDS instance", fmt.Sprintf("DescribeDBInstanceSSL %s: %v", id, err))
			return
		}
		m.SSLEnabled = types.BoolValue(ssl.Enabled())
		if ssl.Enabled() && ssl.SSLExpireTime != "" {
			m.SSLExpireTime = types.StringValue(ssl.SSLExpireTime)
		}
	}
	if !m.TDEEnabled.IsNull() {
		tde, err := api.DescribeDBInstanceTDE(ctx, id)
		if err != nil {
			diags.AddError("Error reading TDE of RDS instance", fmt.Sprintf("DescribeDBInstanceTDE %s: %v", id, err))
			return
		}
		m.TDEEnabled = types.BoolValue(tde.Enabled())
	}
}
