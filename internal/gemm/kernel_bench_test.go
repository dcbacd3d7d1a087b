// BenchmarkKernel: each micro-kernel family alone, packed and strided,
// on operands in L1 and L2, reporting floating-point operations per core
// cycle (flop/cycle) against the core's peak: 2·FMA pipes·lanes, 32 for
// float32 and 16 for float64 on two 256-bit FMA pipes (AVX2 on most
// cores, AVX-512 on Zen 4). The time is the thread's CPU time, and the
// clock is measured (see clockHz), so that a machine shared with other
// work reads the kernel's own rate.

//go:build linux

package gemm

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"
)

var benchHz float64

func BenchmarkKernel(b *testing.B) {
	if benchHz == 0 {
		benchHz = clockHz()
		b.Logf("clock %.2f GHz", benchHz/1e9)
	}
	for _, fs := range [][]*family{families.f32, families.f64} {
		for _, f := range fs {
			size := 4
			if fs[0] == families.f64[0] {
				size = 8
			}
			for _, kc := range []int{64, 256} {
				for _, strided := range []bool{false, true} {
					mode := "packed"
					if strided {
						mode = "strided"
					}
					b.Run(fmt.Sprintf("%s/f%d/%dx%dx%d/%s", f.name, size*8, f.mr, f.nr, kc, mode), func(b *testing.B) {
						benchKernel(b, f, size, kc, strided)
					})
				}
			}
		}
	}
}

// benchKernel runs the kernel over the tiles of a (4·mr)×(8·nr) C with a
// kc-deep A and B: packed panels, or row-major matrices read in place.
func benchKernel(b *testing.B, f *family, size, kc int, strided bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m, n := 4*f.mr, 8*f.nr
	words := func(elems int) []uint64 { return make([]uint64, (elems*size+7)/8) }
	a, bb, c := words(m*kc), words(kc*n), words(m*n)
	at := func(s []uint64, elem int) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(&s[0]), elem*size) }
	b.ResetTimer()
	t0 := threadTime()
	for b.Loop() {
		for i := 0; i < m; i += f.mr {
			for j := 0; j < n; j += f.nr {
				cp := at(c, i*n+j)
				if strided {
					f.strided[f.mr-1](kc, at(a, i*kc), kc*size, size, at(bb, j), n*size, cp, n*size, 0)
				} else {
					f.rows[f.mr-1](kc, at(a, i*kc), at(bb, j*kc), cp, n*size, 0)
				}
			}
		}
	}
	d := threadTime() - t0
	b.ReportMetric(2*float64(m*n*kc)*float64(b.N)/d.Seconds()/benchHz, "flop/cycle")
}
