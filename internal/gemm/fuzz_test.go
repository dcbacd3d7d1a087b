// FuzzMul: random shapes, layouts, strides, kernels, paths and worker
// counts against the naive reference, values drawn from the input so
// that the fuzzer can reach zeros, infinities and NaN.

package gemm_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/internal/gemm"
)

func FuzzMul(f *testing.F) {
	f.Add(uint8(3), uint8(5), uint8(7), uint8(0), uint16(0), []byte{1, 2, 3})
	f.Add(uint8(13), uint8(33), uint8(20), uint8(0xff), uint16(0x1234), []byte("nan and inf"))
	f.Add(uint8(1), uint8(1), uint8(1), uint8(0x55), uint16(7), []byte{0x7f, 0xc0, 0, 0})
	f.Add(uint8(40), uint8(2), uint8(9), uint8(0x0a), uint16(0xffff), []byte{0, 0, 0x80, 0x7f})
	f.Fuzz(func(t *testing.T, m8, n8, k8, flags uint8, opts uint16, vals []byte) {
		m, n, k := int(m8%40)+1, int(n8%70)+1, int(k8%50)
		p := prod{m: m, n: n, k: k, ta: flags&1 != 0, tb: flags&2 != 0,
			padA: int(flags>>2) & 1, padB: int(flags>>3) & 1, padC: int(flags>>4) & 1, accumulate: flags&0x20 != 0}
		if flags&0x40 != 0 {
			p.batch = int(opts>>12)%3 + 2
		}
		workers := int(opts%4) + 1
		path := gemm.Paths[int(opts>>2)%len(gemm.Paths)]
		if flags&0x80 != 0 {
			fuzzOne[float32](t, p, workers, int(opts>>4), path, vals)
		} else {
			fuzzOne[float64](t, p, workers, int(opts>>4), path, vals)
		}
	})
}

// special are the values a fuzzed byte may pick besides random ones.
var special = []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, 3e38}

func fuzzOne[T gemm.Float](t *testing.T, p prod, workers, kern int, path string, vals []byte) {
	kerns := gemm.Kernels[T]()
	s := build[T](p, uint64(len(vals)))
	// Overwrite matrix elements with values from the input: a byte below
	// len(special) picks a special value, others scale a random one.
	nb := max(1, p.batch)
	for i := 0; i+3 <= len(vals); i += 3 {
		x := &s.a
		off := s.offA
		if vals[i]&1 != 0 {
			x, off = &s.b, s.offB
		}
		rows, cols := p.m, p.k
		if x == &s.b {
			rows, cols = p.k, p.n
		}
		if rows == 0 || cols == 0 {
			continue
		}
		pt := int(vals[i]>>1) % nb
		e := int(binary.LittleEndian.Uint16(vals[i+1:])) % (rows * cols)
		r, c := e/cols, e%cols
		idx := off[pt] + r*x.Stride + c
		if x.Trans {
			idx = off[pt] + c*x.Stride + r
		}
		v := vals[i+2]
		if int(v) < len(special) {
			x.Data[idx] = T(special[v])
		} else {
			x.Data[idx] *= T(v) / 16
		}
	}
	before := append([]T(nil), s.c...)
	o := &gemm.Options[T]{Workers: workers, Accumulate: p.accumulate}
	gemm.SetKernel(o, kerns[kern%len(kerns)])
	defer gemm.SetPath(path)()
	bt := s.bt
	if p.batch == 0 {
		bt = gemm.Batch{Count: 1}
	}
	if err := gemm.MulBatch(p.m, p.n, p.k, s.a, s.b, s.c, s.ldc, bt, o); err != nil {
		t.Fatalf("%v: %v", p, err)
	}
	for pt := range nb {
		want, scale := naive(p.m, p.n, p.k, s.a, s.offA[pt], s.b, s.offB[pt])
		if p.accumulate {
			for i := range p.m {
				for j := range p.n {
					x := before[s.offC[pt]+i*s.ldc+j]
					want[i*p.n+j] += float64(x)
					scale[i*p.n+j] += math.Abs(float64(x))
				}
			}
		}
		if err := agreeOverflow(p.m, p.n, p.k, s.c, s.offC[pt], s.ldc, want, scale); err != nil {
			t.Fatalf("%v %s %s, %d workers, point %d: %v", p, kerns[kern%len(kerns)], path, workers, pt, err)
		}
	}
}

// agreeOverflow is agree, except for elements whose finite products or
// partial sums may leave T's range (float32 products of 3e38 overflow
// where float64 ones do not, and an overflow against an infinity makes
// NaN), which are checked only where the reference is NaN.
func agreeOverflow[T gemm.Float](m, n, k int, c []T, oc, ldc int, want, scale []float64) error {
	var z T
	limit := math.MaxFloat64
	if _, ok := any(z).(float32); ok {
		limit = math.MaxFloat32
	}
	w2 := append([]float64(nil), want...)
	for i := range w2 {
		if scale[i] > limit/2 && !math.IsNaN(w2[i]) {
			x := &c[oc+(i/n)*ldc+i%n]
			*x, w2[i], scale[i] = 0, 0, 0 // unchecked
		}
	}
	return agree(m, n, k, c, oc, ldc, w2, scale)
}
