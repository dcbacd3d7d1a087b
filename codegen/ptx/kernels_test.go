// This file builds the kernels of the golden and assembly tests with the
// IR builder.

package ptx

import "github.com/fuseflow/fuseflow/codegen/ir"

func gptr(t ir.Type) ir.Type { return ir.PtrTo(ir.SpaceGlobal, t) }

// vaddKernel is z = x + y over a grid-stride loop.
func vaddKernel() *ir.Func {
	f := ir.NewFunc("vadd")
	x := f.AddParam("x", gptr(ir.F32))
	y := f.AddParam("y", gptr(ir.F32))
	z := f.AddParam("z", gptr(ir.F32))
	n := f.AddParam("n", ir.U32)
	f.Params[0].ReadOnly, f.Params[1].ReadOnly = true, true
	f.MaxThreads = 256
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		b.SetComment("x[i], y[i]")
		xv, yv := b.Load(b.Index(x, i)), b.Load(b.Index(y, i))
		b.SetComment("add")
		s := b.Add(xv, yv)
		b.SetComment("z[i] =")
		b.Store(b.Index(z, i), s)
		b.SetComment("")
	})
	b.Ret()
	return f
}

// stridedKernel is out[i] = in[(i/cols)*rowStride + (i%cols)*colStride] *
// scale[i%cols] with 64-bit indices: a strided operand and a broadcast one.
func stridedKernel() *ir.Func {
	f := ir.NewFunc("strided_scale")
	in := f.AddParam("in", gptr(ir.F64))
	scale := f.AddParam("scale", gptr(ir.F64))
	out := f.AddParam("out", gptr(ir.F64))
	n := f.AddParam("n", ir.S64)
	cols := f.AddParam("cols", ir.S64)
	rs := f.AddParam("row_stride", ir.S64)
	cs := f.AddParam("col_stride", ir.S64)
	f.Params[0].ReadOnly, f.Params[1].ReadOnly = true, true
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		b.SetComment("index of in")
		row, col := b.Div(i, cols), b.Rem(i, cols)
		src := b.Add(b.Mul(row, rs), b.Mul(col, cs))
		b.SetComment("mul (scale broadcast along rows)")
		v := b.Mul(b.Load(b.Index(in, src)), b.Load(b.Index(scale, col)))
		b.SetComment("")
		b.Store(b.Index(out, i), v)
	})
	b.Ret()
	return f
}

// warpSum adds v over the 32 lanes of a warp with butterfly-free
// shuffles down.
func warpSum(b *ir.Builder, v *ir.Value) *ir.Value {
	for off := uint32(16); off > 0; off /= 2 {
		v = b.Add(v, b.Shfl(ir.ShflDown, v, b.U32(off), b.FullMask()))
	}
	return v
}

// blockSumKernel sums x into *out: per-thread partial sums over a
// grid-stride loop, a warp reduction with shuffles, one partial per warp
// in shared memory, the first warp reducing those, and one atomic add per
// block.
func blockSumKernel() *ir.Func {
	f := ir.NewFunc("block_sum")
	x := f.AddParam("x", gptr(ir.F32))
	out := f.AddParam("out", gptr(ir.F32))
	n := f.AddParam("n", ir.U32)
	f.Params[0].ReadOnly = true
	f.MaxThreads = 1024
	part := f.AddShared("partials", ir.F32, 32)
	b := ir.NewBuilder(f)
	b.SetComment("sum: per-thread partials")
	acc := b.GridStrideCarry(n, []*ir.Value{b.F32(0)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		return []*ir.Value{b.Add(c[0], b.Load(b.Index(x, i)))}
	})
	b.SetComment("sum: warp reduction")
	v := warpSum(b, acc[0])
	lane := b.LaneID()
	warp := b.Shr(b.TidX(), b.U32(5))
	b.If(b.Eq(lane, b.U32(0)), func() { b.Store(b.Index(part, warp), v) })
	b.SetComment("sum: block reduction")
	b.Barrier()
	tid := b.TidX()
	b.If(b.Lt(tid, b.U32(32)), func() {
		nw := b.Shr(b.Add(b.NtidX(), b.U32(31)), b.U32(5))
		pv := b.IfElseValues(b.Lt(tid, nw),
			func() []*ir.Value { return []*ir.Value{b.Load(b.Index(part, tid))} },
			func() []*ir.Value { return []*ir.Value{b.F32(0)} })
		w := warpSum(b, pv[0])
		b.If(b.Eq(tid, b.U32(0)), func() { b.Atomic(ir.AtomAdd, out, w) })
	})
	b.Ret()
	return f
}

// atomicsKernel applies every atomic operation to global and shared
// memory for each type it accepts, summing the old values into out.
func atomicsKernel() *ir.Func {
	f := ir.NewFunc("atomics")
	types := []ir.Type{ir.S32, ir.U32, ir.S64, ir.U64, ir.F32, ir.F64, ir.B32, ir.B64}
	gp := make([]*ir.Value, len(types))
	for i, t := range types {
		gp[i] = f.AddParam("g_"+t.String(), gptr(t))
	}
	sp := make([]*ir.Value, len(types))
	for i, t := range types {
		sp[i] = f.AddShared("s_"+t.String(), t, 32)
	}
	b := ir.NewBuilder(f)
	for i, t := range types {
		for _, p := range []*ir.Value{gp[i], sp[i]} {
			b.SetComment("atomics on " + p.Type.String())
			var olds []*ir.Value
			one := b.One(t)
			if t.IsBits() {
				one = b.Const(t, 1)
			}
			for op := ir.AtomAdd; op <= ir.AtomXor; op++ {
				if !atomOK(op, t) {
					continue
				}
				if op == ir.AtomCAS {
					olds = append(olds, b.AtomicCAS(p, b.Zero(t), one))
					continue
				}
				olds = append(olds, b.Atomic(op, p, one))
			}
			acc := olds[0]
			for _, o := range olds[1:] {
				if t.IsBits() {
					acc = b.Xor(acc, o)
				} else {
					acc = b.Add(acc, o)
				}
			}
			b.Store(b.Index(gp[i], b.U32(1)), acc)
		}
	}
	b.Ret()
	return f
}

// atomOK reports whether the IR accepts atomic op on element type t.
func atomOK(op ir.AtomOp, t ir.Type) bool {
	switch op {
	case ir.AtomAdd:
		return t.IsArith() && t.Bits() >= 32 || t.IsFloat()
	case ir.AtomMin, ir.AtomMax:
		return t.IsArith() && t.Bits() >= 32
	case ir.AtomExch, ir.AtomCAS:
		return t.Bits() == 32 || t.Bits() == 64
	case ir.AtomInc, ir.AtomDec:
		return t == ir.U32
	}
	return t.IsInt() && t.Bits() >= 32
}

// allCmps is every compare predicate.
var allCmps = []ir.CmpPred{ir.CmpEQ, ir.CmpNE, ir.CmpLT, ir.CmpLE, ir.CmpGT, ir.CmpGE,
	ir.CmpEQU, ir.CmpNEU, ir.CmpLTU, ir.CmpLEU, ir.CmpGTU, ir.CmpGEU, ir.CmpNUM, ir.CmpNAN}

// cmpOK reports whether the IR accepts predicate c on type t.
func cmpOK(c ir.CmpPred, t ir.Type) bool {
	switch {
	case t.IsFloat():
		return true
	case t.IsBits():
		return c == ir.CmpEQ || c == ir.CmpNE
	}
	return !c.IsFloatOnly()
}

// compareKernel evaluates every compare predicate on f32, f64, s32, u64
// and b32 operands and counts the true ones.
func compareKernel() *ir.Func {
	f := ir.NewFunc("compare_all")
	out := f.AddParam("count", gptr(ir.U32))
	types := []ir.Type{ir.F32, ir.F64, ir.S32, ir.U64, ir.B32, ir.S16}
	ins := make([]*ir.Value, len(types))
	for i, t := range types {
		ins[i] = f.AddParam("v_"+t.String(), gptr(t))
	}
	b := ir.NewBuilder(f)
	count := b.U32(0)
	for i, t := range types {
		x, y := b.Load(ins[i]), b.Load(b.Index(ins[i], b.U32(1)))
		for _, c := range allCmps {
			if !cmpOK(c, t) {
				continue
			}
			b.SetComment("cmp." + c.String() + "." + t.String())
			count = b.Add(count, b.Select(b.Cmp(c, x, y), b.U32(1), b.U32(0)))
		}
	}
	b.SetComment("")
	b.Store(out, count)
	b.Ret()
	return f
}

// scalarTypes is every scalar type a value may have in memory.
var scalarTypes = []ir.Type{ir.B8, ir.B16, ir.B32, ir.B64, ir.S8, ir.S16, ir.S32, ir.S64,
	ir.U8, ir.U16, ir.U32, ir.U64, ir.F32, ir.F64}

// convertKernel converts an f32, an s32 and a u8 to every scalar type and
// back with the default rounding, and an f64, an s64 and an f32 with every
// rounding mode.
func convertKernel() *ir.Func {
	f := ir.NewFunc("convert_all")
	srcTypes := []ir.Type{ir.F32, ir.S32, ir.U8}
	srcs := make([]*ir.Value, len(srcTypes))
	for i, t := range srcTypes {
		srcs[i] = f.AddParam("in_"+t.String(), gptr(t))
	}
	outs := make([]*ir.Value, len(scalarTypes))
	for i, t := range scalarTypes {
		outs[i] = f.AddParam("out_"+t.String(), gptr(t))
	}
	b := ir.NewBuilder(f)
	for si, st := range srcTypes {
		x := b.Load(srcs[si])
		for oi, t := range scalarTypes {
			if t == st {
				continue
			}
			b.SetComment("cvt " + st.String() + " -> " + t.String() + " -> " + st.String())
			y := b.Cvt(x, t)
			b.Store(outs[oi], y)
			b.Store(srcs[si], b.Cvt(y, st))
		}
	}
	b.SetComment("rounding modes")
	d := b.Cvt(b.Load(srcs[0]), ir.F64)
	l := b.Cvt(b.Load(srcs[1]), ir.S64)
	x := b.Load(srcs[0])
	for r := ir.RndDefault; r <= ir.RndRP; r++ {
		b.Store(outs[12], b.CvtRnd(d, ir.F32, r))
		b.Store(outs[12], b.CvtRnd(l, ir.F32, r))
		b.Store(outs[6], b.CvtRnd(x, ir.S32, r))
		b.Store(outs[11], b.CvtRnd(d, ir.U64, r))
	}
	b.SetComment("bit casts")
	b.Store(outs[10], b.Bitcast(x, ir.U32))
	b.Store(outs[13], b.Bitcast(b.Load(outs[7]), ir.F64))
	b.Store(outs[4], b.Bitcast(b.Load(outs[8]), ir.S8))
	b.Ret()
	return f
}

// vectorKernel copies with .v4 and .v2 loads and stores in global, shared
// and local memory.
func vectorKernel() *ir.Func {
	f := ir.NewFunc("vector_copy")
	src := f.AddParam("src", gptr(ir.F32))
	dst := f.AddParam("dst", gptr(ir.F32))
	bytesIn := f.AddParam("bytes_in", gptr(ir.U8))
	bytesOut := f.AddParam("bytes_out", gptr(ir.U8))
	n4 := f.AddParam("n4", ir.U32)
	f.Params[0].ReadOnly = true
	tile := f.AddShared("tile", ir.F32, 1024)
	scratch := f.AddLocal("scratch", ir.F64, 2)
	b := ir.NewBuilder(f)
	b.GridStride(n4, func(i *ir.Value) {
		b.SetComment("float4 copy through shared memory")
		i4 := b.Mul(i, b.U32(4))
		v := b.LoadVec(b.Index(src, i4), 4)
		t := b.Index(tile, b.Mul(b.TidX(), b.U32(4)))
		b.StoreVec(t, v...)
		w := b.LoadVec(t, 4)
		b.StoreVec(b.Index(dst, i4), w[3], w[2], w[1], w[0])
		b.SetComment("uchar4 copy")
		c := b.LoadVec(b.Index(bytesIn, i4), 4)
		b.StoreVec(b.Index(bytesOut, i4), c...)
		b.SetComment("double2 through local memory")
		d0, d1 := b.Cvt(w[0], ir.F64), b.Cvt(w[1], ir.F64)
		b.StoreVec(scratch, d0, d1)
		dd := b.LoadVec(scratch, 2)
		b.Store(b.Index(dst, i4), b.Cvt(b.Add(dd[0], dd[1]), ir.F32))
	})
	b.Ret()
	return f
}

// swapLoopKernel runs a loop whose carried values are permuted at the back
// edge: (a, b) swap, (p, q, r) rotate, and (f0, f1) step a Fibonacci pair.
func swapLoopKernel() *ir.Func {
	f := ir.NewFunc("swap_loop")
	out := f.AddParam("out", gptr(ir.S32))
	n := f.AddParam("n", ir.S32)
	b := ir.NewBuilder(f)
	b.SetComment("permuted loop-carried values")
	init := []*ir.Value{b.S32(1), b.S32(2), b.S32(3), b.S32(4), b.S32(5), b.S32(0), b.S32(1)}
	res := b.ForCarry(b.S32(0), n, b.S32(1), init, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		return []*ir.Value{c[1], c[0], c[3], c[4], c[2], c[6], b.Add(c[5], c[6])}
	})
	b.SetComment("")
	for k, v := range res {
		b.Store(b.Index(out, b.S32(int32(k))), v)
	}
	b.Ret()
	return f
}

// mathKernel calls every math function with a PTX form on f32 and f64.
func mathKernel() *ir.Func {
	f := ir.NewFunc("math_native")
	x32 := f.AddParam("x32", gptr(ir.F32))
	x64 := f.AddParam("x64", gptr(ir.F64))
	b := ir.NewBuilder(f)
	a32, a64 := b.Load(x32), b.Load(x64)
	fns := []ir.MathFn{ir.MathSqrt, ir.MathRsqrt, ir.MathFloor, ir.MathCeil, ir.MathTrunc, ir.MathRoundEven}
	for _, fn := range fns {
		b.SetComment(fn.String())
		a32 = b.Math(fn, a32)
		a64 = b.Math(fn, a64)
	}
	for _, fn := range []ir.MathFn{ir.MathExp, ir.MathExp2, ir.MathLog, ir.MathLog2, ir.MathSin, ir.MathCos,
		ir.MathTan, ir.MathTanh, ir.MathSigmoid, ir.MathSqrt, ir.MathRsqrt} {
		b.SetComment(fn.String() + " (approx)")
		a32 = b.MathApprox(fn, a32)
	}
	b.SetComment("min/max and div")
	a32 = b.Max(b.Min(a32, b.F32(1)), b.F32(-1))
	a32 = b.Div(a32, b.Load(x32))
	a32 = b.DivApprox(a32, b.Load(x32))
	a32 = b.FMA(a32, a32, b.Load(x32))
	b.SetComment("")
	b.Store(x32, a32)
	b.Store(x64, a64)
	b.Ret()
	return f
}
