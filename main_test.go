//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The roles this test binary plays in TestProviderEndsWhenTerraformIsKilled: the provider (main),
// and a stand-in for Terraform that starts it as go-plugin does and reports its pid once the
// provider has answered the handshake.
const roleEnv = "RDS_PARENTWATCH_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "provider":
		main()
		return
	case "terraform":
		standInTerraform()
		return
	}
	os.Exit(m.Run())
}

// standInTerraform starts the provider with the plugin handshake's environment, passing on its
// file 3 (the test's pipe), prints "<pid>" once the provider printed its handshake line, and waits
// to be killed.
func standInTerraform() {
	self, err := os.Executable()
	if err != nil {
		os.Exit(2)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), roleEnv+"=provider", "PLUGIN_PROTOCOL_VERSIONS=6",
		"TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2")
	cmd.ExtraFiles = []*os.File{os.NewFile(3, "pipe")}
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		os.Exit(2)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		os.Exit(3)
	}
	fmt.Println(cmd.Process.Pid)
	select {}
}

// Issue 41, item 20: SIGKILL to Terraform (and to it alone, as a runner's timeout sends it) must
// not leave the provider running. The provider holds the write end of a pipe; the read end sees
// EOF only when every holder has ended.
func TestProviderEndsWhenTerraformIsKilled(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tf := exec.Command(self)
	tf.Env = append(os.Environ(), roleEnv+"=terraform")
	tf.ExtraFiles = []*os.File{w}
	out, err := tf.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	line, err := bufio.NewReader(out).ReadString('\n')
	provider, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		_ = tf.Process.Kill()
		t.Fatalf("the stand-in Terraform did not report its provider: %q %v", line, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(provider, syscall.SIGKILL) })
	_ = tf.Process.Signal(syscall.SIGKILL)
	_ = tf.Wait()

	const within = 10 * time.Second // the provider looks at its parent every second
	_ = r.SetReadDeadline(time.Now().Add(within))
	_, err = r.Read(make([]byte, 1))
	if !errors.Is(err, io.EOF) {
		t.Fatalf("the provider (pid %d) still runs %s after its Terraform was killed (read: %v)", provider, within, err)
	}
}
