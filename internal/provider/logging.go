package provider

import (
	"log"
	"os"
	"strings"
)

// QuietSDKLogsUnlessAsked turns off the SDK's own trace logging when no TF_LOG* variable asks for
// logs; main calls it before serving. Unset, the SDK logs every RPC at TRACE and Terraform parses
// and discards each line: about a third of the provider's CPU in a large plan. Any TF_LOG*
// setting leaves everything as it is.
func QuietSDKLogsUnlessAsked() {
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
