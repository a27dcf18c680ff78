package provider

// `moved { from = alicloud_db_instance.x  to = rds_instance.x }`: Terraform hands the source's raw
// state to MoveResourceState, and the target builds its own state from it. The mapping below names,
// for each alicloud resource type, the attributes this provider also has (the alicloud schemas are
// those of aliyun/terraform-provider-alicloud, alicloud/resource_alicloud_db_*.go and
// resource_alicloud_rds_account.go). Everything else is left null for the refresh that follows the
// move, which reads the instance as an import does. Passwords are never read from the source.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

var (
	_ resource.ResourceWithMoveState = (*instanceResource)(nil)
	_ resource.ResourceWithMoveState = (*readonlyInstanceResource)(nil)
	_ resource.ResourceWithMoveState = (*accountResource)(nil)
	_ resource.ResourceWithMoveState = (*databaseResource)(nil)
	_ resource.ResourceWithMoveState = (*accountPrivilegeResource)(nil)
)

// alicloudProvider is the registry address of the alicloud provider; hashicorp/alicloud is the
// address it was first published under and still resolves to it.
const alicloudProvider = "registry.terraform.io/aliyun/alicloud"

// alicloudMapping copies one source attribute into one target attribute.
type alicloudMapping struct {
	target string
	// sources are the source attribute names, preferred first (alicloud keeps deprecated names
	// such as `name` next to `account_name`).
	sources []string
	kind    alicloudKind
}

type alicloudKind int

const (
	kindString alicloudKind = iota
	kindInt                 // a JSON number, or a string holding one (alicloud's `port`)
	kindBool
	kindStringSet
	kindStringMap
)

// alicloudMove is how one target resource is built from alicloud's resource types.
type alicloudMove struct {
	target  string   // rds_instance
	sources []string // alicloud_db_instance
	mapping []alicloudMapping
	// check refuses a source this provider cannot manage; finish sets the attributes that need more
	// than a copy (parameters, atomic_write_16k, an id assembled from parts).
	check  func(src alicloudState) error
	finish func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse)
}

// alicloudState is the source's raw state, decoded.
type alicloudState struct {
	typeName string
	target   string // the resource type it moves into
	attrs    map[string]any
}

// moveFromAlicloud returns the one state mover of m.
func moveFromAlicloud(m alicloudMove) []resource.StateMover {
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		src, err := m.source(req)
		if err == nil && m.check != nil {
			err = m.check(src)
		}
		if err != nil {
			addMoveError(&resp.Diagnostics, m.target, err)
			return
		}
		for _, a := range m.mapping {
			if _, ok := resp.TargetState.Schema.GetAttributes()[a.target]; !ok {
				continue // an attribute this build of the target does not have (tags, before they exist)
			}
			v, err := src.value(a)
			if err != nil {
				resp.Diagnostics.AddError("Cannot move into "+m.target, err.Error())
				return
			}
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(a.target), v)...)
		}
		if m.finish != nil {
			m.finish(ctx, src, resp)
		}
	}}}
}

// addMoveError adds a refusal of the rule table as the row renders it (a move has no attribute to
// point at), and any other error, a source state this provider cannot read, as it is.
func addMoveError(diags *diag.Diagnostics, target string, err error) {
	var refusal rdsservice.Problem
	if errors.As(err, &refusal) {
		addProblems(diags, []rdsservice.Problem{refusal.At("")})
		return
	}
	diags.AddError("Cannot move into "+target, err.Error())
}

// source checks the source's provider and type and decodes its raw state.
func (m alicloudMove) source(req resource.MoveStateRequest) (alicloudState, error) {
	from := req.SourceTypeName
	if isThisProvider(req.SourceProviderAddress, from) {
		return alicloudState{}, rdsservice.Raise(rdsservice.RuleMoveWithinProvider, from, m.target, from)
	}
	if !isAlicloudProvider(req.SourceProviderAddress) {
		return alicloudState{}, rdsservice.Raise(rdsservice.RuleMoveOtherProvider, from, m.target, alicloudProvider, from, req.SourceProviderAddress)
	}
	if !slices.Contains(m.sources, from) {
		return alicloudState{}, rdsservice.Raise(rdsservice.RuleMoveOtherType, from, m.target, strings.Join(m.sources, " or "), from)
	}
	if req.SourceRawState == nil || len(req.SourceRawState.JSON) == 0 {
		return alicloudState{}, rdsservice.Raise(rdsservice.RuleMoveNoAttributes, from, m.target, from)
	}
	dec := json.NewDecoder(bytes.NewReader(req.SourceRawState.JSON))
	dec.UseNumber()
	src := alicloudState{typeName: from, target: m.target}
	if err := dec.Decode(&src.attrs); err != nil {
		return alicloudState{}, fmt.Errorf("the state of %s is not a JSON object: %v", from, err)
	}
	return src, nil
}

// isAlicloudProvider accepts aliyun/alicloud and hashicorp/alicloud on any registry host.
func isAlicloudProvider(addr string) bool {
	parts := strings.Split(addr, "/")
	return len(parts) == 3 && parts[2] == "alicloud" && (parts[1] == "aliyun" || parts[1] == "hashicorp")
}

// isThisProvider reports whether a move's source is one of this provider's resources (a type of
// its own, rds_..., under a provider address named rds).
func isThisProvider(addr, typeName string) bool {
	parts := strings.Split(addr, "/")
	return len(parts) == 3 && parts[2] == "rds" && strings.HasPrefix(typeName, "rds_")
}

// raw is the first of names the source holds with a non-empty value.
func (s alicloudState) raw(names ...string) (string, any) {
	for _, n := range names {
		v, ok := s.attrs[n]
		if !ok || v == nil || v == "" {
			continue
		}
		return n, v
	}
	return "", nil
}

// str is the first of names the source holds as a non-empty string, "" when none.
func (s alicloudState) str(names ...string) string {
	_, v := s.raw(names...)
	out, _ := v.(string)
	return out
}

// value is a's source value as the target attribute's type; null when the source has none.
func (s alicloudState) value(a alicloudMapping) (attr.Value, error) {
	name, v := s.raw(a.sources...)
	bad := func() error {
		return fmt.Errorf("%s.%s is %v (%T), which is not a %s", s.typeName, name, v, v, a.kind)
	}
	switch a.kind {
	case kindInt:
		if v == nil {
			return types.Int64Null(), nil
		}
		n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64)
		if err != nil {
			return nil, bad()
		}
		return types.Int64Value(n), nil
	case kindBool:
		b, ok := v.(bool)
		if v != nil && !ok {
			return nil, bad()
		}
		if v == nil {
			return types.BoolNull(), nil
		}
		return types.BoolValue(b), nil
	case kindStringSet:
		return s.stringSet(name, v)
	case kindStringMap:
		return s.stringMap(name, v)
	}
	str, ok := v.(string)
	if v != nil && !ok {
		return nil, bad()
	}
	if v == nil {
		return types.StringNull(), nil
	}
	return types.StringValue(str), nil
}

func (k alicloudKind) String() string {
	return [...]string{"string", "whole number", "bool", "list of strings", "map of strings"}[k]
}

// stringSet reads a JSON array of strings (alicloud's sets are arrays in state).
func (s alicloudState) stringSet(name string, v any) (attr.Value, error) {
	if v == nil {
		return types.SetNull(types.StringType), nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.%s is %v, which is not a list of strings", s.typeName, name, v)
	}
	elems := make([]attr.Value, 0, len(items))
	for _, it := range items {
		str, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s holds %v, which is not a string", s.typeName, name, it)
		}
		elems = append(elems, types.StringValue(str))
	}
	return types.SetValueMust(types.StringType, elems), nil
}

// stringMap reads a JSON object of strings (alicloud's `tags`).
func (s alicloudState) stringMap(name string, v any) (attr.Value, error) {
	if v == nil {
		return types.MapNull(types.StringType), nil
	}
	items, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s.%s is %v, which is not a map of strings", s.typeName, name, v)
	}
	elems := map[string]attr.Value{}
	for k, it := range items {
		str, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s[%q] is %v, which is not a string", s.typeName, name, k, it)
		}
		elems[k] = types.StringValue(str)
	}
	return types.MapValueMust(types.StringType, elems), nil
}

// parameters reads alicloud's `parameters`, a set of {name, value} blocks, as this provider's map;
// null when the source manages none.
func (s alicloudState) parameters() (types.Map, error) {
	items, _ := s.attrs["parameters"].([]any)
	if len(items) == 0 {
		return types.MapNull(types.StringType), nil
	}
	elems := map[string]attr.Value{}
	for _, it := range items {
		block, _ := it.(map[string]any)
		name, _ := block["name"].(string)
		value, _ := block["value"].(string)
		if name == "" {
			return types.MapNull(types.StringType), fmt.Errorf("%s.parameters holds %v, which has no name", s.typeName, it)
		}
		elems[name] = types.StringValue(value)
	}
	return types.MapValueMust(types.StringType, elems), nil
}

// checkEngine refuses an instance of an engine rds_instance does not manage.
func (s alicloudState) checkEngine() error {
	engine := s.str("engine")
	if engine != "" && !slices.Contains(engines, engine) {
		return rdsservice.Raise(rdsservice.RuleMoveUnmanagedEngine, engine, s.target, s.typeName, engine, strings.Join(engines, " and "))
	}
	return nil
}

// finishInstance sets an instance's `parameters` from the source's, prevent_restart to its
// default as an import does, and apply_restarts from alicloud's effective_time.
func finishInstance(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
	params, err := src.parameters()
	if err != nil {
		resp.Diagnostics.AddError("Cannot move "+src.typeName, err.Error())
		return
	}
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("parameters"), params)...)
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("prevent_restart"), false)...)
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("apply_restarts"), alicloudApplyRestarts(src))...)
}

// alicloudOptimizedWrites is alicloud's `optimized_writes` ("optimized", "none") as atomic_write_16k.
func alicloudOptimizedWrites(src alicloudState) types.Bool {
	switch src.str("optimized_writes") {
	case "optimized":
		return types.BoolValue(true)
	case "none":
		return types.BoolValue(false)
	}
	return types.BoolNull()
}

// joinedID is the id of an account, database or privilege: the instance id and the names, joined
// with ':' as both providers do.
func joinedID(parts ...string) types.String {
	for _, p := range parts {
		if p == "" {
			return types.StringNull()
		}
	}
	return types.StringValue(strings.Join(parts, ":"))
}

// requireParts refuses a source missing the attributes its id is made of.
func requireParts(src alicloudState, names ...[]string) error {
	for _, alternatives := range names {
		if src.str(alternatives...) == "" {
			return rdsservice.Raise(rdsservice.RuleMoveMissingPart, "", src.target, src.typeName, strings.Join(alternatives, " or "))
		}
	}
	return nil
}

// MoveState moves alicloud_db_instance into rds_instance.
func (r *instanceResource) MoveState(context.Context) []resource.StateMover {
	return moveFromAlicloud(alicloudMove{
		target: "rds_instance", sources: []string{"alicloud_db_instance"},
		mapping: append([]alicloudMapping{
			{"id", []string{"id"}, kindString}, {"engine", []string{"engine"}, kindString},
			{"engine_version", []string{"engine_version"}, kindString}, {"instance_type", []string{"instance_type"}, kindString},
			{"storage", []string{"instance_storage"}, kindInt}, {"storage_type", []string{"db_instance_storage_type"}, kindString},
			{"category", []string{"category"}, kindString}, {"zone_id", []string{"zone_id"}, kindString},
			{"vpc_id", []string{"vpc_id"}, kindString}, {"vswitch_id", []string{"vswitch_id"}, kindString},
			{"instance_name", []string{"instance_name"}, kindString}, {"security_ips", []string{"security_ips"}, kindStringSet},
			{"deletion_protection", []string{"deletion_protection"}, kindBool},
			{"released_keep_policy", []string{"released_keep_policy"}, kindString},
			{"maintenance_window", []string{"maintain_time"}, kindString},
			{"connection_string", []string{"connection_string"}, kindString}, {"port", []string{"port"}, kindInt},
			{"status", []string{"status"}, kindString}, {"creation_time", []string{"create_time"}, kindString},
			{"tags", []string{"tags"}, kindStringMap},
		}, alicloudInstanceFeatureMapping...),
		check: func(src alicloudState) error {
			if err := requireParts(src, []string{"id"}); err != nil {
				return err
			}
			return src.checkEngine()
		},
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("atomic_write_16k"), alicloudOptimizedWrites(src))...)
			moveBilling(ctx, src, resp)
			moveInstanceFeatures(ctx, src, resp)
			moveSQLAudit(ctx, src, resp)
			moveConnectivity(ctx, src, resp)
			finishInstance(ctx, src, resp)
		},
	})
}

// MoveState moves alicloud_db_readonly_instance into rds_readonly_instance.
func (r *readonlyInstanceResource) MoveState(context.Context) []resource.StateMover {
	return moveFromAlicloud(alicloudMove{
		target: "rds_readonly_instance", sources: []string{"alicloud_db_readonly_instance"},
		mapping: []alicloudMapping{
			{"id", []string{"id"}, kindString}, {"master_instance_id", []string{"master_db_instance_id"}, kindString},
			{"engine", []string{"engine"}, kindString}, {"engine_version", []string{"engine_version"}, kindString},
			{"instance_type", []string{"instance_type"}, kindString}, {"storage", []string{"instance_storage"}, kindInt},
			{"storage_type", []string{"db_instance_storage_type"}, kindString}, {"zone_id", []string{"zone_id"}, kindString},
			{"vswitch_id", []string{"vswitch_id"}, kindString}, {"instance_name", []string{"instance_name"}, kindString},
			{"deletion_protection", []string{"deletion_protection"}, kindBool},
			{"connection_string", []string{"connection_string"}, kindString}, {"port", []string{"port"}, kindInt},
			{"tags", []string{"tags"}, kindStringMap}, {"resource_group_id", []string{"resource_group_id"}, kindString},
		},
		check: func(src alicloudState) error {
			if err := requireParts(src, []string{"id"}, []string{"master_db_instance_id"}); err != nil {
				return err
			}
			return src.checkEngine()
		},
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			moveConnectivity(ctx, src, resp)
			finishInstance(ctx, src, resp)
		},
	})
}

// MoveState moves alicloud_db_account and alicloud_rds_account (one schema, two names) into
// rds_account. The password stays in the cloud, unmanaged, until password_wo is set.
func (r *accountResource) MoveState(context.Context) []resource.StateMover {
	instance, name := []string{"db_instance_id", "instance_id"}, []string{"account_name", "name"}
	return moveFromAlicloud(alicloudMove{
		target: "rds_account", sources: []string{"alicloud_db_account", "alicloud_rds_account"},
		mapping: []alicloudMapping{
			{"instance_id", instance, kindString}, {"name", name, kindString},
			{"type", []string{"account_type", "type"}, kindString},
			{"description", []string{"account_description", "description"}, kindString},
			{"status", []string{"status"}, kindString},
		},
		check: func(src alicloudState) error {
			if err := requireParts(src, instance, name); err != nil {
				return err
			}
			if t := src.str("account_type", "type"); t != "" && !slices.Contains(rdsservice.AccountTypes, t) {
				return rdsservice.Raise(rdsservice.RuleMoveUnmanagedAccount, t, src.target, src.typeName, t, strings.Join(rdsservice.AccountTypes, " and "))
			}
			return nil
		},
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), joinedID(src.str(instance...), src.str(name...)))...)
		},
	})
}

// MoveState moves alicloud_db_database into rds_database.
func (r *databaseResource) MoveState(context.Context) []resource.StateMover {
	name := []string{"data_base_name", "name"}
	return moveFromAlicloud(alicloudMove{
		target: "rds_database", sources: []string{"alicloud_db_database"},
		mapping: []alicloudMapping{
			{"instance_id", []string{"instance_id"}, kindString}, {"name", name, kindString},
			{"character_set", []string{"character_set"}, kindString}, {"description", []string{"description"}, kindString},
			{"status", []string{"status"}, kindString},
		},
		check: func(src alicloudState) error { return requireParts(src, []string{"instance_id"}, name) },
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), joinedID(src.str("instance_id"), src.str(name...)))...)
		},
	})
}

// MoveState moves alicloud_db_account_privilege into rds_account_privilege.
func (r *accountPrivilegeResource) MoveState(context.Context) []resource.StateMover {
	return moveFromAlicloud(alicloudMove{
		target: "rds_account_privilege", sources: []string{"alicloud_db_account_privilege"},
		mapping: []alicloudMapping{
			{"instance_id", []string{"instance_id"}, kindString}, {"account_name", []string{"account_name"}, kindString},
			{"privilege", []string{"privilege"}, kindString}, {"db_names", []string{"db_names"}, kindStringSet},
		},
		check: func(src alicloudState) error {
			if err := requireParts(src, []string{"instance_id"}, []string{"account_name"}, []string{"privilege"}); err != nil {
				return err
			}
			if p := src.str("privilege"); !slices.Contains(rdsservice.AccountPrivileges, p) {
				return rdsservice.Raise(rdsservice.RuleMoveUnmanagedPrivilege, p, src.target, src.typeName, p, strings.Join(rdsservice.AccountPrivileges, ", "))
			}
			return nil
		},
		finish: func(ctx context.Context, src alicloudState, resp *resource.MoveStateResponse) {
			id := joinedID(src.str("instance_id"), src.str("account_name"), src.str("privilege"))
			resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), id)...)
		},
	})
}
