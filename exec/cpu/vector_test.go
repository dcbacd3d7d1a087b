// Tests of the vector inner loops against the scalar ones they replace:
// every length from 0 to 70 (all tails) and a few long ones, starts off
// the vector alignment, random values mixed with NaN (several payloads),
// infinities, signed zeros, subnormals and the exponential's range
// limits. The same bits, the math functions (internal/vecmath's vector
// code against its portable code) up to NaN payloads.

package cpu

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/config"
	"github.com/fuseflow/fuseflow/internal/vecmath"
)

// vecLengths are the lengths every loop is tested at.
var vecLengths = func() []int {
	var n []int
	for i := range 71 {
		n = append(n, i)
	}
	return append(n, 127, 128, 129, 255, 256, 1000, 4099)
}()

var specials = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1,
	5e-324, -5e-324, 1e-40, -1e-40, 1e-310, 88, 88.5, -86.5, -87.5, -88, -88.5, -103, -110, 700, -700,
	math.MaxFloat32, -math.MaxFloat32, math.MaxFloat64,
	// The edges of the integer casts' range.
	0x1p31, -0x1p31, 0x1p31 - 1, -0x1p31 - 1, 0x1p31 - 0.5, -0x1p31 - 0.5, 0x1p31 - 128, 0x1p31 + 256,
	0x1p63, -0x1p63, 0x1p63 - 1024, -0x1p63 - 2048, 0x1p63 + 2048, 0.5, -0.5, 0.99, -0.99}

// vecValue draws a test value: random bits, a special value, a NaN with
// a random payload, or a normal value.
func vecValue(r *rand.Rand, f32 bool) float64 {
	switch r.IntN(6) {
	case 0:
		if f32 {
			return float64(math.Float32frombits(r.Uint32()))
		}
		return math.Float64frombits(r.Uint64())
	case 1:
		return specials[r.IntN(len(specials))]
	case 2:
		if r.IntN(4) == 0 {
			return 0
		}
	}
	return r.NormFloat64() * 20
}

// vecBuf returns the address of n random values of dtype d at element
// off of a fresh buffer (so starts fall off the vector alignment).
func vecBuf(r *rand.Rand, d graph.DType, n, off int) unsafe.Pointer {
	f32 := d == graph.Float32
	if f32 {
		v := make([]float32, n+off+1)
		for i := range v {
			x := vecValue(r, true)
			v[i] = float32(x)
			if x != x && r.IntN(2) == 0 {
				v[i] = math.Float32frombits(0x7f800000 | r.Uint32()&0x807fffff | 1)
			}
		}
		return unsafe.Pointer(&v[off])
	}
	v := make([]float64, n+off+1)
	for i := range v {
		v[i] = vecValue(r, false)
		if v[i] != v[i] && r.IntN(2) == 0 {
			v[i] = math.Float64frombits(0x7ff0000000000000 | r.Uint64()&0x800fffffffffffff | 1)
		}
	}
	return unsafe.Pointer(&v[off])
}

// elemBits returns element i of p (dtype d) as bits.
func elemBits(p unsafe.Pointer, d graph.DType, i int) uint64 {
	if d == graph.Float32 {
		return uint64(view[uint32](p, i+1)[i])
	}
	return view[uint64](p, i+1)[i]
}

func elemFloat(p unsafe.Pointer, d graph.DType, i int) float64 {
	if d == graph.Float32 {
		return float64(view[float32](p, i+1)[i])
	}
	return view[float64](p, i+1)[i]
}

// withVector returns what get reads from the tables with the vector
// loops installed and with the scalar ones.
func withVector[T any](get func() T) (vec, scalar T) {
	was := setVector(true)
	defer setVector(was)
	vec = get()
	setVector(false)
	return vec, get()
}

// eachVector runs f with the vector loops installed (vec true) and then
// with the scalar ones, and restores the setting it found.
func eachVector(f func(vec bool)) {
	was := setVector(true)
	defer setVector(was)
	for _, vec := range []bool{true, false} {
		setVector(vec)
		f(vec)
	}
}

func needVector(t *testing.T) {
	t.Helper()
	if len(vecSlots) == 0 {
		t.Skip("no vector loops on this CPU or architecture")
	}
}

func TestVectorBinary(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		for _, op := range []graph.Op{graph.OpAdd, graph.OpSub, graph.OpMul, graph.OpDiv, graph.OpMax, graph.OpMin} {
			vec, scalar := withVector(func() binaryFn { return binaryTab[d][op] })
			es := d.Size()
			for _, n := range vecLengths {
				off := r.IntN(8)
				a, b := vecBuf(r, d, n, off), vecBuf(r, d, n, (off+3)%8)
				got, want := vecBuf(r, d, n, off), vecBuf(r, d, n, off)
				vec(got, a, b, n)
				scalar(want, a, b, n)
				for i := range n {
					if g, w := elemBits(got, d, i), elemBits(want, d, i); g != w {
						t.Fatalf("%v %v n=%d [%d] (%v, %v) got:%#x want:%#x", op, d, n, i,
							elemFloat(a, d, i), elemFloat(b, d, i), g, w)
					}
				}
				// In place: the destination is the first operand.
				copy(view[byte](got, n*es), view[byte](a, n*es))
				vec(got, got, b, n)
				for i := range n {
					if g, w := elemBits(got, d, i), elemBits(want, d, i); g != w {
						t.Fatalf("%v %v in place n=%d [%d] got:%#x want:%#x", op, d, n, i, g, w)
					}
				}
			}
		}
	}
}

func TestVectorUnary(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		d  graph.DType
		op graph.Op
	}{{graph.Float32, graph.OpNeg}, {graph.Float64, graph.OpNeg}, {graph.Float32, graph.OpSqrt}, {graph.Float64, graph.OpSqrt},
		{graph.Float32, graph.OpSquare}, {graph.Float64, graph.OpSquare}, {graph.Float32, graph.OpRecip}, {graph.Float64, graph.OpRecip},
		{graph.Int32, graph.OpSquare}, {graph.Int64, graph.OpSquare}} {
		vec, scalar := withVector(func() unaryFn { return unaryTab[c.d][c.op] })
		bd := graph.Float64 // the buffers' dtype: integers as float bits
		if c.d.Size() == 4 {
			bd = graph.Float32
		}
		for _, n := range vecLengths {
			off := r.IntN(8)
			a := vecBuf(r, bd, n, off)
			got, want := vecBuf(r, bd, n, off+1), vecBuf(r, bd, n, off)
			vec(got, a, n)
			scalar(want, a, n)
			for i := range n {
				if g, w := elemBits(got, bd, i), elemBits(want, bd, i); g != w {
					t.Fatalf("%v %v n=%d [%d] (%#x) got:%#x want:%#x", c.op, c.d, n, i, elemBits(a, bd, i), g, w)
				}
			}
		}
	}
}

// mathOps are the ops whose float loops are internal/vecmath's.
var (
	mathUnary = []graph.Op{graph.OpExp, graph.OpExp2, graph.OpExpm1, graph.OpLog, graph.OpLog2, graph.OpLog1p,
		graph.OpSin, graph.OpCos, graph.OpTan, graph.OpTanh, graph.OpSigmoid, graph.OpErf, graph.OpRsqrt,
		graph.OpFloor, graph.OpCeil, graph.OpRound, graph.OpTrunc}
	mathBinary = []graph.Op{graph.OpPow, graph.OpAtan2}
)

// TestVectorMath runs the math functions' loops with vecmath's vector
// code and with its portable code: the same bits (a NaN for a NaN, whose
// payload may differ), out of place and in place.
func TestVectorMath(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	was := setVector(true)
	defer setVector(was)
	same := func(d graph.DType, g, w unsafe.Pointer, i int) bool {
		gf, wf := elemFloat(g, d, i), elemFloat(w, d, i)
		return elemBits(g, d, i) == elemBits(w, d, i) || (gf != gf && wf != wf)
	}
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		es := d.Size()
		for _, op := range append(mathUnary, mathBinary...) {
			un := op.Class() == graph.ClassUnary
			vecU, portU := withVector(func() unaryFn { return unaryTab[d][op] })
			vecB, portB := withVector(func() binaryFn { return binaryTab[d][op] })
			for _, n := range vecLengths {
				off := r.IntN(8)
				a, b := vecBuf(r, d, n, off), vecBuf(r, d, n, (off+5)%8)
				got, want := vecBuf(r, d, n, off+1), vecBuf(r, d, n, off)
				var inPlace func()
				if un {
					vecU(got, a, n)
					setVector(false)
					portU(want, a, n)
					setVector(true)
					inPlace = func() { vecU(got, got, n) }
				} else {
					vecB(got, a, b, n)
					setVector(false)
					portB(want, a, b, n)
					setVector(true)
					inPlace = func() { vecB(got, got, b, n) }
				}
				for i := range n {
					if !same(d, got, want, i) {
						t.Fatalf("%v %v n=%d [%d] (%v, %v) got:%#x want:%#x", op, d, n, i,
							elemFloat(a, d, i), elemFloat(b, d, i), elemBits(got, d, i), elemBits(want, d, i))
					}
				}
				copy(view[byte](got, n*es), view[byte](a, n*es))
				inPlace()
				for i := range n {
					if !same(d, got, want, i) {
						t.Fatalf("%v %v in place n=%d [%d] got:%#x want:%#x", op, d, n, i, elemBits(got, d, i), elemBits(want, d, i))
					}
				}
			}
		}
	}
}

func TestVectorSum(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(7, 8))
	vec32, scalar32 := withVector(func() func(float64, []float32) float64 { return sumBlocks32 })
	vec64, scalar64 := withVector(func() foldFn { return foldTab[graph.OpSum][graph.Float64] })
	negZeros := make([]float32, 300)
	for i := range negZeros {
		negZeros[i] = float32(math.Copysign(0, -1))
	}
	same := func(g, w float64) bool { return math.Float64bits(g) == math.Float64bits(w) || (g != g && w != w) }
	for _, n := range append(vecLengths, 1<<15) {
		v := view[float32](vecBuf(r, graph.Float32, n, r.IntN(8)), n)
		if r.IntN(2) == 0 { // mostly finite, so that the sums mean something
			for i := range v {
				if v[i] != v[i] || math.IsInf(float64(v[i]), 0) {
					v[i] = float32(i)
				}
			}
		}
		for _, acc := range []float64{negZero, 0.5} {
			if g, w := vec32(acc, v), scalar32(acc, v); !same(g, w) {
				t.Fatalf("float32 sum n=%d got:%v want:%v", n, g, w)
			}
			p := vecBuf(r, graph.Float64, n, r.IntN(4))
			gs, ws := accum{f: acc}, accum{f: acc}
			vec64(&gs, p, n, 0)
			scalar64(&ws, p, n, 0)
			if !same(gs.f, ws.f) {
				t.Fatalf("float64 sum n=%d got:%v want:%v", n, gs.f, ws.f)
			}
		}
	}
	if g, w := vec32(negZero, negZeros), scalar32(negZero, negZeros); math.Float64bits(g) != math.Float64bits(w) {
		t.Fatalf("sum of -0s got:%v want:%v", g, w)
	}
}

func TestVectorRowExtremes(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		for _, op := range []graph.Op{graph.OpReduceMax, graph.OpReduceMin} {
			vec, scalar := withVector(func() foldFn { return foldTab[op][d] })
			for _, n := range vecLengths {
				p := vecBuf(r, d, n, r.IntN(8))
				for variant := range 4 {
					for i := range n {
						x := elemFloat(p, d, i)
						switch {
						case variant == 1 && x != x: // no NaN
							x = float64(i)
						case variant == 2: // zeros of both signs and negatives
							x = []float64{0, math.Copysign(0, -1), -1, -2}[r.IntN(4)]
						case variant == 3:
							x = math.Copysign(0, -1)
						}
						if d == graph.Float32 {
							view[float32](p, n)[i] = float32(x)
						} else {
							view[float64](p, n)[i] = x
						}
					}
					for _, start := range []accum{initAccum(op, d), {f: 3}} {
						gs, ws := start, start
						vec(&gs, p, n, 0)
						scalar(&ws, p, n, 0)
						if math.Float64bits(gs.f) != math.Float64bits(ws.f) {
							t.Fatalf("%v %v n=%d variant %d got:%v want:%v", op, d, n, variant, gs.f, ws.f)
						}
					}
				}
			}
		}
	}
}

// TestVectorSwitch checks that the switch installs and removes every
// registered loop.
func TestVectorSwitch(t *testing.T) {
	needVector(t)
	add := func() binaryFn { return binaryTab[graph.Float32][graph.OpAdd] }
	vec, scalar := withVector(add)
	if reflect.ValueOf(vec).Pointer() == reflect.ValueOf(scalar).Pointer() {
		t.Fatalf("the switch did not change the float32 Add loop")
	}
	was := setVector(false)
	defer setVector(was)
	if got := vecOn; got {
		t.Fatalf("vecOn after setVector(false) got:%v want:false", got)
	}
}

// TestVectorEnv checks the setting FUSEFLOW_NOASM chose at init (reading
// the variable here also keys cached test results on it).
func TestVectorEnv(t *testing.T) {
	asm := !config.Enabled(config.NoASM)
	if !asm && vecmath.Path() != "portable" {
		t.Fatalf("FUSEFLOW_NOASM on: vecmath's path got:%v want:portable", vecmath.Path())
	}
	want := asm && (len(vecSlots) > 0 || vecmath.Path() != "portable")
	if vecOn != want {
		t.Fatalf("FUSEFLOW_NOASM on: %v; vector loops on got:%v want:%v", config.Enabled(config.NoASM), vecOn, want)
	}
}
