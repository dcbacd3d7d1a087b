// The emitter's op tables against the IR's semantics: a tiny kernel for
// every IR op on every type it takes (conversions with every rounding
// mode), run over the edge values of its operand types (zeros of both
// signs, subnormals, the extremes, NaN and infinities, ties, values at
// the integer limits, shift amounts at and past the width) on the IR
// interpreter and, emitted as PTX, on the simulator. Any difference is a
// bug of the emitter (or of one of the two semantics) and is reported
// with the operands and both results.

package ptxsim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/internal/le"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// edges returns the edge values of IR type t as register bits.
func edges(t ir.Type) []uint64 {
	switch {
	case t == ir.Pred:
		return []uint64{0, 1}
	case t == ir.F32:
		fs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 3, -7.75,
			math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0x1p-127, 0x1p-126, -0x1p-126,
			math.MaxFloat32, -math.MaxFloat32, 16777217, 0x1p31, -0x1p31, 0x1p32, 0x1p63, -0x1p63, 0x1p64, 1e10, -1e-10,
			float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3.14159, 100.5, -128.5, 255.5, 65535.5}
		out := make([]uint64, len(fs))
		for i, f := range fs {
			out[i] = uint64(math.Float32bits(f))
		}
		return out
	case t == ir.F64:
		fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, 3, -7.75,
			math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, -0x1p-1022, math.MaxFloat64, -math.MaxFloat64,
			9007199254740993, 0x1p31, -0x1p31 - 1, 0x1p32, 0x1p63, -0x1p63, 0x1p64, 1e300, 1e-300, 0x1p-149, 0x1p-150 + 0x1p-170,
			math.MaxFloat32, 0x1.fffffffp127, 16777217, 1.00000005960464477539,
			math.Inf(1), math.Inf(-1), math.NaN(), 3.14159, 100.5, -128.5, 2147483647.5, -2147483648.5}
		out := make([]uint64, len(fs))
		for i, f := range fs {
			out[i] = math.Float64bits(f)
		}
		return out
	}
	n := t.Bits()
	m := uint64(1)<<uint(n) - 1
	if n == 64 {
		m = math.MaxUint64
	}
	vals := []uint64{0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 100, m, m - 1, m >> 1, (m >> 1) + 1, 0x5555555555555555 & m, 0xa5a5a5a5a5a5a5a5 & m}
	if t.IsSigned() {
		for _, v := range []int64{-1, -2, -3, -7, -64, -100} {
			vals = append(vals, uint64(v)&m)
		}
	}
	return vals
}

// opCase is a tiny kernel: args are the operand types, build makes the
// result from the loaded operands.
type opCase struct {
	name  string
	args  []ir.Type
	build func(b *ir.Builder, a []*ir.Value) *ir.Value
	// skip leaves out operand combinations whose result the IR leaves
	// unspecified (division by zero).
	skip func(v []uint64) bool
}

// storeType is the type an operand or result of type t is passed as.
func storeType(t ir.Type) ir.Type {
	if t == ir.Pred {
		return ir.U32
	}
	return t
}

// tinyKernel builds the kernel of c: thread i loads operand j from in_j[i]
// and stores the result to out[i] (preds as u32 0/1).
func tinyKernel(c opCase) (*ir.Func, ir.Type, error) {
	f := ir.NewFunc("t_" + sanitize(c.name))
	ptrs := make([]*ir.Value, len(c.args))
	for i, t := range c.args {
		ptrs[i] = f.AddParam(fmt.Sprintf("in%d", i), ir.PtrTo(ir.SpaceGlobal, storeType(t)))
	}
	b := ir.NewBuilder(f)
	tid := b.Add(b.Mul(b.CtaidX(), b.NtidX()), b.TidX())
	vals := make([]*ir.Value, len(c.args))
	for i, t := range c.args {
		vals[i] = b.Load(b.Index(ptrs[i], tid))
		if t == ir.Pred {
			vals[i] = b.Ne(vals[i], b.U32(0))
		}
	}
	r := c.build(b, vals)
	rt := r.Type
	if rt == ir.Pred {
		r, rt = b.Select(r, b.U32(1), b.U32(0)), ir.U32
	}
	out := f.AddParam("out", ir.PtrTo(ir.SpaceGlobal, rt))
	b.Store(b.Index(out, tid), r)
	b.Ret()
	return f, rt, f.Verify()
}

func sanitize(s string) string {
	out := []byte(s)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			out[i] = '_'
		}
	}
	return string(out)
}

// operandRows returns the operand combinations of c: the product of the
// edge values of each operand, without the skipped ones.
func operandRows(c opCase) [][]uint64 {
	rows := [][]uint64{{}}
	for _, t := range c.args {
		var next [][]uint64
		for _, r := range rows {
			for _, v := range edges(t) {
				next = append(next, append(append([]uint64(nil), r...), v))
			}
		}
		rows = next
	}
	if c.skip == nil {
		return rows
	}
	var kept [][]uint64
	for _, r := range rows {
		if !c.skip(r) {
			kept = append(kept, r)
		}
	}
	return kept
}

// runTiny runs c over its operand rows on both and returns a description
// of every row whose results differ (at most a few), or an error.
func runTiny(c opCase, opts ptx.Options) ([]string, error) {
	fn, rt, err := tinyKernel(c)
	if err != nil {
		return nil, err
	}
	rows := operandRows(c)
	n := len(rows)
	if n == 0 {
		return nil, nil
	}
	const block = 128
	grid := (n + block - 1) / block
	slots := grid * block
	// Operand buffers, rows past n repeat the first row.
	ins := make([][]byte, len(c.args))
	for j, t := range c.args {
		st := storeType(t)
		ins[j] = make([]byte, slots*st.Size())
		for i := range slots {
			v := rows[min(i, n-1)][j]
			le.Put(ins[j][i*st.Size():], st.Size(), v)
		}
	}
	// The IR interpreter runs the math library's expansion of accurate
	// math calls, as the PTX does.
	irFn, _, _ := tinyKernel(c)
	if err := mathlib.Expand(irFn); err != nil {
		return nil, err
	}
	// Every pointer parameter's memory, in parameter order: the operand
	// buffers, the output, and any other (an atomic's target, 64 bytes of
	// a fixed pattern) for both sides.
	var irArgs []any
	var regions []ptxsim.Region
	var params []uint64
	var extra [][2][]byte // other buffers: simulator's, interpreter's
	outIdx := -1
	for pi, prm := range fn.Params {
		var data []byte
		var j int
		switch {
		case prm.Name == "out":
			data = make([]byte, slots*rt.Size())
			outIdx = pi
		case isInput(prm.Name, &j) && j < len(ins):
			data = ins[j]
		default:
			data = make([]byte, 64)
			for i := range data {
				data[i] = byte(i*37 + 11)
			}
		}
		irData := append([]byte(nil), data...)
		simData := append([]byte(nil), data...)
		if prm.Name != "out" && !isInput(prm.Name, &j) {
			extra = append(extra, [2][]byte{simData, irData})
		}
		irArgs = append(irArgs, &ir.Mem{Data: irData})
		a := bufBase + uint64(pi)*bufStride
		regions = append(regions, ptxsim.Region{Name: prm.Name, Addr: a, Data: simData})
		params = append(params, a)
	}
	if err := ir.Run(irFn, ir.Config{Grid: [3]int{grid}, Block: [3]int{block}}, irArgs...); err != nil {
		return nil, fmt.Errorf("IR interpreter: %w", err)
	}
	irOut := irArgs[outIdx].(*ir.Mem)
	// The simulator.
	if opts.ExpandMath == nil {
		opts.ExpandMath = mathlib.Expand
	}
	text, err := ptx.Emit(fn, opts)
	if err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	m, err := ptxsim.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("the simulator cannot parse the PTX: %w\n%s", err, text)
	}
	k, err := m.Kernel(fn.Name)
	if err != nil {
		return nil, err
	}
	simOut := regions[outIdx].Data
	// One worker runs the blocks in order, as the interpreter does, so that
	// atomics from different blocks apply in the same order.
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{grid}, Block: [3]int{block}, Params: params, Global: regions, Workers: 1}); err != nil {
		return nil, fmt.Errorf("simulator: %w\n%s", err, text)
	}
	var diffs []string
	sz := rt.Size()
	for i := range n {
		g, w := le.Get(simOut[i*sz:], sz), le.Get(irOut.Data[i*sz:], sz)
		if g == w || bothNaN(g, w, rt) {
			continue
		}
		diffs = append(diffs, fmt.Sprintf("operands %s: ptx=%s ir=%s", showOps(rows[i], c.args), showVal(g, rt), showVal(w, rt)))
		if len(diffs) == 6 {
			break
		}
	}
	for _, e := range extra {
		if string(e[0]) != string(e[1]) {
			diffs = append(diffs, fmt.Sprintf("memory after the kernel: ptx=%x ir=%x", e[0], e[1]))
		}
	}
	if len(diffs) > 0 {
		diffs = append(diffs, "PTX:\n"+text)
	}
	return diffs, nil
}

// isInput reports whether name is an operand parameter "in<j>".
func isInput(name string, j *int) bool {
	n, err := fmt.Sscanf(name, "in%d", j)
	return n == 1 && err == nil
}

func bothNaN(a, b uint64, t ir.Type) bool {
	switch t {
	case ir.F32:
		return math.IsNaN(float64(math.Float32frombits(uint32(a)))) && math.IsNaN(float64(math.Float32frombits(uint32(b))))
	case ir.F64:
		return math.IsNaN(math.Float64frombits(a)) && math.IsNaN(math.Float64frombits(b))
	}
	return false
}

func showVal(v uint64, t ir.Type) string {
	switch {
	case t == ir.F32:
		return fmt.Sprintf("%v (%#08x)", math.Float32frombits(uint32(v)), v)
	case t == ir.F64:
		return fmt.Sprintf("%v (%#016x)", math.Float64frombits(v), v)
	case t.IsSigned():
		s := uint(64 - t.Bits())
		return fmt.Sprint(int64(v<<s) >> s)
	}
	return fmt.Sprintf("%d (%#x)", v, v)
}

func showOps(row []uint64, ts []ir.Type) string {
	s := ""
	for i, v := range row {
		if i > 0 {
			s += ", "
		}
		s += ts[i].String() + " " + showVal(v, storeType(ts[i]))
	}
	return s
}

// Types the emitter takes for each kind of op (8-bit types only move and
// convert).
var (
	ints16  = []ir.Type{ir.S16, ir.U16, ir.S32, ir.U32, ir.S64, ir.U64}
	floats  = []ir.Type{ir.F32, ir.F64}
	numeric = append(append([]ir.Type(nil), ints16...), floats...)
	signedF = []ir.Type{ir.S16, ir.S32, ir.S64, ir.F32, ir.F64}
	bitsAll = append([]ir.Type{ir.B16, ir.B32, ir.B64}, ints16...)
	scalars = []ir.Type{ir.S8, ir.U8, ir.B8, ir.S16, ir.U16, ir.B16, ir.S32, ir.U32, ir.B32, ir.S64, ir.U64, ir.B64, ir.F32, ir.F64}
)

// zeroDivisor skips integer division by zero (the IR leaves it to the
// generator) for operand 1.
func zeroDivisor(t ir.Type) func(v []uint64) bool {
	return func(v []uint64) bool { return t.IsInt() && v[1] == 0 }
}

// emitterCases returns the tiny kernels of every op and type.
func emitterCases() []opCase {
	var cs []opCase
	bin := []struct {
		op    string
		types []ir.Type
		fn    func(b *ir.Builder, x, y *ir.Value) *ir.Value
		div   bool
	}{
		{"add", numeric, (*ir.Builder).Add, false},
		{"sub", numeric, (*ir.Builder).Sub, false},
		{"mul", numeric, (*ir.Builder).Mul, false},
		{"div", numeric, (*ir.Builder).Div, true},
		{"rem", ints16, (*ir.Builder).Rem, true},
		{"min", numeric, (*ir.Builder).Min, false},
		{"max", numeric, (*ir.Builder).Max, false},
		{"mulhi", ints16, (*ir.Builder).MulHi, false},
		{"mulwide", []ir.Type{ir.S16, ir.U16, ir.S32, ir.U32}, (*ir.Builder).MulWide, false},
		{"and", append([]ir.Type{ir.Pred}, bitsAll...), (*ir.Builder).And, false},
		{"or", append([]ir.Type{ir.Pred}, bitsAll...), (*ir.Builder).Or, false},
		{"xor", append([]ir.Type{ir.Pred}, bitsAll...), (*ir.Builder).Xor, false},
	}
	for _, c := range bin {
		for _, t := range c.types {
			c, t := c, t
			oc := opCase{name: c.op + "_" + t.String(), args: []ir.Type{t, t},
				build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return c.fn(b, a[0], a[1]) }}
			if c.div {
				oc.skip = zeroDivisor(t)
			}
			cs = append(cs, oc)
		}
	}
	un := []struct {
		op    string
		types []ir.Type
		fn    func(b *ir.Builder, x *ir.Value) *ir.Value
	}{
		{"neg", signedF, (*ir.Builder).Neg},
		{"abs", signedF, (*ir.Builder).Abs},
		{"not", append([]ir.Type{ir.Pred}, bitsAll...), (*ir.Builder).Not},
		{"popc", []ir.Type{ir.B32, ir.B64, ir.U32, ir.S64}, (*ir.Builder).Popc},
		{"clz", []ir.Type{ir.B32, ir.B64, ir.U32, ir.S64}, (*ir.Builder).Clz},
	}
	for _, c := range un {
		for _, t := range c.types {
			c := c
			cs = append(cs, opCase{name: c.op + "_" + t.String(), args: []ir.Type{t},
				build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return c.fn(b, a[0]) }})
		}
	}
	for _, t := range floats {
		cs = append(cs, opCase{name: "fma_" + t.String(), args: []ir.Type{t, t, t},
			build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.FMA(a[0], a[1], a[2]) }})
	}
	for _, t := range append(append([]ir.Type(nil), ints16...), ir.B16, ir.B32, ir.B64) {
		for _, op := range []string{"shl", "shr"} {
			op := op
			cs = append(cs, opCase{name: op + "_" + t.String(), args: []ir.Type{t, ir.U32},
				build: func(b *ir.Builder, a []*ir.Value) *ir.Value {
					if op == "shl" {
						return b.Shl(a[0], a[1])
					}
					return b.Shr(a[0], a[1])
				}})
		}
	}
	for c := ir.CmpEQ; c <= ir.CmpNAN; c++ {
		for _, t := range append(append([]ir.Type(nil), numeric...), ir.B16, ir.B32, ir.B64) {
			if c.IsFloatOnly() && !t.IsFloat() || t.IsBits() && c != ir.CmpEQ && c != ir.CmpNE {
				continue
			}
			c := c
			cs = append(cs, opCase{name: "cmp_" + c.String() + "_" + t.String(), args: []ir.Type{t, t},
				build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Cmp(c, a[0], a[1]) }})
		}
	}
	for _, t := range append([]ir.Type{ir.Pred}, scalars...) {
		cs = append(cs, opCase{name: "select_" + t.String(), args: []ir.Type{ir.Pred, t, t},
			build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Select(a[0], a[1], a[2]) }})
	}
	for _, from := range scalars {
		for _, to := range scalars {
			if from == to {
				continue
			}
			rnds := []ir.Rounding{ir.RndDefault}
			if from.IsFloat() || to.IsFloat() {
				rnds = []ir.Rounding{ir.RndDefault, ir.RndRN, ir.RndRZ, ir.RndRM, ir.RndRP}
			}
			for _, r := range rnds {
				from, to, r := from, to, r
				cs = append(cs, opCase{name: fmt.Sprintf("cvt_%s_%s_%s", r, to, from), args: []ir.Type{from},
					build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.CvtRnd(a[0], to, r) }})
			}
			if from.Bits() == to.Bits() {
				cs = append(cs, opCase{name: "bitcast_" + to.String() + "_" + from.String(), args: []ir.Type{from},
					build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Bitcast(a[0], to) }})
			}
		}
	}
	for _, fn := range []ir.MathFn{ir.MathSqrt, ir.MathRsqrt, ir.MathFloor, ir.MathCeil, ir.MathTrunc, ir.MathRoundEven} {
		for _, t := range floats {
			fn := fn
			cs = append(cs, opCase{name: "math_" + fn.String() + "_" + t.String(), args: []ir.Type{t},
				build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Math(fn, a[0]) }})
		}
	}
	return cs
}

// TestEmitterAgreesWithIR runs every op of the emitter's tables over the
// edge values of its types on the IR interpreter and, as PTX, on the
// simulator.
func TestEmitterAgreesWithIR(t *testing.T) {
	for _, c := range emitterCases() {
		diffs, err := runTiny(c, ptx.Options{})
		if err != nil {
			if _, _, verr := tinyKernel(c); verr != nil {
				continue // a type the IR does not take for this op
			}
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(diffs) > 0 {
			t.Errorf("%s: the PTX simulator and the IR interpreter disagree (emitter bug?):\n%s", c.name, join(diffs))
		}
	}
}

func join(s []string) string {
	out := ""
	for _, x := range s {
		out += "  " + x + "\n"
	}
	return out
}

// TestEmitterWarpAndAtomicsAgree runs shuffles of every mode and width
// (64-bit values move as two 32-bit halves), votes, and atomics on global
// and shared memory on both.
func TestEmitterWarpAndAtomicsAgree(t *testing.T) {
	var cs []opCase
	for _, mode := range []ir.ShflMode{ir.ShflIdx, ir.ShflUp, ir.ShflDown, ir.ShflBfly} {
		for _, ty := range []ir.Type{ir.B32, ir.S32, ir.U32, ir.F32, ir.B64, ir.S64, ir.U64, ir.F64} {
			mode := mode
			cs = append(cs, opCase{name: "shfl_" + mode.String() + "_" + ty.String(), args: []ir.Type{ty, ir.U32},
				build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Shfl(mode, a[0], a[1], b.FullMask()) }})
		}
	}
	for _, mode := range []ir.VoteMode{ir.VoteAll, ir.VoteAny, ir.VoteBallot} {
		mode := mode
		cs = append(cs, opCase{name: "vote_" + mode.String(), args: []ir.Type{ir.Pred},
			build: func(b *ir.Builder, a []*ir.Value) *ir.Value { return b.Vote(mode, a[0], b.FullMask()) }})
	}
	for op := ir.AtomAdd; op <= ir.AtomXor; op++ {
		for _, ty := range []ir.Type{ir.B32, ir.S32, ir.U32, ir.F32, ir.B64, ir.S64, ir.U64, ir.F64} {
			for _, sp := range []ir.Space{ir.SpaceGlobal, ir.SpaceShared} {
				op, ty, sp := op, ty, sp
				cs = append(cs, opCase{name: "atom_" + sp.String() + "_" + op.String() + "_" + ty.String(), args: []ir.Type{ty, ty},
					build: func(b *ir.Builder, a []*ir.Value) *ir.Value {
						var p *ir.Value
						if sp == ir.SpaceShared {
							p = b.Func().AddShared("buf", ty, 2)
							b.If(b.Eq(b.TidX(), b.U32(0)), func() { b.Store(p, b.One(ty)) })
							b.Barrier()
						} else {
							p = b.Func().AddParam("acc", ir.PtrTo(ir.SpaceGlobal, ty))
						}
						if op == ir.AtomCAS {
							return b.AtomicCAS(p, a[0], a[1])
						}
						return b.Atomic(op, p, a[0])
					}})
			}
		}
	}
	ran := 0
	for _, c := range cs {
		if _, _, err := tinyKernel(c); err != nil {
			continue // a type the IR does not take for this op
		}
		ran++
		diffs, err := runTiny(c, ptx.Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(diffs) > 0 {
			t.Errorf("%s: the PTX simulator and the IR interpreter disagree (emitter bug?):\n%s", c.name, join(diffs))
		}
	}
	if ran < 60 {
		t.Errorf("only %d warp and atomic kernels ran", ran)
	}
}
