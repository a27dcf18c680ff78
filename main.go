// Command terraform-provider-rds serves the rds Terraform provider (ApsaraDB RDS) over plugin
// protocol 6.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/openrds/terraform-provider-rds/internal/provider"
)

// version is set by the release build (goreleaser: -X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	quietSDKLogsUnlessAsked()

	opts := providerserver.ServeOpts{
		Address:         "registry.terraform.io/openrds/rds",
		Debug:           debug,
		ProtocolVersion: 6,
	}

	if err := providerserver.Serve(context.Background(), provider.New(version), opts); err != nil {
		log.Fatal(err.Error())
	}
}

// quietSDKLogsUnlessAsked turns off the SDK's own trace logging when no TF_LOG* variable asks for
// logs. Unset, the SDK logs every RPC at TRACE and Terraform parses and discards each line: about a
// third of the provider's CPU in a large plan. Any TF_LOG* setting leaves everything as it is.
func quietSDKLogsUnlessAsked() {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") && !strings.HasPrefix(kv, "TF_LOG_PATH") {
			return
		}
	}
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		if err := os.Setenv(name, "off"); err != nil {
			log.Printf("cannot quiet SDK logs: %v", err)
		}
	}
}
