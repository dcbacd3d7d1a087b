// The multi-row column folds (colOp.rows) against the one-row folds they
// replace: every registered op and dtype, row widths around the vector
// widths (ragged tails), 1 to colRows rows, with NaN, infinities, signed
// zeros and, for bools, nonzero bytes other than 1. The states must hold
// the same values (any NaN for a NaN, signed zeros told apart) as the
// one-row folds' with the vector loops on and with the portable loops.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

func TestColRowsFold(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2.5, -0.75, 1e-40}
	fill := func(d graph.DType, p unsafe.Pointer, n int) {
		for k := range n {
			x := special[r.IntN(len(special))]
			if r.IntN(3) == 0 {
				x = 4*r.Float64() - 2
			}
			switch d {
			case graph.Float32:
				view[float32](p, n)[k] = float32(x)
			case graph.Float64:
				view[float64](p, n)[k] = x
			case graph.Bool:
				view[byte](p, n)[k] = []byte{0, 0, 0, 1, 2, 0x80, 0xff}[r.IntN(7)]
			}
		}
	}
	was := setVector(true)
	defer setVector(was)
	ran := 0
	for op := range colTab {
		for d := range colTab[op] {
			vec := colTab[op][d]
			if vec.rows == nil {
				continue
			}
			dt := graph.DType(d)
			setVector(false)
			port := colTab[op][d]
			setVector(true)
			if port.rows != nil {
				t.Fatalf("%v %v: the portable table has a multi-row fold", graph.Op(op), dt)
			}
			es := dt.Size()
			for _, w := range []int{1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 127, 128, 129, 200, 1037} {
				for _, q := range []int{1, 2, 3, colRows} {
					first := make([]uint64, (w*es+7)/8)
					rows := make([]uint64, (q*w*es+7)/8)
					fill(dt, unsafe.Pointer(&first[0]), w)
					fill(dt, unsafe.Pointer(&rows[0]), q*w)
					run := func(op colOp, multi bool) []uint64 {
						st := make([]uint64, op.words*w)
						s := unsafe.Pointer(&st[0])
						op.init(s, w)
						op.load(s, w, 0, unsafe.Pointer(&first[0]), w, 0)
						p := unsafe.Pointer(&rows[0])
						if multi {
							op.rows(s, w, p, q)
						} else {
							for i := range q {
								op.fold(s, w, 0, at(p, i*w, es), w, int64(i+1))
							}
						}
						if op.flush != nil {
							op.flush(s, w, w)
						}
						return st
					}
					got, want := run(vec, true), run(vec, false)
					setVector(false)
					ref := run(port, false)
					setVector(true)
					for k := range w {
						a := vec.read(unsafe.Pointer(&got[0]), w, k)
						for _, c := range []struct {
							name string
							st   []uint64
						}{{"one-row vector fold", want}, {"portable fold", ref}} {
							b := vec.read(unsafe.Pointer(&c.st[0]), w, k)
							same := a.i == b.i && (a.f == b.f && math.Signbit(a.f) == math.Signbit(b.f) || a.f != a.f && b.f != b.f)
							if !same {
								t.Fatalf("%v %v w=%d q=%d: column %d got:%v want:%v (%s)", graph.Op(op), dt, w, q, k, a, b, c.name)
							}
						}
					}
					ran++
				}
			}
		}
	}
	if vecOn && ran == 0 {
		t.Log("no multi-row column fold registered on this CPU")
	}
}
