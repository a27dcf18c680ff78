//go:build benchprofile

// This file is built only by `make bench` (go build -tags benchprofile) into
// bin/terraform-provider-rds-pprof; release builds do not contain it. With RDS_BENCH_CPUPROFILE
// set, the provider records a CPU profile from its start until SIGTERM (the bench runs it in
// debug mode and stops it after one plan), so the bench can show where a plan spends the
// provider's CPU; RDS_BENCH_HEAPPROFILE adds a heap profile written at SIGTERM after a GC
// (allocations, and what outlives the plan).
package main

import (
	"log"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
)

func init() {
	path := os.Getenv("RDS_BENCH_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	go func() {
		<-stop
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Print(err)
		}
		if heapPath := os.Getenv("RDS_BENCH_HEAPPROFILE"); heapPath != "" {
			if h, err := os.Create(heapPath); err == nil {
				runtime.GC() // in use: what outlives the plan (twice: a pool keeps its victims one GC)
				runtime.GC()
				_ = pprof.Lookup("heap").WriteTo(h, 0)
				_ = h.Close()
			}
		}
		os.Exit(0)
	}()
}
