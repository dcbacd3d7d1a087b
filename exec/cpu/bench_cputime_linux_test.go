// The CPU time of the calling thread, for benchmarks that report it
// beside the wall time (on a shared machine the wall time also counts
// the time other processes hold the core).

//go:build linux

package cpu

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, and
// true; the caller locks its goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
