//go:build unix

package provider

import "syscall"

// crashSupported: the crash test kills terraform's process group, and the journal needs flock(2).
const crashSupported = true

// crashProcAttr starts terraform in its own process group; the provider it starts joins it.
func crashProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group of pid: terraform and the provider at once.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
