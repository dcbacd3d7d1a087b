// Package mathtest holds what the tests of the math library
// (codegen/mathlib) and of its CPU vector code (internal/vecmath) share:
// the kernel that applies one math function to a buffer, a run of it on
// the IR interpreter over inputs given as bits, and the distance of two
// floats in ulps.
package mathtest

import (
	"math"
	"sync"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// Kernel builds out[i] = fn(x[i]), or fn(x[i], y[i]) for a function of
// two operands, over a grid-stride loop on elements of type t. Its
// parameters are x, y (two operands only), out and the length n; the
// math call is not expanded.
func Kernel(fn ir.MathFn, t ir.Type) *ir.Func {
	f := ir.NewFunc("k_" + fn.String() + "_" + t.String())
	ptr := ir.PtrTo(ir.SpaceGlobal, t)
	x := f.AddParam("x", ptr)
	var y *ir.Value
	if fn.Arity() == 2 {
		y = f.AddParam("y", ptr)
	}
	out := f.AddParam("out", ptr)
	n := f.AddParam("n", ir.S32)
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		args := []*ir.Value{b.Load(b.Index(x, i))}
		if y != nil {
			args = append(args, b.Load(b.Index(y, i)))
		}
		b.Store(b.Index(out, i), b.Math(fn, args...))
	})
	b.Ret()
	return f
}

// Run runs p, a compiled Kernel (or a kernel with its parameters) of
// float type t, over xs, and ys for two operands (nil for one), and
// returns the results. Values are given and returned as bits (float32's
// in the low 32), so that NaN payloads pass through unchanged. The work
// is split in two runs on two goroutines; the first error is returned.
func Run(p *ir.Program, t ir.Type, xs, ys []uint64) ([]uint64, error) {
	n := len(xs)
	const parts = 2
	out := make([]uint64, n)
	var wg sync.WaitGroup
	errs := make([]error, parts)
	for k := range parts {
		lo, hi := k*n/parts, (k+1)*n/parts
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := []any{memOf(t, xs[lo:hi])}
			if ys != nil {
				args = append(args, memOf(t, ys[lo:hi]))
			}
			om := ir.NewMem((hi - lo) * t.Size())
			args = append(args, om, hi-lo)
			errs[k] = p.Run(ir.Config{Grid: [3]int{min((hi-lo+255)/256, 32)}, Block: [3]int{256}}, args...)
			if t == ir.F32 {
				for i, v := range ir.View[uint32](om) {
					out[lo+i] = uint64(v)
				}
			} else {
				copy(out[lo:hi], ir.View[uint64](om))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// memOf stores values given as bits as elements of type t.
func memOf(t ir.Type, bits []uint64) *ir.Mem {
	if t == ir.F32 {
		s := make([]uint32, len(bits))
		for i, b := range bits {
			s[i] = uint32(b)
		}
		return ir.MemOf(s)
	}
	return ir.MemOf(append([]uint64(nil), bits...))
}

// Bits returns the bits of the values v rounded to type t (float32's in
// the low 32).
func Bits(t ir.Type, v []float64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		if t == ir.F32 {
			out[i] = uint64(math.Float32bits(float32(x)))
		} else {
			out[i] = math.Float64bits(x)
		}
	}
	return out
}

// Values returns the values of type t whose bits are b, as float64.
func Values(t ir.Type, b []uint64) []float64 {
	out := make([]float64, len(b))
	for i, x := range b {
		if t == ir.F32 {
			out[i] = float64(math.Float32frombits(uint32(x)))
		} else {
			out[i] = math.Float64frombits(x)
		}
	}
	return out
}

// ULPs returns the distance of a from b in values representable in type
// t (float32 or float64): 0 when they are equal, 1 between neighbours,
// across zero too (-0 and +0 are 0 apart). NaNs have no distance: callers
// deal with them first.
func ULPs(t ir.Type, a, b float64) int64 {
	d := ordered(t, a) - ordered(t, b)
	if d < 0 {
		return -d
	}
	return d
}

// ordered maps a float of type t to an integer that counts representable
// values, so that the difference of two is their distance in ulps.
func ordered(t ir.Type, v float64) int64 {
	if t == ir.F32 {
		b := int64(math.Float32bits(float32(v)))
		if b&(1<<31) != 0 {
			return -(b & (1<<31 - 1))
		}
		return b
	}
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return -int64(b &^ (1 << 63))
	}
	return int64(b)
}
