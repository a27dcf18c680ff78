package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// cacheTerraformVersion points TF_ACC_TERRAFORM_PATH at a wrapper that answers `terraform version
// -json` from one real run and execs the real binary for every other command. terraform-plugin-
// testing probes the version twice per TestCase, and each terraform start costs about
// 0.2 s of CPU (its package initialisation), which on two cores made the probes about a tenth of
// the acceptance suite's CPU. Every command a test runs still runs the real binary (the wrapper
// execs it: same process, same name, so killing its group and finding it in /proc still work).
// It returns a cleanup; it does nothing without TF_ACC or a terraform binary.
func cacheTerraformVersion() (func(), error) {
	noop := func() {}
	if os.Getenv("TF_ACC") == "" {
		return noop, nil
	}
	binary := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if binary == "" {
		binary, _ = exec.LookPath("terraform") // none: the acceptance tests report it themselves
	}
	if binary == "" {
		return noop, nil
	}
	binary, err := filepath.Abs(binary)
	if err != nil {
		return noop, err
	}
	dir, err := os.MkdirTemp("", "rds-test-terraform")
	if err != nil {
		return noop, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	cmd := exec.Command(binary, "version", "-json")
	cmd.Dir = dir // no provider selections: the probe's callers read only the CLI's version
	out, err := cmd.Output()
	if err != nil {
		cleanup()
		return noop, fmt.Errorf("%s version -json: %w", binary, err)
	}
	cached := filepath.Join(dir, "version.json")
	if err := os.WriteFile(cached, out, 0o600); err != nil {
		cleanup()
		return noop, err
	}
	script := fmt.Sprintf("#!/bin/sh\nif [ \"$#\" = 2 ] && [ \"$1\" = version ] && [ \"$2\" = -json ]; then\n  exec cat %s\nfi\nexec %s \"$@\"\n",
		shellQuote(cached), shellQuote(binary))
	wrapper := filepath.Join(dir, filepath.Base(binary)) // the binary binary's name (terraform, tofu)
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		cleanup()
		return noop, err
	}
	if err := os.Setenv("TF_ACC_TERRAFORM_PATH", wrapper); err != nil {
		cleanup()
		return noop, err
	}
	return cleanup, nil
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
