package provider

// Resources and data sources receive the configured provider (ProviderData) here, and refuse to
// call the API without one.

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// providerDataFrom is what every resource's and data source's Configure does: nil while the
// provider is not configured yet (validation runs before it), an error for anything but
// *ProviderData.
func providerDataFrom(raw any, typeName string, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*ProviderData)
	if ok && data != nil && len(data.unknownSettings) > 0 {
		return data // not configured until apply: requireConfigured names the settings
	}
	if !ok || data == nil || data.API == nil || data.Waiter == nil {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("%s expected *provider.ProviderData, got %T. This is a bug in the provider; please report it.", typeName, raw))
		return nil
	}
	return data
}

// requireConfigured reports an error when an operation runs without a configured provider.
func requireConfigured(data *ProviderData, diags *diag.Diagnostics) bool {
	switch {
	case data == nil:
		diags.AddError("Provider not configured",
			"The rds provider is not configured: a provider setting is not known until apply (it is built from another "+
				"resource's attribute), or configuring it failed (see the error above). Check the provider configuration "+
				"(credentials, region, endpoint).")
		return false
	case data.API == nil:
		diags.AddError("Provider setting not known until apply", fmt.Sprintf("The rds provider setting(s) %s are built "+
			"from attributes of resources not applied yet, so the provider cannot call the API during this plan. Use "+
			"values known at plan time for them, or apply the resources they come from first (terraform apply -target=...).",
			"`"+strings.Join(data.unknownSettings, "`, `")+"`"))
		return false
	}
	return true
}
