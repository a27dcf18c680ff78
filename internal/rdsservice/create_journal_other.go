//go:build !unix

package rdsservice

import (
	"errors"
	"os"
)

// fileLocksWork: without flock(2) a live run cannot be told from a dead one, so there is no
// journal on this platform (documented in the reliability guide).
const fileLocksWork = false

func lockRunFile(string) (*os.File, error) { return nil, errors.New("no file locks on this platform") }

func tryLock(*os.File) bool { return false }
