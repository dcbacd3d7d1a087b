// This file implements the table-driven coverage test: a tiny kernel for
// every IR op and every type (and attribute) it accepts, all emitted into
// one module per option set and assembled by ptxas for sm_80 and sm_90.

package ptx

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/stretchr/testify/require"
)

var (
	int16up   = []ir.Type{ir.S16, ir.U16, ir.S32, ir.U32, ir.S64, ir.U64}
	floats    = []ir.Type{ir.F32, ir.F64}
	numeric   = append(append([]ir.Type(nil), int16up...), floats...)
	signedF   = []ir.Type{ir.S16, ir.S32, ir.S64, ir.F32, ir.F64}
	bitsUp    = []ir.Type{ir.B16, ir.B32, ir.B64}
	ints16up  = append(append([]ir.Type(nil), int16up...), bitsUp...)
	width3264 = []ir.Type{ir.B32, ir.S32, ir.U32, ir.F32, ir.B64, ir.S64, ir.U64, ir.F64}
)

// kernelSet collects tiny kernels with unique names.
type kernelSet struct{ fns []*ir.Func }

// tiny adds a kernel named name whose operands of types args are loaded
// from pointer parameters (a pred from a u32 != 0) and whose result, if
// any, is stored through out (a pred as a u32 0 or 1).
func (ks *kernelSet) tiny(name string, args []ir.Type, body func(b *ir.Builder, a []*ir.Value) *ir.Value) {
	f := ir.NewFunc(sanitizeName(name))
	ptrs := make([]*ir.Value, len(args))
	for i, t := range args {
		if t == ir.Pred {
			t = ir.U32
		}
		ptrs[i] = f.AddParam(fmt.Sprintf("in%d", i), gptr(t))
	}
	b := ir.NewBuilder(f)
	vals := make([]*ir.Value, len(args))
	for i, t := range args {
		vals[i] = b.Load(ptrs[i])
		if t == ir.Pred {
			vals[i] = b.Ne(vals[i], b.U32(0))
		}
	}
	b.SetComment(name)
	r := body(b, vals)
	b.SetComment("")
	if r != nil {
		t := r.Type
		if t == ir.Pred {
			r, t = b.Select(r, b.U32(1), b.U32(0)), ir.U32
		}
		if t.IsPtr() {
			r = b.Load(r)
			t = r.Type
		}
		out := f.AddParam("out", gptr(t))
		b.Store(out, r)
	}
	b.Ret()
	ks.fns = append(ks.fns, f)
}

func sanitizeName(s string) string {
	return strings.NewReplacer(".", "_", " ", "_", "-", "_", ">", "", ",", "_").Replace(s)
}

// binary returns the body applying a two-operand builder method.
func binary(fn func(b *ir.Builder, x, y *ir.Value) *ir.Value) func(*ir.Builder, []*ir.Value) *ir.Value {
	return func(b *ir.Builder, a []*ir.Value) *ir.Value { return fn(b, a[0], a[1]) }
}

func unary(fn func(b *ir.Builder, x *ir.Value) *ir.Value) func(*ir.Builder, []*ir.Value) *ir.Value {
	return func(b *ir.Builder, a []*ir.Value) *ir.Value { return fn(b, a[0]) }
}

// coverageKernels builds the kernels of the coverage test.
func coverageKernels() *kernelSet {
	ks := &kernelSet{}
	bin := []struct {
		op    string
		types []ir.Type
		fn    func(b *ir.Builder, x, y *ir.Value) *ir.Value
	}{
		{"add", numeric, (*ir.Builder).Add},
		{"sub", numeric, (*ir.Builder).Sub},
		{"mul", numeric, (*ir.Builder).Mul},
		{"div", numeric, (*ir.Builder).Div},
		{"divapprox", []ir.Type{ir.F32}, (*ir.Builder).DivApprox},
		{"rem", int16up, (*ir.Builder).Rem},
		{"min", numeric, (*ir.Builder).Min},
		{"max", numeric, (*ir.Builder).Max},
		{"mulhi", int16up, (*ir.Builder).MulHi},
		{"mulwide", []ir.Type{ir.S16, ir.U16, ir.S32, ir.U32}, (*ir.Builder).MulWide},
		{"and", append([]ir.Type{ir.Pred}, ints16up...), (*ir.Builder).And},
		{"or", append([]ir.Type{ir.Pred}, ints16up...), (*ir.Builder).Or},
		{"xor", append([]ir.Type{ir.Pred}, ints16up...), (*ir.Builder).Xor},
	}
	for _, c := range bin {
		for _, t := range c.types {
			ks.tiny(c.op+"_"+t.String(), []ir.Type{t, t}, binary(c.fn))
			ks.tiny(c.op+"_const_"+t.String(), []ir.Type{t}, unary(func(b *ir.Builder, x *ir.Value) *ir.Value {
				c.fn(b, x, b.One(t))
				return c.fn(b, b.One(t), x)
			}))
		}
	}
	un := []struct {
		op    string
		types []ir.Type
		fn    func(b *ir.Builder, x *ir.Value) *ir.Value
	}{
		{"neg", signedF, (*ir.Builder).Neg},
		{"abs", signedF, (*ir.Builder).Abs},
		{"not", append([]ir.Type{ir.Pred}, ints16up...), (*ir.Builder).Not},
		{"popc", []ir.Type{ir.B32, ir.S32, ir.U32, ir.B64, ir.S64, ir.U64}, (*ir.Builder).Popc},
		{"clz", []ir.Type{ir.B32, ir.S32, ir.U32, ir.B64, ir.S64, ir.U64}, (*ir.Builder).Clz},
	}
	for _, c := range un {
		for _, t := range c.types {
			ks.tiny(c.op+"_"+t.String(), []ir.Type{t}, unary(c.fn))
		}
	}
	for _, t := range floats {
		ks.tiny("fma_"+t.String(), []ir.Type{t, t, t}, func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.FMA(a[0], a[1], a[2]) })
	}
	for _, t := range ints16up {
		ks.tiny("shl_"+t.String(), []ir.Type{t, ir.U32}, binary((*ir.Builder).Shl))
		ks.tiny("shr_"+t.String(), []ir.Type{t, ir.U32}, binary((*ir.Builder).Shr))
	}
	for _, t := range append(append([]ir.Type(nil), ints16up...), floats...) {
		for _, c := range allCmps {
			if cmpOK(c, t) {
				ks.tiny("cmp_"+c.String()+"_"+t.String(), []ir.Type{t, t}, binary(func(b *ir.Builder, x, y *ir.Value) *ir.Value { return b.Cmp(c, x, y) }))
			}
		}
	}
	addSelects(ks)
	addConversions(ks)
	addMemory(ks)
	addWarpAndSync(ks)
	addMath(ks)
	addControl(ks)
	return ks
}

func addSelects(ks *kernelSet) {
	for _, t := range append([]ir.Type{ir.Pred}, scalarTypes...) {
		ks.tiny("select_"+t.String(), []ir.Type{ir.Pred, t, t}, func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Select(a[0], a[1], a[2]) })
		ks.tiny("select_const_"+t.String(), []ir.Type{ir.Pred}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
			return b.Select(a[0], b.Zero(t), b.Select(b.Bool(false), b.One(t), b.Zero(t)))
		})
	}
	ks.tiny("select_ptr_shared", []ir.Type{ir.Pred}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		s := b.Func().AddShared("buf", ir.S32, 8)
		b.Store(s, b.S32(1))
		b.Store(b.Index(s, b.S32(1)), b.S32(2))
		return b.Select(a[0], s, b.Index(s, b.S32(1)))
	})
	ks.tiny("select_ptr_global", []ir.Type{ir.Pred, ir.U64}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		p := b.Func().AddParam("p", gptr(ir.F32))
		return b.Select(a[0], p, b.Index(p, a[1]))
	})
}

// rndsFor returns the rounding modes the IR accepts for a conversion.
func rndsFor(from, to ir.Type) []ir.Rounding {
	if !from.IsFloat() && !to.IsFloat() {
		return []ir.Rounding{ir.RndDefault}
	}
	return []ir.Rounding{ir.RndDefault, ir.RndRN, ir.RndRZ, ir.RndRM, ir.RndRP}
}

func addConversions(ks *kernelSet) {
	for _, from := range scalarTypes {
		for _, to := range scalarTypes {
			if from == to {
				continue
			}
			ks.tiny("cvt_const_"+to.String()+"_"+from.String(), nil, func(b *ir.Builder, _ []*ir.Value) *ir.Value {
				return b.Cvt(b.Int(from, -3), to)
			})
			for _, r := range rndsFor(from, to) {
				ks.tiny(fmt.Sprintf("cvt_%s_%s_%s_%s", r, to, from, "r"), []ir.Type{from}, unary(func(b *ir.Builder, x *ir.Value) *ir.Value { return b.CvtRnd(x, to, r) }))
			}
			if from.Bits() == to.Bits() {
				ks.tiny("bitcast_"+to.String()+"_"+from.String(), []ir.Type{from}, unary(func(b *ir.Builder, x *ir.Value) *ir.Value { return b.Bitcast(x, to) }))
			}
		}
	}
	ks.tiny("f32tof16", []ir.Type{ir.F32}, unary((*ir.Builder).F32ToF16))
	ks.tiny("f16tof32", []ir.Type{ir.U16}, unary((*ir.Builder).F16ToF32))
	ks.tiny("f32tobf16", []ir.Type{ir.F32}, unary((*ir.Builder).F32ToBF16))
	for _, f := range []ir.HalfFmt{ir.HalfF16, ir.HalfBF16} {
		for _, op := range []ir.Op{ir.OpHAdd, ir.OpHSub, ir.OpHMul} {
			ks.tiny(op.String()+"_"+f.String(), []ir.Type{ir.U16, ir.U16}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
				return b.HalfArith(op, f, a[0], a[1])
			})
		}
		ks.tiny("hcmp_"+f.String(), []ir.Type{ir.U16, ir.U16}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
			return b.HalfCmp(ir.CmpLTU, f, a[0], a[1])
		})
	}
}

func addMemory(ks *kernelSet) {
	for _, t := range scalarTypes {
		for _, w := range []int{1, 2, 4} {
			if w*t.Size() > 16 {
				continue
			}
			name := fmt.Sprintf("%s_v%d", t, w)
			ks.tiny("ldst_global_"+name, []ir.Type{ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
				f := b.Func()
				src := f.AddParam("src", gptr(t))
				dst := f.AddParam("dst", gptr(t))
				b.StoreVec(b.Index(dst, a[0]), b.LoadVec(b.Index(src, a[0]), w)...)
				consts := make([]*ir.Value, w)
				for i := range consts {
					consts[i] = b.Const(t, uint64(i+1))
				}
				b.StoreVec(dst, consts...)
				return nil
			})
			ks.tiny("ldst_nc_"+name, []ir.Type{ir.S64}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
				f := b.Func()
				src := f.AddParam("src", gptr(t))
				dst := f.AddParam("dst", gptr(t))
				in := b.Emit(ir.OpLoad, ir.Invalid, b.Index(src, a[0]))
				in.Cache, in.Width = ir.CacheNC, 1
				b.Store(dst, in.Result())
				return nil
			})
			for _, sp := range []ir.Space{ir.SpaceShared, ir.SpaceLocal} {
				ks.tiny("ldst_"+sp.String()+"_"+name, []ir.Type{t}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
					var buf *ir.Value
					if sp == ir.SpaceShared {
						buf = b.Func().AddShared("buf", t, 8)
					} else {
						buf = b.Func().AddLocal("buf", t, 8)
					}
					vals := make([]*ir.Value, w)
					for i := range vals {
						vals[i] = a[0]
					}
					p := b.Index(buf, b.U32(uint32(w)))
					b.StoreVec(p, vals...)
					return b.LoadVec(p, w)[w-1]
				})
			}
			ks.tiny("ld_const_"+name, nil, func(b *ir.Builder, a []*ir.Value) *ir.Value {
				c := b.Func().AddParam("c", ir.PtrTo(ir.SpaceConst, t))
				return b.LoadVec(c, w)[0]
			})
		}
	}
	for _, sp := range []ir.Space{ir.SpaceGlobal, ir.SpaceShared} {
		for _, ot := range []ir.Type{ir.S32, ir.U32, ir.S64, ir.U64} {
			name := sp.String() + "_" + ot.String()
			ks.tiny("addr_"+name, []ir.Type{ot}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
				var p *ir.Value
				if sp == ir.SpaceShared {
					p = b.Func().AddShared("buf", ir.F64, 64)
					b.Store(p, b.F64(1))
				} else {
					p = b.Func().AddParam("p", gptr(ir.F64))
				}
				q := b.PtrCast(b.PtrAdd(b.Index(p, a[0]), b.Int(ot, 8)), ir.S32)
				q = b.PtrAdd(b.Index(q, b.Int(ot, -1)), a[0])
				q = b.Index(b.PtrCast(b.Index(q, b.Int(ot, 0)), ir.U8), a[0])
				return b.PtrCast(q, ir.F64)
			})
		}
	}
	for op := ir.AtomAdd; op <= ir.AtomDec; op++ {
		for _, t := range width3264 {
			if !atomOK(op, t) {
				continue
			}
			for _, sp := range []ir.Space{ir.SpaceGlobal, ir.SpaceShared} {
				ks.tiny("atom_"+sp.String()+"_"+op.String()+"_"+t.String(), []ir.Type{t, t}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
					var p *ir.Value
					if sp == ir.SpaceShared {
						p = b.Func().AddShared("buf", t, 4)
						b.Store(p, a[1])
					} else {
						p = b.Func().AddParam("p", gptr(t))
					}
					if op == ir.AtomCAS {
						b.AtomicCAS(p, b.Zero(t), b.Const(t, 1))
						return b.AtomicCAS(p, a[0], a[1])
					}
					b.Atomic(op, p, b.Const(t, 1))
					return b.Atomic(op, p, a[0])
				})
			}
		}
	}
}

func addWarpAndSync(ks *kernelSet) {
	for _, mode := range []ir.ShflMode{ir.ShflIdx, ir.ShflUp, ir.ShflDown, ir.ShflBfly} {
		for _, t := range width3264 {
			ks.tiny("shfl_"+mode.String()+"_"+t.String(), []ir.Type{t, ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
				return b.Shfl(mode, a[0], a[1], b.FullMask())
			})
		}
		ks.tiny("shfl_const_"+mode.String(), []ir.Type{ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
			return b.Shfl(mode, b.F64(2.5), b.U32(1), a[0])
		})
	}
	for _, mode := range []ir.VoteMode{ir.VoteAll, ir.VoteAny, ir.VoteBallot} {
		ks.tiny("vote_"+mode.String(), []ir.Type{ir.Pred, ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
			return b.Vote(mode, a[0], a[1])
		})
		ks.tiny("vote_const_"+mode.String(), nil, func(b *ir.Builder, a []*ir.Value) *ir.Value {
			return b.Vote(mode, b.Bool(true), b.FullMask())
		})
	}
	for r := ir.RegTidX; r <= ir.RegDynSmemSize; r++ {
		ks.tiny("special_"+r.String(), nil, func(b *ir.Builder, _ []*ir.Value) *ir.Value { return b.Special(r) })
	}
	ks.tiny("barrier", nil, func(b *ir.Builder, _ []*ir.Value) *ir.Value { b.Barrier(); return nil })
	for _, op := range []ir.RedOp{ir.RedPopc, ir.RedAnd, ir.RedOr} {
		ks.tiny("barred_"+op.String(), []ir.Type{ir.Pred}, func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.BarRed(op, a[0]) })
		ks.tiny("barred_const_"+op.String(), nil, func(b *ir.Builder, _ []*ir.Value) *ir.Value { return b.BarRed(op, b.Bool(true)) })
	}
	ks.tiny("warpsync", []ir.Type{ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		b.WarpSync(a[0])
		b.WarpSync(b.FullMask())
		return nil
	})
	ks.tiny("trap", []ir.Type{ir.Pred}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		b.If(a[0], func() { b.Trap() })
		return nil
	})
	ks.tiny("dynshared", []ir.Type{ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		p := b.Func().AddDynShared("dyn", ir.F64)
		q := b.Func().AddDynShared("dyn32", ir.U32)
		b.Store(b.Index(p, a[0]), b.F64(1))
		return b.Load(b.Index(q, a[0]))
	})
	for _, t := range scalarTypes {
		ks.tiny("constarray_"+t.String(), []ir.Type{ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
			c := b.Func().AddConstArray("tab", t, []uint64{1, 0x7f, 1<<63 | 5})
			return b.Load(b.Index(c, a[0]))
		})
	}
	for _, s := range []ir.Scope{ir.ScopeCTA, ir.ScopeGPU, ir.ScopeSys} {
		ks.tiny("fence_"+s.String(), nil, func(b *ir.Builder, _ []*ir.Value) *ir.Value { b.Fence(s); return nil })
	}
}

// nativeMath lists the math functions with an accurate PTX template.
func nativeMath(fn ir.MathFn) bool { return accurateTemplate(fn) != "" }

func addMath(ks *kernelSet) {
	isa, err := ISAVersion(DefaultArch, DefaultCUDA)
	if err != nil {
		panic(err) // the defaults always resolve
	}
	for fn := ir.MathFn(0); int(fn) < ir.NumMathFns; fn++ {
		for _, t := range floats {
			args := make([]ir.Type, fn.Arity())
			for i := range args {
				args[i] = t
			}
			if nativeMath(fn) {
				ks.tiny("math_"+fn.String()+"_"+t.String(), args, func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Math(fn, a...) })
			}
			if t == ir.F32 && hasApprox(fn, DefaultArch, isa) {
				ks.tiny("mathapprox_"+fn.String()+"_"+t.String(), args, func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.MathApprox(fn, a...) })
			}
		}
	}
}

func addControl(ks *kernelSet) {
	// A conditional branch whose edges both carry arguments, swapped on
	// one edge: legalization splits both edges.
	ks.tiny("condbr_args", []ir.Type{ir.Pred, ir.S32, ir.S32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		join := b.NewBlock("join", ir.S32, ir.S32)
		b.CondBrArgs(a[0], ir.Edge{Block: join, Args: []*ir.Value{a[1], a[2]}}, ir.Edge{Block: join, Args: []*ir.Value{a[2], a[1]}})
		b.SetBlock(join)
		return b.Sub(join.Params[0], join.Params[1])
	})
	ks.tiny("while_pred_carry", []ir.Type{ir.Pred, ir.U32}, func(b *ir.Builder, a []*ir.Value) *ir.Value {
		res := b.While([]*ir.Value{a[0], b.Bool(false), a[1]},
			func(v []*ir.Value) *ir.Value { return b.Ne(v[2], b.U32(0)) },
			func(v []*ir.Value) []*ir.Value { return []*ir.Value{v[1], v[0], b.Sub(v[2], b.U32(1))} })
		return b.Xor(res[0], res[1])
	})
}

// coveredOps returns the set of ops the kernels use.
func coveredOps(fns []*ir.Func) map[ir.Op]bool {
	ops := map[ir.Op]bool{}
	for _, f := range fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				ops[in.Op] = true
			}
		}
	}
	return ops
}

func TestCoverageEveryOp(t *testing.T) {
	ks := coverageKernels()
	ops := coveredOps(ks.fns)
	for op := ir.Op(1); int(op) < ir.NumOps; op++ {
		require.True(t, ops[op], "op %s has no kernel in the coverage test", op)
		require.NotNil(t, opRules[op].emit, "op %s has no template", op)
	}
	for _, f := range ks.fns {
		require.NoError(t, f.Verify(), "coverage kernel %s", f.Name)
	}
}

func TestCoverageAssembles(t *testing.T) {
	ks := coverageKernels()
	for _, opts := range []Options{{}, {FastMath: true, Arch: Capability{9, 0}}} {
		fns := ks.fns
		if opts.FastMath {
			fns = fastMathSensitive(fns)
		}
		text, err := EmitModule(fns, opts)
		require.NoError(t, err)
		if testing.Verbose() {
			t.Logf("%d kernels, %d bytes of PTX", len(fns), len(text))
		}
		if opts.Arch == (Capability{}) {
			ptxas.AssembleAll(t, text) // sm_80 and sm_90
		} else {
			ptxas.AssembleAll(t, text, opts.Arch.String())
		}
	}
}

// fastMathSensitive returns the kernels whose PTX FastMath changes: those
// with float add, sub, mul or div, or math calls.
func fastMathSensitive(fns []*ir.Func) []*ir.Func {
	var out []*ir.Func
	for _, f := range fns {
		keep := false
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				switch in.Op {
				case ir.OpMath:
					keep = true
				case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv:
					keep = keep || in.Args[0].Type.IsFloat()
				}
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}
