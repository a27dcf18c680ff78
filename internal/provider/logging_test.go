package provider

import (
	"os"
	"testing"
)

func TestQuietSDKLogsUnlessAsked(t *testing.T) {
	for _, name := range []string{"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(name, "")
		_ = os.Unsetenv(name) // t.Setenv restores it
	}
	QuietSDKLogsUnlessAsked()
	if got := os.Getenv("TF_LOG_SDK_PROTO"); got != "off" {
		t.Fatalf("without TF_LOG*, TF_LOG_SDK_PROTO = %q, want off", got)
	}

	t.Setenv("TF_LOG_SDK_PROTO", "")
	_ = os.Unsetenv("TF_LOG_SDK_PROTO") // t.Setenv restores it
	t.Setenv("TF_LOG", "TRACE")
	QuietSDKLogsUnlessAsked()
	if got, set := os.LookupEnv("TF_LOG_SDK_PROTO"); set {
		t.Fatalf("with TF_LOG=TRACE the SDK logs must stay as asked, got TF_LOG_SDK_PROTO=%q", got)
	}
}
