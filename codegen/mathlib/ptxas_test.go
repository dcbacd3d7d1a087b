// This file assembles one kernel that uses every math function, accurate
// and approximate, in f32 and f64, emitted by codegen/ptx with Expand as
// its ExpandMath hook, with ptxas for sm_80 and sm_90.

package mathlib_test

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/stretchr/testify/require"
)

// everyFunction builds out[j] = fn_j(x, y) for every function, accurate
// and approximate, for f32 and f64.
func everyFunction() *ir.Func {
	f := ir.NewFunc("every_math")
	type io struct{ x, y, out *ir.Value }
	var ps []io
	for _, t := range []ir.Type{ir.F32, ir.F64} {
		ptr := ir.PtrTo(ir.SpaceGlobal, t)
		ps = append(ps, io{f.AddParam("x_"+t.String(), ptr), f.AddParam("y_"+t.String(), ptr), f.AddParam("out_"+t.String(), ptr)})
	}
	b := ir.NewBuilder(f)
	tid := b.TidX()
	for _, p := range ps {
		x, y := b.Load(b.Index(p.x, tid)), b.Load(b.Index(p.y, tid))
		for fn := ir.MathFn(0); int(fn) < ir.NumMathFns; fn++ {
			args := []*ir.Value{x}
			if fn.Arity() == 2 {
				args = append(args, y)
			}
			b.Store(b.Index(p.out, b.U32(uint32(2*fn))), b.Math(fn, args...))
			b.Store(b.Index(p.out, b.U32(uint32(2*fn+1))), b.MathApprox(fn, args...))
		}
	}
	b.Ret()
	return f
}

func TestEveryFunctionAssembles(t *testing.T) {
	for _, fast := range []bool{false, true} {
		text, err := ptx.Emit(everyFunction(), ptx.Options{ExpandMath: mathlib.Expand, FastMath: fast})
		require.NoError(t, err)
		require.True(t, strings.Contains(text, ".entry every_math"), "no entry in:\n%s", text)
		ptxas.AssembleAll(t, text)
	}
}

func TestEmitWithoutExpandFails(t *testing.T) {
	_, err := ptx.Emit(everyFunction(), ptx.Options{})
	require.Error(t, err)
	require.ErrorContains(t, err, "ExpandMath")
}
