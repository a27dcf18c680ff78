package rdsservice

import (
	"context"
	"fmt"
)

// readEndpointFacts reads what the endpoint plan needs: an existing instance's endpoints now (when
// an endpoint attribute is configured) and, where a prefix changes, the prefixes the region's
// instances hold. A failed read is a warning: the plan goes on without it, the apply reads again.
func readEndpointFacts(ctx context.Context, env Env, id string, existing bool, e *EndpointPlan) []ReadFailure {
	if env.API == nil {
		return nil
	}
	if existing && e.Managed() {
		info, err := env.API.DescribeDBInstanceNetInfo(ctx, id)
		if err != nil {
			return []ReadFailure{{Warning: true, Summary: "Cannot read the endpoints", Detail: fmt.Sprintf("Instance %s: DescribeDBInstanceNetInfo: %v. "+
				"The plan cannot name the addresses that stop answering; the apply reads them again.", id, err)}}
		}
		facts := EndpointFactsOf(info)
		e.Current = &facts
	}
	if !e.ChangesPrefix() {
		return nil
	}
	taken, err := TakenPrefixes(ctx, env.API, env.Region)
	e.Taken = taken
	if err != nil {
		return []ReadFailure{{Warning: true, Summary: "Cannot check the new prefix",
			Detail: fmt.Sprintf("DescribeDBInstances: %v. A prefix another instance has is refused at apply.", err)}}
	}
	return nil
}
