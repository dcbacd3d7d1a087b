// threadCPU where no per-thread CPU time is read (see
// bench_cputime_linux_test.go).

//go:build !linux

package cpu

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
