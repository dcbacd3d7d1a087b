// This file tests Expand as a pass: what it leaves behind, that the result
// verifies, chained and loop-carried uses, comments, and its errors.

package mathlib

import (
	"math"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/stretchr/testify/require"
)

// allFnsKernel applies every math function, accurate and approximate, to
// x[i] (and y[i]) for each of the types and stores the results at
// out[i*count + j].
func allFnsKernel(types ...ir.Type) *ir.Func {
	f := ir.NewFunc("all_math")
	type io struct{ x, y, out *ir.Value }
	var ps []io
	for _, t := range types {
		ptr := ir.PtrTo(ir.SpaceGlobal, t)
		ps = append(ps, io{f.AddParam("x_"+t.String(), ptr), f.AddParam("y_"+t.String(), ptr), f.AddParam("out_"+t.String(), ptr)})
	}
	n := f.AddParam("n", ir.S32)
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		for _, p := range ps {
			x, y := b.Load(b.Index(p.x, i)), b.Load(b.Index(p.y, i))
			base := b.Mul(i, b.S32(int32(2*ir.NumMathFns)))
			for fn := ir.MathFn(0); int(fn) < ir.NumMathFns; fn++ {
				args := []*ir.Value{x}
				if fn.Arity() == 2 {
					args = append(args, y)
				}
				b.SetComment("call " + fn.String())
				acc := b.Math(fn, args...)
				approx := b.MathApprox(fn, args...)
				b.SetComment("")
				b.Store(b.Index(p.out, b.Add(base, b.S32(int32(2*fn)))), acc)
				b.Store(b.Index(p.out, b.Add(base, b.S32(int32(2*fn+1)))), approx)
			}
		}
	})
	b.Ret()
	return f
}

// mathCalls counts the math calls of f: accurate and approximate.
func mathCalls(f *ir.Func) (accurate map[ir.MathFn]int, approx int) {
	accurate = map[ir.MathFn]int{}
	for _, blk := range f.Blocks {
		for _, in := range blk.Instrs {
			if in.Op != ir.OpMath {
				continue
			}
			if in.Approx {
				approx++
			} else {
				accurate[in.Fn]++
			}
		}
	}
	return accurate, approx
}

func TestExpandLeavesOnlyNative(t *testing.T) {
	f := allFnsKernel(ir.F32, ir.F64)
	require.NoError(t, f.Verify())
	_, approxBefore := mathCalls(f)
	require.NoError(t, Expand(f))
	require.NoError(t, f.Verify())
	acc, approxAfter := mathCalls(f)
	for fn := range acc {
		if !IsNative(fn) {
			t.Errorf("math.%s left after Expand: got:%d calls want:0", fn, acc[fn])
		}
	}
	if approxAfter != approxBefore {
		t.Errorf("approximate calls got:%d want:%d (left in place)", approxAfter, approxBefore)
	}
	native := map[ir.MathFn]bool{ir.MathSqrt: true, ir.MathFloor: true, ir.MathCeil: true, ir.MathTrunc: true, ir.MathRoundEven: true}
	for fn := ir.MathFn(0); int(fn) < ir.NumMathFns; fn++ {
		if IsNative(fn) != native[fn] {
			t.Errorf("IsNative(%s) got:%v want:%v", fn, IsNative(fn), native[fn])
		}
	}
	// Expanding again changes nothing.
	nblocks := len(f.Blocks)
	require.NoError(t, Expand(f))
	require.Equal(t, nblocks, len(f.Blocks), "a second Expand added blocks")
}

func TestExpandKeepsComments(t *testing.T) {
	f := allFnsKernel(ir.F32)
	require.NoError(t, Expand(f))
	seen := map[string]bool{}
	for _, blk := range f.Blocks {
		for _, in := range blk.Instrs {
			if strings.HasPrefix(in.Comment, "call ") {
				seen[in.Comment] = true
			}
		}
	}
	for fn := ir.MathFn(0); int(fn) < ir.NumMathFns; fn++ {
		if !seen["call "+fn.String()] {
			t.Errorf("no instruction carries the comment %q", "call "+fn.String())
		}
	}
}

func TestExpandChainedAndCarried(t *testing.T) {
	// acc = pow(exp(log1p(acc)), 0.5) + sin(x) three times in a loop: the
	// expansions use each other's results and a loop-carried value.
	for _, typ := range []ir.Type{ir.F32, ir.F64} {
		f := ir.NewFunc("chain")
		ptr := ir.PtrTo(ir.SpaceGlobal, typ)
		x := f.AddParam("x", ptr)
		out := f.AddParam("out", ptr)
		n := f.AddParam("n", ir.S32)
		b := ir.NewBuilder(f)
		b.GridStride(n, func(i *ir.Value) {
			xv := b.Load(b.Index(x, i))
			r := b.ForCarry(b.S32(0), b.S32(3), b.S32(1), []*ir.Value{xv}, func(_ *ir.Value, c []*ir.Value) []*ir.Value {
				v := b.Math(ir.MathPow, b.Math(ir.MathExp, b.Math(ir.MathLog1p, c[0])), b.Float(typ, 0.5))
				return []*ir.Value{b.Add(v, b.Math(ir.MathSin, xv))}
			})
			b.Store(b.Index(out, i), r[0])
		})
		b.Ret()
		require.NoError(t, Expand(f))
		p, err := ir.Compile(f)
		require.NoError(t, err)
		xs := []float64{0, 0.25, 1, 2.5, 7}
		got := runKernel(t, p, typ, xs, nil)
		for i, xv := range xs {
			if typ == ir.F32 {
				xv = float64(float32(xv))
			}
			want := xv
			for k := 0; k < 3; k++ {
				want = math.Sqrt(math.Exp(math.Log1p(want))) + math.Sin(xv)
			}
			tol := 1e-13
			if typ == ir.F32 {
				tol = 1e-5
			}
			if math.Abs(got[i]-want) > tol*math.Abs(want) {
				t.Errorf("%s chain(%v) got:%v want:%v", typ, xv, got[i], want)
			}
		}
	}
}

func TestExpandErrors(t *testing.T) {
	require.ErrorContains(t, Expand(nil), "nil function")

	f := ir.NewFunc("bad")
	v := f.AddParam("v", ir.S32)
	b := ir.NewBuilder(f)
	b.Math(ir.MathExp, v)
	b.Ret()
	err := Expand(f)
	require.Error(t, err)
	for _, want := range []string{"kernel bad", "math.exp", "operand 0"} {
		require.ErrorContains(t, err, want)
	}

	g := ir.NewFunc("arity")
	w := g.AddParam("w", ir.F32)
	b = ir.NewBuilder(g)
	b.Math(ir.MathPow, w)
	b.Ret()
	require.ErrorContains(t, Expand(g), "1 operands, want 2")
}

func TestExpandWithoutCalls(t *testing.T) {
	f := ir.NewFunc("plain")
	x := f.AddParam("x", ir.F32)
	b := ir.NewBuilder(f)
	b.Add(x, b.Math(ir.MathSqrt, x))
	b.Ret()
	before := f.String()
	require.NoError(t, Expand(f))
	if got := f.String(); got != before {
		t.Errorf("Expand changed a function without expandable calls: got:\n%s\nwant:\n%s", got, before)
	}
}
