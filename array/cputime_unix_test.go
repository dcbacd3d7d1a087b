//go:build unix

// The process's CPU time, for benchmarks that report it beside wall time
// (on a loaded machine the CPU time an operation costs is the steadier
// figure).

package array_test

import "syscall"

// cpuTime returns the user and system CPU time of the process so far in
// nanoseconds, and whether it is known.
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
