package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// backupPolicyModel is rds_backup_policy's state, and its mapping to rdsservice.BackupPolicySpec.
type backupPolicyModel struct {
	ID                            types.String `tfsdk:"id"`
	InstanceID                    types.String `tfsdk:"instance_id"`
	PreferredBackupTime           types.String `tfsdk:"preferred_backup_time"`
	PreferredBackupPeriod         types.Set    `tfsdk:"preferred_backup_period"`
	BackupRetentionPeriod         types.Int64  `tfsdk:"backup_retention_period"`
	BackupInterval                types.Int64  `tfsdk:"backup_interval"`
	Category                      types.String `tfsdk:"category"`
	CompressType                  types.String `tfsdk:"compress_type"`
	ArchiveBackupRetentionPeriod  types.Int64  `tfsdk:"archive_backup_retention_period"`
	ArchiveBackupKeepPolicy       types.String `tfsdk:"archive_backup_keep_policy"`
	ArchiveBackupKeepCount        types.Int64  `tfsdk:"archive_backup_keep_count"`
	LogBackupEnabled              types.Bool   `tfsdk:"log_backup_enabled"`
	LocalLogRetentionHours        types.Int64  `tfsdk:"local_log_retention_hours"`
	LocalLogRetentionSpace        types.Int64  `tfsdk:"local_log_retention_space"`
	HighSpaceUsageProtection      types.String `tfsdk:"high_space_usage_protection"`
	LogBackupRetentionPeriod      types.Int64  `tfsdk:"log_backup_retention_period"`
	LogBackupLocalRetentionNumber types.Int64  `tfsdk:"log_backup_local_retention_number"`
	PreventDataLoss               types.Bool   `tfsdk:"prevent_data_loss"`
	CrossRegion                   types.Object `tfsdk:"cross_region"`
}

// policyField binds one attribute to its field of the spec.
type policyField struct {
	name  string
	value attr.Value
	// take copies the attribute's (known) value into the spec; give sets it from the spec.
	take func(*rdsservice.BackupPolicySpec)
	give func(rdsservice.BackupPolicySpec)
}

func (m *backupPolicyModel) fields() []policyField {
	str := func(name string, v *types.String, f func(*rdsservice.BackupPolicySpec) *string) policyField {
		return policyField{name, *v, func(s *rdsservice.BackupPolicySpec) { *f(s) = v.ValueString() },
			func(s rdsservice.BackupPolicySpec) { *v = types.StringValue(*f(&s)) }}
	}
	num := func(name string, v *types.Int64, f func(*rdsservice.BackupPolicySpec) *int64) policyField {
		return policyField{name, *v, func(s *rdsservice.BackupPolicySpec) { *f(s) = v.ValueInt64() },
			func(s rdsservice.BackupPolicySpec) { *v = types.Int64Value(*f(&s)) }}
	}
	return []policyField{
		str(rdsservice.AttrBackupTime, &m.PreferredBackupTime, func(s *rdsservice.BackupPolicySpec) *string { return &s.PreferredBackupTime }),
		{rdsservice.AttrBackupPeriod, m.PreferredBackupPeriod,
			func(s *rdsservice.BackupPolicySpec) { s.PreferredBackupPeriod = weekDays(m.PreferredBackupPeriod) },
			func(s rdsservice.BackupPolicySpec) { m.PreferredBackupPeriod = weekDaySet(s.PreferredBackupPeriod) }},
		num(rdsservice.AttrBackupRetention, &m.BackupRetentionPeriod, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.BackupRetentionPeriod }),
		num(rdsservice.AttrBackupInterval, &m.BackupInterval, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.BackupInterval }),
		str(rdsservice.AttrBackupCategory, &m.Category, func(s *rdsservice.BackupPolicySpec) *string { return &s.Category }),
		str(rdsservice.AttrCompressType, &m.CompressType, func(s *rdsservice.BackupPolicySpec) *string { return &s.CompressType }),
		num(rdsservice.AttrArchiveRetention, &m.ArchiveBackupRetentionPeriod, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.ArchiveBackupRetentionPeriod }),
		str(rdsservice.AttrArchiveKeepPolicy, &m.ArchiveBackupKeepPolicy, func(s *rdsservice.BackupPolicySpec) *string { return &s.ArchiveBackupKeepPolicy }),
		num(rdsservice.AttrArchiveKeepCount, &m.ArchiveBackupKeepCount, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.ArchiveBackupKeepCount }),
		{rdsservice.AttrLogBackupEnabled, m.LogBackupEnabled,
			func(s *rdsservice.BackupPolicySpec) { s.LogBackupEnabled = m.LogBackupEnabled.ValueBool() },
			func(s rdsservice.BackupPolicySpec) { m.LogBackupEnabled = types.BoolValue(s.LogBackupEnabled) }},
		num(rdsservice.AttrLocalLogHours, &m.LocalLogRetentionHours, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.LocalLogRetentionHours }),
		num(rdsservice.AttrLocalLogSpace, &m.LocalLogRetentionSpace, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.LocalLogRetentionSpace }),
		str(rdsservice.AttrHighSpaceProtection, &m.HighSpaceUsageProtection, func(s *rdsservice.BackupPolicySpec) *string { return &s.HighSpaceUsageProtection }),
		num(rdsservice.AttrLogRetention, &m.LogBackupRetentionPeriod, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.LogBackupRetentionPeriod }),
		num(rdsservice.AttrLocalLogNumber, &m.LogBackupLocalRetentionNumber, func(s *rdsservice.BackupPolicySpec) *int64 { return &s.LogBackupLocalRetentionNumber }),
	}
}

// spec is the policy the model asks for: its known values over current (the cloud's policy);
// without current, attributes that are not known are marked Unknown.
func (m *backupPolicyModel) spec(current *rdsservice.BackupPolicySpec) rdsservice.BackupPolicySpec {
	var out rdsservice.BackupPolicySpec
	if current != nil {
		out = *current
	}
	out.Unknown = map[string]bool{}
	for _, f := range m.fields() {
		switch {
		case isKnown(f.value):
			f.take(&out)
		case current == nil:
			out.Unknown[f.name] = true
		}
	}
	out.CrossRegion = crossRegionOf(context.Background(), m.CrossRegion, &diag.Diagnostics{})
	return out
}

// fill sets every attribute from the policy the cloud reports (drift shows as a change).
func (m *backupPolicyModel) fill(p rdsservice.BackupPolicySpec) {
	for _, f := range m.fields() {
		f.give(p)
	}
	m.ID = m.InstanceID
	m.PreventDataLoss = withPreventDataLoss(m.PreventDataLoss)
}

// fillUnknown sets the attributes the plan does not know to the cloud's values: left out of the
// configuration, they stay as they are.
func (m *backupPolicyModel) fillUnknown(p rdsservice.BackupPolicySpec) {
	for _, f := range m.fields() {
		if f.value.IsUnknown() {
			f.give(p)
		}
	}
}

// weekDays are the set's days, Monday first.
func weekDays(s types.Set) []string {
	var out []string
	for _, e := range s.Elements() {
		if v, ok := e.(types.String); ok {
			out = append(out, v.ValueString())
		}
	}
	return rdsservice.SortWeekDays(out)
}

func weekDaySet(items []string) types.Set {
	v, _ := types.SetValueFrom(context.Background(), types.StringType, items)
	return v
}
