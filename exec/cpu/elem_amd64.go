// Vector inner loops for amd64 of the integer and bool ops, comparisons,
// Where, casts, float ops with a constant operand and the bool load's
// normalization, written in assembly (elem_amd64.s) and registered at
// init in place of the scalar table entries.
//
// With AVX2: bool and/or/xor/not; int32 and int64
// add/sub/mul/max/min/neg/abs/sign/and/or/xor/not (int64 mul, max, min
// and abs with AVX-512's instructions where the CPU has them); int32
// floor division and modulo (through float64 division); float abs and
// sign; every comparison of bool, int32, int64, float32 and float64,
// and float IsNaN and IsInf;
// Where of 1-, 4- and 8-byte elements; the casts among bool, int32,
// float32 and float64, int32 to int64 and int64 to int32; float Add, Sub,
// Mul and Div with a constant operand (scalar.go). With AVX-512 (F, DQ,
// VL) also the casts between int64 and the floats, and int64 floor
// division and modulo (through float64 division where the operands are
// below 2^53, the scalar loop elsewhere). The assembly covers whole units
// of 4 to 32 elements; the wrappers here run the scalar loops over the
// rest.
//
// They give the scalar loops' bits: integer arithmetic wraps as Go's;
// float comparisons use the ordered predicates (NaN compares false)
// except Ne (unordered: NaN is unequal); float to integer casts truncate,
// take NaN to 0 and saturate as graph.CastFloatToInt32/64 do (the
// conversion instructions' out-of-range value is the minimum, fixed up to
// the maximum where the operand is at or above 2^31 or 2^63); the other
// conversions round to nearest as Go's.
//
// Each loop reads a unit of its operands before storing the unit's
// result; the ones whose result is wider than an operand (widening casts,
// Where over its one-byte condition) run back to front with their scalar
// tail first, the others front to back with it last: a destination may be
// any operand (in place).

//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	xcpu "golang.org/x/sys/cpu"

	"github.com/fuseflow/fuseflow/graph"
)

//go:noescape
func andBytes(d, a, b unsafe.Pointer, n int)

//go:noescape
func orBytes(d, a, b unsafe.Pointer, n int)

//go:noescape
func xorBytes(d, a, b unsafe.Pointer, n int)

//go:noescape
func addI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func subI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func addI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func subI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func minI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func eqF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func neF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func ltF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func leF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func gtF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func geF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func eqF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func neF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func ltF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func leF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func gtF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func geF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func eqI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func neI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func gtI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func ltI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func leI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func geI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func eqI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func neI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func gtI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func ltI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func leI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func geI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func boolF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func boolF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func isNaNF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func isNaNF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func isInfF32(d, a, b unsafe.Pointer, n int)

//go:noescape
func isInfF64(d, a, b unsafe.Pointer, n int)

//go:noescape
func boolI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func boolI64(d, a, b unsafe.Pointer, n int)

//go:noescape
func floorDivI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func modI32(d, a, b unsafe.Pointer, n int)

//go:noescape
func signI32(d, a unsafe.Pointer, n int)

//go:noescape
func signI64(d, a unsafe.Pointer, n int)

//go:noescape
func signF32(d, a unsafe.Pointer, n int)

//go:noescape
func signF64(d, a unsafe.Pointer, n int)

//go:noescape
func maxI64x2(d, a, b unsafe.Pointer, n int)

//go:noescape
func minI64x2(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulI64x2(d, a, b unsafe.Pointer, n int)

//go:noescape
func absI64x2(d, a unsafe.Pointer, n int)

//go:noescape
func addLSF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func addLSF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func addSLF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func addSLF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func subLSF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func subLSF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func subSLF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func subSLF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func mulLSF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func mulLSF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func mulSLF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func mulSLF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func divLSF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func divLSF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func divSLF32(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func divSLF64(d, a unsafe.Pointer, s uint64, n int)

//go:noescape
func floorDivI64(d, a, b unsafe.Pointer, n int) int

//go:noescape
func modI64(d, a, b unsafe.Pointer, n int) int

//go:noescape
func eqBool(d, a, b unsafe.Pointer, n int)

//go:noescape
func neBool(d, a, b unsafe.Pointer, n int)

//go:noescape
func ltBool(d, a, b unsafe.Pointer, n int)

//go:noescape
func gtBool(d, a, b unsafe.Pointer, n int)

//go:noescape
func leBool(d, a, b unsafe.Pointer, n int)

//go:noescape
func geBool(d, a, b unsafe.Pointer, n int)

//go:noescape
func negI32(d, a unsafe.Pointer, n int)

//go:noescape
func negI64(d, a unsafe.Pointer, n int)

//go:noescape
func absI32(d, a unsafe.Pointer, n int)

//go:noescape
func notBits(d, a unsafe.Pointer, n int)

//go:noescape
func notBool(d, a unsafe.Pointer, n int)

//go:noescape
func absF32(d, a unsafe.Pointer, n int)

//go:noescape
func absF64(d, a unsafe.Pointer, n int)

//go:noescape
func absI64(d, a unsafe.Pointer, n int)

//go:noescape
func normBool(d, a unsafe.Pointer, n int)

//go:noescape
func cvtI32F32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtF32I32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtI64F64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtF64I64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtF64F32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtF64I32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtI64I32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtI64F32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtF32F64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtI32F64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtI32I64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtBoolI32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtBoolF32(d, a unsafe.Pointer, n int)

//go:noescape
func cvtBoolI64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtBoolF64(d, a unsafe.Pointer, n int)

//go:noescape
func cvtF32I64(d, a unsafe.Pointer, n int)

//go:noescape
func where8(d, c, a, b unsafe.Pointer, n int)

//go:noescape
func where32(d, c, a, b unsafe.Pointer, n int)

//go:noescape
func where64(d, c, a, b unsafe.Pointer, n int)

// hasAVX512 reports whether the CPU (and the OS) supports the AVX-512
// loops.
var hasAVX512 = hasVector && xcpu.X86.HasAVX512F && xcpu.X86.HasAVX512DQ && xcpu.X86.HasAVX512VL

type asmBin = func(d, a, b unsafe.Pointer, n int)
type asmUn = func(d, a unsafe.Pointer, n int)
type asmScalar = func(d, a unsafe.Pointer, s uint64, n int)

// registerElemVector registers the loops of elem_amd64.s the CPU
// supports.
func registerElemVector() {
	const B, I32, I64, F32, F64 = graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64
	wide := hasAVX512
	bin := func(d graph.DType, op graph.Op, name string, v asmBin, eo, lanes int, ok bool) {
		if ok {
			p := &binaryTab[d][op]
			vectorize(name+" "+d.String(), p, vecBin(v, *p, d.Size(), eo, lanes))
		}
	}
	// Bitwise ops, counted in bytes.
	for _, d := range []graph.DType{B, I32, I64} {
		es := d.Size()
		for _, e := range []struct {
			op   graph.Op
			name string
			v    asmBin
		}{{graph.OpAnd, "and", andBytes}, {graph.OpOr, "or", orBytes}, {graph.OpXor, "xor", xorBytes}} {
			bin(d, e.op, e.name, bytesBin(e.v, es), es, 32/es, true)
		}
	}
	bin(B, graph.OpMax, "maximum", orBytes, 1, 32, true)
	bin(B, graph.OpMin, "minimum", andBytes, 1, 32, true)
	for _, e := range []struct {
		op             graph.Op
		name           string
		i32, i64, i64x asmBin // i64x: the int64 loop without AVX-512
	}{
		{graph.OpAdd, "add", addI32, addI64, addI64},
		{graph.OpSub, "sub", subI32, subI64, subI64},
		{graph.OpMul, "mul", mulI32, mulI64, mulI64x2},
		{graph.OpMax, "maximum", maxI32, maxI64, maxI64x2},
		{graph.OpMin, "minimum", minI32, minI64, minI64x2},
	} {
		bin(I32, e.op, e.name, e.i32, 4, 8, true)
		if wide {
			bin(I64, e.op, e.name, e.i64, 8, 4, true)
		} else {
			bin(I64, e.op, e.name, e.i64x, 8, 4, true)
		}
	}
	bin(I32, graph.OpFloorDiv, "floordiv", floorDivI32, 4, 4, true)
	bin(I32, graph.OpMod, "mod", modI32, 4, 4, true)
	if wide {
		for _, e := range []struct {
			op   graph.Op
			name string
			v    func(d, a, b unsafe.Pointer, n int) int
		}{{graph.OpFloorDiv, "floordiv", floorDivI64}, {graph.OpMod, "mod", modI64}} {
			p := &binaryTab[I64][e.op]
			vectorize(e.name+" int64", p, vecPartial(e.v, *p, 8, 4))
		}
	}
	registerDivModVector(wide)
	for _, e := range []struct {
		op                    graph.Op
		name                  string
		b, i32, i64, f32, f64 asmBin
	}{
		{graph.OpEq, "eq", eqBool, eqI32, eqI64, eqF32, eqF64},
		{graph.OpNe, "ne", neBool, neI32, neI64, neF32, neF64},
		{graph.OpLt, "lt", ltBool, ltI32, ltI64, ltF32, ltF64},
		{graph.OpLe, "le", leBool, leI32, leI64, leF32, leF64},
		{graph.OpGt, "gt", gtBool, gtI32, gtI64, gtF32, gtF64},
		{graph.OpGe, "ge", geBool, geI32, geI64, geF32, geF64},
	} {
		bin(B, e.op, e.name, e.b, 1, 32, true)
		bin(I32, e.op, e.name, e.i32, 1, 8, true)
		bin(I64, e.op, e.name, e.i64, 1, 8, true)
		bin(F32, e.op, e.name, e.f32, 1, 8, true)
		bin(F64, e.op, e.name, e.f64, 1, 8, true)
	}

	un := func(name string, p *unaryFn, v asmUn, ei, eo, lanes int, ok bool) {
		if !ok {
			return
		}
		if eo > ei {
			vectorize(name, p, vecUnBack(v, *p, ei, eo, lanes))
		} else {
			vectorize(name, p, vecUn(v, *p, ei, eo, lanes))
		}
	}
	un("neg int32", &unaryTab[I32][graph.OpNeg], negI32, 4, 4, 8, true)
	un("neg int64", &unaryTab[I64][graph.OpNeg], negI64, 8, 8, 4, true)
	un("square int32", &unaryTab[I32][graph.OpSquare], func(d, a unsafe.Pointer, n int) { mulI32(d, a, a, n) }, 4, 4, 8, true)
	un("square int64", &unaryTab[I64][graph.OpSquare], func(d, a unsafe.Pointer, n int) { mulI64(d, a, a, n) }, 8, 8, 4, wide)
	un("square int64", &unaryTab[I64][graph.OpSquare], func(d, a unsafe.Pointer, n int) { mulI64x2(d, a, a, n) }, 8, 8, 4, !wide)
	un("abs int32", &unaryTab[I32][graph.OpAbs], absI32, 4, 4, 8, true)
	un("abs int64", &unaryTab[I64][graph.OpAbs], absI64, 8, 8, 4, wide)
	un("abs int64", &unaryTab[I64][graph.OpAbs], absI64x2, 8, 8, 4, !wide)
	un("abs float32", &unaryTab[F32][graph.OpAbs], absF32, 4, 4, 8, true)
	un("abs float64", &unaryTab[F64][graph.OpAbs], absF64, 8, 8, 4, true)
	un("sign int32", &unaryTab[I32][graph.OpSign], signI32, 4, 4, 8, true)
	un("sign int64", &unaryTab[I64][graph.OpSign], signI64, 8, 8, 4, true)
	un("sign float32", &unaryTab[F32][graph.OpSign], signF32, 4, 4, 8, true)
	un("sign float64", &unaryTab[F64][graph.OpSign], signF64, 8, 8, 4, true)
	un("not bool", &unaryTab[B][graph.OpNot], notBool, 1, 1, 32, true)
	un("not int32", &unaryTab[I32][graph.OpNot], bytesUn(notBits, 4), 4, 4, 8, true)
	un("not int64", &unaryTab[I64][graph.OpNot], bytesUn(notBits, 8), 8, 8, 4, true)
	un("bool load", &normLoop, normBool, 1, 1, 32, true)

	cast := func(from, to graph.DType, v asmUn, lanes int, ok bool) {
		un("AsType "+from.String()+" to "+to.String(), &castTab[from][to], v, from.Size(), to.Size(), lanes, ok)
	}
	cast(I32, F32, cvtI32F32, 8, true)
	cast(F32, I32, cvtF32I32, 8, true)
	cast(F64, F32, cvtF64F32, 4, true)
	cast(F64, I32, cvtF64I32, 4, true)
	cast(I64, I32, cvtI64I32, 4, true)
	cast(F32, F64, cvtF32F64, 4, true)
	cast(I32, F64, cvtI32F64, 4, true)
	cast(I32, I64, cvtI32I64, 4, true)
	cast(B, I32, cvtBoolI32, 8, true)
	cast(B, F32, cvtBoolF32, 8, true)
	cast(B, I64, cvtBoolI64, 4, true)
	cast(B, F64, cvtBoolF64, 4, true)
	cast(I64, F64, cvtI64F64, 4, wide)
	cast(F64, I64, cvtF64I64, 4, wide)
	cast(I64, F32, cvtI64F32, 4, wide)
	cast(F32, I64, cvtF32I64, 4, wide)
	for _, e := range []struct {
		d graph.DType
		v asmBin
	}{{F32, boolF32}, {F64, boolF64}, {I32, boolI32}, {I64, boolI64}} {
		v := e.v
		cast(e.d, B, func(d, a unsafe.Pointer, n int) { v(d, a, nil, n) }, 8, true)
	}
	for _, e := range []struct {
		d        graph.DType
		nan, inf asmBin
	}{{F32, isNaNF32, isInfF32}, {F64, isNaNF64, isInfF64}} {
		nan, inf := e.nan, e.inf
		un("isnan "+e.d.String(), &unaryTab[e.d][graph.OpIsNaN], func(d, a unsafe.Pointer, n int) { nan(d, a, nil, n) }, e.d.Size(), 1, 8, true)
		un("isinf "+e.d.String(), &unaryTab[e.d][graph.OpIsInf], func(d, a unsafe.Pointer, n int) { inf(d, a, nil, n) }, e.d.Size(), 1, 8, true)
	}

	for _, e := range []struct {
		op                     graph.Op
		name                   string
		sl32, ls32, sl64, ls64 asmScalar
	}{
		{graph.OpAdd, "add", addSLF32, addLSF32, addSLF64, addLSF64},
		{graph.OpSub, "sub", subSLF32, subLSF32, subSLF64, subLSF64},
		{graph.OpMul, "mul", mulSLF32, mulLSF32, mulSLF64, mulLSF64},
		{graph.OpDiv, "div", divSLF32, divLSF32, divSLF64, divLSF64},
	} {
		t32, t64 := &scalarTab[F32][e.op], &scalarTab[F64][e.op]
		vectorize(e.name+" float32 constant first", &t32[0], vecScalar(e.sl32, t32[0], 4, 8))
		vectorize(e.name+" float32 constant second", &t32[1], vecScalar(e.ls32, t32[1], 4, 8))
		vectorize(e.name+" float64 constant first", &t64[0], vecScalar(e.sl64, t64[0], 8, 4))
		vectorize(e.name+" float64 constant second", &t64[1], vecScalar(e.ls64, t64[1], 8, 4))
	}

	for _, e := range []struct {
		es, lanes int
		v         func(d, c, a, b unsafe.Pointer, n int)
	}{{1, 32, where8}, {4, 8, where32}, {8, 4, where64}} {
		vectorize("where "+string(rune('0'+e.es))+"-byte", &whereTab[e.es], vecWhere(e.v, whereTab[e.es], e.es, e.lanes))
	}
}

// bytesBin adapts a loop over n bytes to one over n elements of es bytes.
func bytesBin(v asmBin, es int) asmBin {
	return func(d, a, b unsafe.Pointer, n int) { v(d, a, b, n*es) }
}

// bytesUn is bytesBin for one operand.
func bytesUn(v asmUn, es int) asmUn {
	return func(d, a unsafe.Pointer, n int) { v(d, a, n*es) }
}

// vecBin runs v over the whole units of lanes elements (operands of ei
// bytes, results of eo) and the scalar loop s over the rest.
func vecBin(v asmBin, s binaryFn, ei, eo, lanes int) binaryFn {
	return func(d, a, b unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			v(d, a, b, m)
		}
		if m < n {
			s(unsafe.Add(d, m*eo), unsafe.Add(a, m*ei), unsafe.Add(b, m*ei), n-m)
		}
	}
}

// vecUn is vecBin for one operand.
func vecUn(v asmUn, s unaryFn, ei, eo, lanes int) unaryFn {
	return func(d, a unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			v(d, a, m)
		}
		if m < n {
			s(unsafe.Add(d, m*eo), unsafe.Add(a, m*ei), n-m)
		}
	}
}

// vecUnBack is vecUn for results wider than the operand: the tail
// first, then v back to front, so that no store covers an operand
// element not yet read.
func vecUnBack(v asmUn, s unaryFn, ei, eo, lanes int) unaryFn {
	return func(d, a unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m < n {
			s(unsafe.Add(d, m*eo), unsafe.Add(a, m*ei), n-m)
		}
		if m > 0 {
			v(d, a, m)
		}
	}
}

// vecPartial is vecBin for a loop v that may stop early (at a unit it
// does not take): the scalar loop s does that unit and v goes on after
// it.
func vecPartial(v func(d, a, b unsafe.Pointer, n int) int, s binaryFn, es, lanes int) binaryFn {
	return func(d, a, b unsafe.Pointer, n int) {
		for i := 0; i < n; {
			if m := (n - i) &^ (lanes - 1); m > 0 {
				o := i * es
				i += v(unsafe.Add(d, o), unsafe.Add(a, o), unsafe.Add(b, o), m)
			}
			if k := min(lanes, n-i); k > 0 {
				o := i * es
				s(unsafe.Add(d, o), unsafe.Add(a, o), unsafe.Add(b, o), k)
				i += k
			}
		}
	}
}

// vecScalar is vecUn for the scalar-operand loops.
func vecScalar(v asmScalar, s scalarFn, es, lanes int) scalarFn {
	return func(d, a unsafe.Pointer, c uint64, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			v(d, a, c, m)
		}
		if m < n {
			o := m * es
			s(unsafe.Add(d, o), unsafe.Add(a, o), c, n-m)
		}
	}
}

// vecWhere is vecUnBack for Where over elements of es bytes.
func vecWhere(v func(d, c, a, b unsafe.Pointer, n int), s whereFn, es, lanes int) whereFn {
	return func(d, c, a, b unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m < n {
			o := m * es
			s(unsafe.Add(d, o), unsafe.Add(c, m), unsafe.Add(a, o), unsafe.Add(b, o), n-m)
		}
		if m > 0 {
			v(d, c, a, b, m)
		}
	}
}
