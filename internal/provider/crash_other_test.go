//go:build !unix

package provider

import "syscall"

// crashSupported: there is no create journal without flock(2), and no process group to kill.
const crashSupported = false

func crashProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(int) {}
