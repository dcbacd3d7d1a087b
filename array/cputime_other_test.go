//go:build !unix

// The process's CPU time is not measured off unix: benchmarks report
// wall time alone.

package array_test

// cpuTime reports that the process's CPU time is not known here.
func cpuTime() (int64, bool) { return 0, false }
