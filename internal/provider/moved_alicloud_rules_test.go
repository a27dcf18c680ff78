package provider

import (
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// Each refusal of a move is a row of the rule table, so the plan-rules guide lists it.
func TestMoveRefusalsAreRuleRows(t *testing.T) {
	move := alicloudMove{target: "rds_instance", sources: []string{"alicloud_db_instance"}}
	sqlServer := alicloudState{typeName: "alicloud_db_instance", target: "rds_instance", attrs: map[string]any{"engine": "SQLServer"}}
	for want, refuse := range map[rdsservice.RuleID]func() error{
		rdsservice.RuleMoveOtherProvider: func() error {
			_, err := move.source(resource.MoveStateRequest{SourceProviderAddress: "registry.terraform.io/hashicorp/aws", SourceTypeName: "aws_db_instance"})
			return err
		},
		rdsservice.RuleMoveOtherType: func() error {
			_, err := move.source(resource.MoveStateRequest{SourceProviderAddress: alicloudProvider, SourceTypeName: "alicloud_db_readonly_instance"})
			return err
		},
		rdsservice.RuleMoveNoAttributes: func() error {
			_, err := move.source(resource.MoveStateRequest{SourceProviderAddress: alicloudProvider, SourceTypeName: "alicloud_db_instance"})
			return err
		},
		rdsservice.RuleMoveUnmanagedEngine: sqlServer.checkEngine,
		rdsservice.RuleMoveMissingPart:     func() error { return requireParts(sqlServer, []string{"id"}) },
	} {
		var got rdsservice.Problem
		if err := refuse(); !errors.As(err, &got) || got.Rule != want {
			t.Errorf("refusal %s: got %v", want, err)
		}
	}
}
