// Command terraform-provider-rds serves the rds Terraform provider (ApsaraDB RDS) over plugin
// protocol 6.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/openrds/terraform-provider-rds/internal/memlimit"
	"github.com/openrds/terraform-provider-rds/internal/provider"
)

// version is set by the release build (goreleaser: -X main.version=...).
var version = "dev"

func main() {
	memlimit.Start()
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	provider.QuietSDKLogsUnlessAsked()

	opts := providerserver.ServeOpts{
		Address:         "registry.terraform.io/openrds/rds",
		Debug:           debug,
		ProtocolVersion: 6,
	}

	if err := providerserver.Serve(context.Background(), provider.New(version), opts); err != nil {
		log.Fatal(err.Error())
	}
}
