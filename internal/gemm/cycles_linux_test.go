// Clock measurement for BenchmarkKernel: CPU time of the calling thread
// (so that time other processes take on a shared machine is not counted)
// and the core's clock rate from a chain of dependent multiplications.

package gemm

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadTime returns the CPU time the calling thread has used; callers
// lock their goroutine to the thread.
func threadTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

var sink, mulBy uint64 = 0, 0x9E3779B97F4A7C15

// imulLatency is the latency in cycles of a 64-bit multiplication on
// current x86 and arm64 cores.
const imulLatency = 3

// clockHz estimates the core's clock rate: a chain of dependent 64-bit
// multiplications runs one per imulLatency cycles.
func clockHz() float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 1 << 24
	best := 0.0
	for range 5 {
		x, y := uint64(3), mulBy
		t := threadTime()
		for range n {
			x *= y
			x *= y
			x *= y
			x *= y
			x *= y
			x *= y
			x *= y
			x *= y
		}
		d := threadTime() - t
		sink += x
		if hz := float64(8*n*imulLatency) / d.Seconds(); hz > best {
			best = hz
		}
	}
	return best
}
