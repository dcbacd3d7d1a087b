// This file holds the fuzz target: any function, any bit patterns, any
// length, every path against the IR interpreter.

package vecmath

import (
	"testing"
)

func FuzzBitExact(f *testing.F) {
	f.Add(uint8(0), uint64(0x3f800000), uint64(0x40490fdb), uint8(17), false)
	f.Add(uint8(13), uint64(0x7ff8000000000001), uint64(0x4340000000000000), uint8(9), true)
	f.Add(uint8(24), uint64(0xbff0000000000000), uint64(0x7ff0000000000000), uint8(33), false)
	f.Fuzz(func(t *testing.T, k uint8, a, b uint64, n uint8, inPlace bool) {
		e := kernels[int(k)%len(kernels)]
		typ := e.typ()
		// A xorshift sequence from a and b; half the lanes keep a or b
		// themselves, so that chosen patterns reach every lane.
		xs, ys := make([]uint64, n), []uint64(nil)
		if e.k2f32 != nil || e.k2f64 != nil {
			ys = make([]uint64, n)
		}
		s := a ^ b<<1 | 1
		for i := range xs {
			s ^= s << 13
			s ^= s >> 7
			s ^= s << 17
			xs[i] = s
			if i%2 == 0 {
				xs[i] = a
			}
			if ys != nil {
				ys[i] = s>>3 ^ b
				if i%3 == 0 {
					ys[i] = b
				}
			}
		}
		if typ.Bits() == 32 {
			for i := range xs {
				xs[i] &= 0xffffffff
				if ys != nil {
					ys[i] &= 0xffffffff
				}
			}
		}
		want := runOracle(t, mathFnOf(t, e.fn), typ, xs, ys)
		for _, p := range paths() {
			got := e.runBits(p, xs, ys, inPlace)
			if bad := mismatches(typ, xs, ys, got, want); len(bad) > 0 {
				t.Fatalf("%s on %s: %d differ: %s", e.name(), p, len(bad), bad[0])
			}
		}
	})
}
