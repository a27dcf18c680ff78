//go:build unix

package rdsservice

import (
	"os"
	"syscall"
)

// fileLocksWork: the journal tells a live run from a dead one by flock(2), which the kernel
// releases when the process dies.
const fileLocksWork = true

// lockRunFile creates path and holds an exclusive lock on it for the process's lifetime.
func lockRunFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// tryLock takes the lock of f if nobody holds it (closing f releases it).
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
