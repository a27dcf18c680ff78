// Command terraform-provider-rds serves the rds Terraform provider (ApsaraDB RDS) over plugin
// protocol 6.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/openrds/terraform-provider-rds/internal/memlimit"
	"github.com/openrds/terraform-provider-rds/internal/parentwatch"
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
	if !debug { // a debugged provider is started by hand, not by the Terraform that uses it
		parentwatch.Watch(parentwatch.Interval, exitOrphaned)
	}

	opts := providerserver.ServeOpts{
		Address:         "registry.terraform.io/openrds/rds",
		Debug:           debug,
		ProtocolVersion: 6,
	}

	if err := providerserver.Serve(context.Background(), provider.New(version), opts); err != nil {
		log.Fatal(err.Error())
	}
}

// exitOrphaned ends the provider once the Terraform that started it is gone (killed with SIGKILL):
// nothing will call it again, and its run lock would keep the next run from seeing its creates as
// interrupted.
func exitOrphaned(parent int) {
	fmt.Fprintf(os.Stderr, "terraform-provider-rds: the Terraform process that started it (pid %d) is gone; exiting\n", parent)
	os.Exit(1)
}
