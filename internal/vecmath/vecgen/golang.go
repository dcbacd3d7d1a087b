// This file implements the portable code: each expanded kernel written
// as a scalar Go function, one statement per IR instruction, blocks as
// labels and branches as gotos, so that it runs exactly the instructions
// the IR interpreter runs. Every float operation is rounded by an
// explicit conversion, which keeps the Go compiler from fusing a
// multiplication and an addition; operations whose IR semantics differ
// from Go's (PTX min and max, saturating conversions, float32 fused
// multiply-add) call helpers of the runtime package (portable_ops.go).

package vecgen

import (
	"fmt"
	"math"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// goTypes are the Go types of IR value types.
var goTypes = map[ir.Type]string{
	ir.Pred: "bool", ir.F32: "float32", ir.F64: "float64",
	ir.S32: "int32", ir.U32: "uint32", ir.S64: "int64", ir.U64: "uint64",
	ir.B32: "uint32", ir.B64: "uint64", ir.S16: "int16", ir.U16: "uint16",
	ir.S8: "int8", ir.U8: "uint8",
}

// goScalarName returns the name of f's scalar Go function.
func goScalarName(f Func) string { return lowerFirst(f.Name()) + "Scalar" }

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// goWriter accumulates one scalar function.
type goWriter struct {
	f    Func
	k    *ir.Func
	sb   strings.Builder
	used map[*ir.Value]int
	err  error
}

func (w *goWriter) fail(format string, a ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("vecgen: %s: portable code: %s", w.f.Name(), fmt.Sprintf(format, a...))
	}
}

func (w *goWriter) p(format string, a ...any) { fmt.Fprintf(&w.sb, format, a...) }

// name returns the Go expression of a value.
func (w *goWriter) name(v *ir.Value) string {
	switch v.Kind {
	case ir.ValConst:
		return goConst(v)
	case ir.ValParam:
		return v.Name
	}
	return fmt.Sprintf("v%d", v.ID)
}

// goConst writes a constant exactly (floats through their bits).
func goConst(v *ir.Value) string {
	switch v.Type {
	case ir.Pred:
		if v.Bits != 0 {
			return "true"
		}
		return "false"
	case ir.F32:
		f := math.Float32frombits(uint32(v.Bits))
		if f == f && !math.IsInf(float64(f), 0) && (f != 0 || v.Bits == 0) {
			return fmt.Sprintf("float32(%s)", fmtFloat(float64(f), 32))
		}
		return fmt.Sprintf("math.Float32frombits(%#x)", v.Bits)
	case ir.F64:
		f := math.Float64frombits(v.Bits)
		if f == f && !math.IsInf(f, 0) && (f != 0 || v.Bits == 0) {
			return fmt.Sprintf("float64(%s)", fmtFloat(f, 64))
		}
		return fmt.Sprintf("math.Float64frombits(%#x)", v.Bits)
	}
	if v.Type.IsSigned() {
		return fmt.Sprintf("%s(%d)", goTypes[v.Type], v.ConstInt())
	}
	return fmt.Sprintf("%s(%#x)", goTypes[v.Type], v.Bits)
}

// fmtFloat prints a float that parses back to the same bits (hexadecimal
// mantissa, exact).
func fmtFloat(f float64, bits int) string {
	return fmt.Sprintf("%s", strconvFormat(f, bits))
}

// GoScalar returns the Go source of f's scalar function (without package
// clause or imports).
func GoScalar(f Func, k *ir.Func) (string, error) {
	w := &goWriter{f: f, k: k, used: liveValues(k)}
	targets := map[*ir.Block]bool{}
	for i, b := range k.Blocks {
		t := b.Term()
		if t == nil {
			return "", fmt.Errorf("vecgen: %s: block %s has no terminator", f.Name(), b.Name)
		}
		for j, s := range t.Succs {
			next := i+1 < len(k.Blocks) && k.Blocks[i+1] == s.Block
			if t.Op == ir.OpCondBr || !next || j > 0 {
				targets[s.Block] = true
			}
		}
	}
	gt := goTypes[f.Type]
	var params []string
	for _, p := range k.Params {
		if !p.Type.IsPtr() {
			params = append(params, p.Name)
		}
	}
	w.p("// %s computes %s of %s for one element: the mathlib expansion, as the IR interpreter runs it.\n", goScalarName(f), f.Fn, gt)
	w.p("func %s(%s %s) (out %s) {\n", goScalarName(f), strings.Join(params, ", "), gt, gt)
	// Every variable is declared first, so that gotos jump over no declaration.
	decl := map[string][]string{}
	var order []string
	declare := func(v *ir.Value) {
		t, ok := goTypes[v.Type]
		if !ok {
			w.fail("no Go type for %s", v.Type)
			return
		}
		if _, ok := decl[t]; !ok {
			order = append(order, t)
		}
		decl[t] = append(decl[t], w.name(v))
	}
	for _, b := range k.Blocks {
		for _, pv := range b.Params {
			if w.used[pv] > 0 {
				declare(pv)
			}
		}
		for _, in := range b.Instrs {
			for _, r := range in.Results {
				if w.used[r] > 0 {
					declare(r)
				}
			}
		}
	}
	for _, t := range order {
		w.p("var %s %s\n", strings.Join(decl[t], ", "), t)
	}
	for i, b := range k.Blocks {
		if targets[b] {
			w.p("%s:\n", blockLabel(b))
		}
		for _, in := range b.Instrs {
			w.instr(in, i, k.Blocks)
		}
	}
	w.p("}\n\n")
	return w.sb.String(), w.err
}

func blockLabel(b *ir.Block) string { return fmt.Sprintf("b%d", b.ID) }

// edge assigns a branch's arguments to its target's parameters and jumps
// (falling through when the target comes next).
func (w *goWriter) edge(e ir.Edge, fallthru bool) {
	// Arguments are read before any parameter is written.
	var lhs, rhs []string
	for i, a := range e.Args {
		if pv := e.Block.Params[i]; w.used[pv] > 0 {
			lhs = append(lhs, w.name(pv))
			rhs = append(rhs, w.name(a))
		}
	}
	if len(lhs) > 0 {
		w.p("%s = %s\n", strings.Join(lhs, ", "), strings.Join(rhs, ", "))
	}
	if !fallthru {
		w.p("goto %s\n", blockLabel(e.Block))
	}
}

func (w *goWriter) instr(in *ir.Instr, i int, blocks []*ir.Block) {
	next := func(b *ir.Block) bool { return i+1 < len(blocks) && blocks[i+1] == b }
	switch in.Op {
	case ir.OpRet:
		w.p("return out\n")
		return
	case ir.OpBr:
		w.edge(in.Succs[0], next(in.Succs[0].Block))
		return
	case ir.OpCondBr:
		w.p("if %s {\n", w.name(in.Args[0]))
		w.edge(in.Succs[0], false)
		w.p("}\n")
		w.edge(in.Succs[1], next(in.Succs[1].Block))
		return
	case ir.OpStore:
		w.p("out = %s\n", w.name(in.Args[1]))
		return
	}
	r := in.Result()
	if r == nil || w.used[r] == 0 {
		return
	}
	e := w.expr(in)
	w.p("%s = %s\n", w.name(r), e)
}

var goBinOps = map[ir.Op]string{
	ir.OpAdd: "+", ir.OpSub: "-", ir.OpMul: "*", ir.OpDiv: "/",
	ir.OpAnd: "&", ir.OpOr: "|", ir.OpXor: "^", ir.OpShl: "<<", ir.OpShr: ">>",
}

var goFloatCmp = map[ir.CmpPred]string{
	ir.CmpEQ: "%[1]s == %[2]s", ir.CmpNE: "(%[1]s != %[2]s && %[1]s == %[1]s && %[2]s == %[2]s)",
	ir.CmpLT: "%[1]s < %[2]s", ir.CmpLE: "%[1]s <= %[2]s", ir.CmpGT: "%[1]s > %[2]s", ir.CmpGE: "%[1]s >= %[2]s",
	ir.CmpEQU: "(%[1]s == %[2]s || %[1]s != %[1]s || %[2]s != %[2]s)", ir.CmpNEU: "%[1]s != %[2]s",
	ir.CmpLTU: "!(%[1]s >= %[2]s)", ir.CmpLEU: "!(%[1]s > %[2]s)", ir.CmpGTU: "!(%[1]s <= %[2]s)",
	ir.CmpGEU: "!(%[1]s < %[2]s)", ir.CmpNUM: "(%[1]s == %[1]s && %[2]s == %[2]s)",
	ir.CmpNAN: "(%[1]s != %[1]s || %[2]s != %[2]s)",
}

var goIntCmp = map[ir.CmpPred]string{
	ir.CmpEQ: "==", ir.CmpNE: "!=", ir.CmpLT: "<", ir.CmpLE: "<=", ir.CmpGT: ">", ir.CmpGE: ">=",
}

// goMath are the native math calls on float64 (f32 operands are widened
// and the result rounded once, as the interpreter does).
var goMath = map[ir.MathFn]string{
	ir.MathSqrt: "math.Sqrt", ir.MathFloor: "math.Floor", ir.MathCeil: "math.Ceil",
	ir.MathRoundEven: "math.RoundToEven", ir.MathTrunc: "math.Trunc",
}

// goRound are the rounding functions of float-to-integer conversions.
var goRound = map[ir.Rounding]string{
	ir.RndDefault: "math.Trunc", ir.RndRZ: "math.Trunc", ir.RndRN: "math.RoundToEven",
	ir.RndRM: "math.Floor", ir.RndRP: "math.Ceil",
}

func (w *goWriter) expr(in *ir.Instr) string {
	a := make([]string, len(in.Args))
	for i, x := range in.Args {
		a[i] = w.name(x)
	}
	r := in.Result()
	t := r.Type
	gt := goTypes[t]
	var at ir.Type
	if len(in.Args) > 0 {
		at = in.Args[0].Type
	}
	sfx := "64"
	if at == ir.F32 {
		sfx = "32"
	}
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv:
		if t.IsFloat() {
			return fmt.Sprintf("%s(%s %s %s)", gt, a[0], goBinOps[in.Op], a[1])
		}
		if in.Op == ir.OpDiv {
			break
		}
		return fmt.Sprintf("%s %s %s", a[0], goBinOps[in.Op], a[1])
	case ir.OpAnd, ir.OpOr, ir.OpXor:
		if t == ir.Pred {
			return fmt.Sprintf("%s %s %s", a[0], map[ir.Op]string{ir.OpAnd: "&&", ir.OpOr: "||", ir.OpXor: "!="}[in.Op], a[1])
		}
		return fmt.Sprintf("%s %s %s", a[0], goBinOps[in.Op], a[1])
	case ir.OpShl, ir.OpShr:
		return fmt.Sprintf("%s %s %s", a[0], goBinOps[in.Op], a[1])
	case ir.OpNot:
		if t == ir.Pred {
			return "!" + a[0]
		}
		return "^" + a[0]
	case ir.OpNeg:
		if t.IsFloat() {
			return fmt.Sprintf("neg%s(%s)", sfx, a[0])
		}
		return "-" + a[0]
	case ir.OpAbs:
		if t.IsFloat() {
			return fmt.Sprintf("abs%s(%s)", sfx, a[0])
		}
		return fmt.Sprintf("iabs%s(%s)", gt, a[0])
	case ir.OpMin, ir.OpMax:
		name := map[ir.Op]string{ir.OpMin: "min", ir.OpMax: "max"}[in.Op]
		if t.IsFloat() {
			return fmt.Sprintf("f%s%s(%s, %s)", name, sfx, a[0], a[1])
		}
		return fmt.Sprintf("%s(%s, %s)", name, a[0], a[1])
	case ir.OpFMA:
		if t == ir.F32 {
			return fmt.Sprintf("fma32(%s, %s, %s)", a[0], a[1], a[2])
		}
		return fmt.Sprintf("math.FMA(%s, %s, %s)", a[0], a[1], a[2])
	case ir.OpMulHi:
		switch t {
		case ir.U64:
			return fmt.Sprintf("mulhiU64(%s, %s)", a[0], a[1])
		case ir.U32:
			return fmt.Sprintf("uint32((uint64(%s) * uint64(%s)) >> 32)", a[0], a[1])
		case ir.S32:
			return fmt.Sprintf("int32((int64(%s) * int64(%s)) >> 32)", a[0], a[1])
		}
	case ir.OpClz:
		return fmt.Sprintf("uint32(bits.LeadingZeros%d(%s))", at.Bits(), a[0])
	case ir.OpPopc:
		return fmt.Sprintf("uint32(bits.OnesCount%d(%s))", at.Bits(), a[0])
	case ir.OpCmp:
		if at.IsFloat() {
			if a[0] == a[1] {
				switch in.Cmp {
				case ir.CmpNAN:
					return fmt.Sprintf("%s != %s", a[0], a[0])
				case ir.CmpNUM:
					return fmt.Sprintf("%s == %s", a[0], a[0])
				}
			}
			return fmt.Sprintf(goFloatCmp[in.Cmp], a[0], a[1])
		}
		if op, ok := goIntCmp[in.Cmp]; ok {
			return fmt.Sprintf("%s %s %s", a[0], op, a[1])
		}
	case ir.OpSelect:
		return fmt.Sprintf("sel(%s, %s, %s)", a[0], a[1], a[2]) // operands are typed: constants too
	case ir.OpBitcast:
		switch {
		case at == ir.F32:
			return fmt.Sprintf("%s(math.Float32bits(%s))", gt, a[0])
		case at == ir.F64:
			return fmt.Sprintf("%s(math.Float64bits(%s))", gt, a[0])
		case t == ir.F32:
			return fmt.Sprintf("math.Float32frombits(uint32(%s))", a[0])
		case t == ir.F64:
			return fmt.Sprintf("math.Float64frombits(uint64(%s))", a[0])
		}
		return fmt.Sprintf("%s(%s)", gt, a[0])
	case ir.OpCvt:
		return w.cvt(in, a[0], at, t)
	case ir.OpMath:
		if g, ok := goMath[in.Fn]; ok && len(a) == 1 {
			if t == ir.F32 {
				return fmt.Sprintf("float32(%s(float64(%s)))", g, a[0])
			}
			return fmt.Sprintf("%s(%s)", g, a[0])
		}
	}
	w.fail("no Go form for %s %s -> %s", in.Op, at, t)
	return "0"
}

// goCvtName names the saturating conversion helper to a type (cvtInt32's
// Int32).
func goCvtName(t ir.Type) string {
	return strings.ToUpper(goTypes[t][:1]) + goTypes[t][1:]
}

func (w *goWriter) cvt(in *ir.Instr, a string, from, to ir.Type) string {
	gt := goTypes[to]
	switch {
	case from.IsInt() && to.IsInt():
		return fmt.Sprintf("%s(%s)", gt, a) // Go sign-extends signed sources and truncates
	case from.IsInt() && to.IsFloat():
		if in.Rnd <= ir.RndRN {
			return fmt.Sprintf("%s(%s)", gt, a)
		}
	case from.IsFloat() && to.IsInt():
		src := a
		if from == ir.F32 {
			src = "float64(" + a + ")"
		}
		return fmt.Sprintf("cvt%s(%s(%s))", goCvtName(to), goRound[in.Rnd], src)
	case from == ir.F32 && to == ir.F64:
		return fmt.Sprintf("float64(%s)", a)
	case from == ir.F64 && to == ir.F32:
		if in.Rnd <= ir.RndRN {
			return fmt.Sprintf("float32(%s)", a)
		}
	}
	w.fail("no Go form for cvt.%s %s -> %s", in.Rnd, from, to)
	return "0"
}

// liveValues marks the values the stored result or a branch needs,
// transitively (through instructions and block parameters).
func liveValues(k *ir.Func) map[*ir.Value]int {
	live := map[*ir.Value]int{}
	changed := true
	mark := func(v *ir.Value) {
		if live[v] == 0 {
			changed = true
		}
		live[v] = 1
	}
	for changed {
		changed = false
		for _, b := range k.Blocks {
			for _, in := range b.Instrs {
				needed := in.Op == ir.OpStore || in.Op == ir.OpCondBr
				for _, r := range in.Results {
					needed = needed || live[r] > 0
				}
				if needed {
					for _, a := range in.Args {
						mark(a)
					}
				}
				for _, s := range in.Succs {
					for i, a := range s.Args {
						if live[s.Block.Params[i]] > 0 {
							mark(a)
						}
					}
				}
			}
		}
	}
	return live
}
