package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// NewAtomicWrite16KFunction returns provider::rds::atomic_write_16k.
func NewAtomicWrite16KFunction() function.Function {
	return rdsFunction{name: "atomic_write_16k", run: runAtomicWrite16K, definition: function.Definition{
		Summary: "Whether an instance gets 16K atomic write, by the plan's own rules",
		MarkdownDescription: "Returns `{ supported, default, reason }` for an object of `engine`, `engine_version`, `storage_type`, " +
			"`category` and `instance_type` (as `rds_instance` takes them), and optionally `purchase_date` (`YYYY-MM-DD`: an existing " +
			"instance bought then, asked to turn the feature on) and `architecture` (`x86` or `arm`; derived from the class when " +
			"unset). `supported` is `atomic_write_16k_supported`, `default` the value the instance gets when `atomic_write_16k` is " +
			"unset, and `reason` the plan's own error for `atomic_write_16k = true` (empty when the plan accepts it).",
		Parameters: []function.Parameter{function.DynamicParameter{Name: "facts",
			MarkdownDescription: "An object with the keys " + strings.Join(atomicWriteFactKeys, ", ") + "."}},
		Return: function.ObjectReturn{AttributeTypes: atomicWriteAnswerTypes},
	}}
}

var atomicWriteAnswerTypes = map[string]attr.Type{"supported": types.BoolType, "default": types.BoolType, "reason": types.StringType}

// atomicWriteFactKeys are the keys of facts; the last two are optional.
var atomicWriteFactKeys = []string{"engine", "engine_version", "storage_type", "category", "instance_type", "purchase_date", "architecture"}

func runAtomicWrite16K(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var facts types.Dynamic
	if resp.Error = req.Arguments.Get(ctx, &facts); resp.Error != nil {
		return
	}
	values, err := factStrings(facts)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	f := rdsservice.AtomicWriteFacts{Engine: values["engine"], EngineVersion: values["engine_version"], StorageType: values["storage_type"],
		Category: values["category"], InstanceClass: values["instance_type"], Architecture: values["architecture"]}
	if date := values["purchase_date"]; date != "" {
		if f.Purchase, err = time.Parse("2006-01-02", date); err != nil {
			resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("Invalid purchase_date: %q is not YYYY-MM-DD.", date))
			return
		}
	}
	answer := rdsservice.AtomicWrite16K(f)
	out, diags := types.ObjectValue(atomicWriteAnswerTypes, map[string]attr.Value{"supported": types.BoolValue(answer.Supported),
		"default": types.BoolValue(answer.Default), "reason": types.StringValue(answer.Reason)})
	resp.Error = function.FuncErrorFromDiags(ctx, diags)
	if resp.Error == nil {
		resp.Error = resp.Result.Set(ctx, out)
	}
}

// factStrings reads an object or map of strings; the first five keys are required.
func factStrings(facts types.Dynamic) (map[string]string, error) {
	var attrs map[string]attr.Value
	switch v := facts.UnderlyingValue().(type) {
	case basetypes.ObjectValue:
		attrs = v.Attributes()
	case basetypes.MapValue:
		attrs = v.Elements()
	default:
		return nil, fmt.Errorf("facts must be an object with the keys %s", strings.Join(atomicWriteFactKeys, ", "))
	}
	out := map[string]string{}
	for key, value := range attrs {
		s, ok := value.(basetypes.StringValue)
		switch {
		case !slices.Contains(atomicWriteFactKeys, key):
			return nil, fmt.Errorf("facts has an unknown key %q; the keys are %s", key, strings.Join(atomicWriteFactKeys, ", "))
		case !ok:
			return nil, fmt.Errorf("facts.%s must be a string", key)
		}
		out[key] = s.ValueString()
	}
	for _, key := range atomicWriteFactKeys[:5] {
		if out[key] == "" {
			return nil, fmt.Errorf("facts.%s is required (the keys are %s)", key, strings.Join(atomicWriteFactKeys, ", "))
		}
	}
	return out, nil
}
