// Tests of the vector loops for reversed and step-2 runs against the
// scalar gather, over run lengths around the loops' units and both
// element sizes.

package cpu

import (
	"fmt"
	"testing"
	"unsafe"
)

// gatherCase gathers one run with the vector loops on or off.
func gatherCase[T uint8 | uint16 | uint32 | uint64](vec bool, src []T, off, step, pos, cnt int) []T {
	was := setVector(vec)
	defer setVector(was)
	dst := make([]T, pos+cnt+3)
	var z T
	gatherRun(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), int(unsafe.Sizeof(z)), pos, off, step, cnt)
	return dst
}

func testGatherVec[T uint8 | uint16 | uint32 | uint64](t *testing.T, name string) {
	const n = 100
	src := make([]T, n)
	for i := range src {
		src[i] = T(100 + i*7)
	}
	for _, step := range []int{-1, 2} {
		for cnt := 0; cnt <= 41; cnt++ {
			for _, pos := range []int{0, 3} {
				// The run starts at off and, reversed, ends at the start
				// of src; step 2 ends at the end of src when it fits.
				off := cnt - 1
				if step == 2 {
					off = max(0, n-1-2*(cnt-1))
				}
				if cnt == 0 {
					off = 0
				}
				want := make([]T, pos+cnt+3)
				for i := range cnt {
					want[pos+i] = src[off+i*step]
				}
				for _, vec := range []bool{true, false} {
					got := gatherCase(vec, src, off, step, pos, cnt)
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("%s step %d cnt %d pos %d vector %v: element %d got:%v want:%v", name, step, cnt, pos, vec, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestGatherVecRuns checks the reversed and step-2 gathers of 1- to
// 8-byte elements (vector loops for 4 and 8), loops on and off, against
// direct indexing.
func TestGatherVecRuns(t *testing.T) {
	testGatherVec[uint8](t, "1-byte") // no vector loops: the scalar ones
	testGatherVec[uint16](t, "2-byte")
	testGatherVec[uint32](t, "4-byte")
	testGatherVec[uint64](t, "8-byte")
}

// TestGatherVecRegistered checks that the loops are installed exactly
// when the vector switch is on and the CPU has them.
func TestGatherVecRegistered(t *testing.T) {
	was := setVector(false)
	defer setVector(was)
	for _, es := range []int{4, 8} {
		if gatherRevTab[es] != nil || gatherStep2Tab[es] != nil {
			t.Fatalf("%d-byte: vector gathers installed with the switch off", es)
		}
	}
	setVector(true)
	if hasGatherVector() {
		for _, es := range []int{4, 8} {
			if gatherRevTab[es] == nil || gatherStep2Tab[es] == nil {
				t.Fatalf("%d-byte: vector gathers not installed with the switch on", es)
			}
		}
	}
}

// BenchmarkGatherRuns gathers one run of 2^14 elements (in cache, as a
// chunk of exec's tiles) reversed and of step 2, with the vector loops on
// and off.
func BenchmarkGatherRuns(b *testing.B) {
	for _, es := range []int{4, 8} {
		for _, step := range []int{-1, 2} {
			for _, vec := range []bool{false, true} {
				const n = 1 << 14
				name := map[int]string{-1: "rev", 2: "step2"}[step]
				b.Run(fmt.Sprintf("%s/%dbyte/vector=%v", name, es, vec), func(b *testing.B) {
					src := make([]byte, 2*n*es)
					dst := make([]byte, n*es)
					off := 0
					if step < 0 {
						off = n - 1
					}
					was := setVector(vec)
					defer setVector(was)
					b.SetBytes(int64(2 * n * es))
					b.ResetTimer()
					for range b.N {
						gatherRun(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), es, 0, off, step, n)
					}
				})
			}
		}
	}
}
