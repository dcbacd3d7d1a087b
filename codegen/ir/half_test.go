package ir

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/internal/config"
	"github.com/fuseflow/fuseflow/internal/half"
)

// halfSpecials are 16-bit patterns at the edges of both formats: zeros,
// the smallest and largest subnormals and normals, ones, infinities,
// quiet and signaling NaNs of both signs.
var halfSpecials = []uint16{
	0x0000, 0x8000, 0x0001, 0x8001, 0x0200, 0x03ff, 0x0400, 0x83ff, 0x3c00, 0xbc00, 0x3c01, 0x4000,
	0x3555, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd55,
	0x007f, 0x0080, 0x3f80, 0xbf80, 0x3f81, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x4b00,
}

// halfPairs returns operand pairs for the binary 16-bit float ops: every
// special against every pattern (every 97th unless all), both ways
// round, and random pairs; the count is a multiple of 256.
func halfPairs(all bool) (xs, ys []uint16) {
	step := 97
	if all {
		step = 1
	}
	for _, s := range halfSpecials {
		for p := 0; p < 1<<16; p += step {
			xs, ys = append(xs, s, uint16(p)), append(ys, uint16(p), s)
		}
	}
	r := rand.New(rand.NewPCG(11, 13))
	for len(xs)%256 != 0 || len(xs) < 1<<16 {
		xs, ys = append(xs, uint16(r.Uint32())), append(ys, uint16(r.Uint32()))
	}
	return xs, ys
}

// halfOpsKernel builds, per thread i, for format f: the three native
// ops of x[i] and y[i] into arith[3i..3i+2], the same ops through the
// f32 path (widen, f32 op, narrow) into path[3i..], and every compare
// predicate into cmp[14i..] (bytes).
func halfOpsKernel(f HalfFmt) *Func {
	gptrU16, gptrU8 := PtrTo(SpaceGlobal, U16), PtrTo(SpaceGlobal, U8)
	fn := NewFunc("halfops")
	x := fn.AddParam("x", gptrU16)
	y := fn.AddParam("y", gptrU16)
	arith := fn.AddParam("arith", gptrU16)
	path := fn.AddParam("path", gptrU16)
	cmp := fn.AddParam("cmp", gptrU8)
	b := NewBuilder(fn)
	i := b.Add(b.Mul(b.CtaidX(), b.NtidX()), b.TidX())
	a, c := b.Load(b.Index(x, i)), b.Load(b.Index(y, i))
	widen := func(h *Value) *Value {
		if f == HalfBF16 {
			return b.Bitcast(b.Shl(b.Cvt(h, U32), b.U32(16)), F32)
		}
		return b.F16ToF32(h)
	}
	narrow := func(v *Value) *Value {
		if f == HalfBF16 {
			return b.F32ToBF16(v)
		}
		return b.F32ToF16(v)
	}
	for k, op := range []Op{OpHAdd, OpHSub, OpHMul} {
		at := b.Add(b.Mul(i, b.U32(3)), b.U32(uint32(k)))
		b.Store(b.Index(arith, at), b.HalfArith(op, f, a, c))
		b.Store(b.Index(path, at), narrow(b.Emit(HalfArithOf(op), Invalid, widen(a), widen(c)).Result()))
	}
	for p := range numCmps {
		at := b.Add(b.Mul(i, b.U32(uint32(numCmps))), b.U32(uint32(p)))
		b.Store(b.Index(cmp, at), b.Select(b.HalfCmp(p, f, a, c), b.Const(U8, 1), b.Const(U8, 0)))
	}
	b.Ret()
	return fn
}

// halfExact returns op of the 16-bit values x and y computed in float64
// and rounded once to format f (exact: the sums and products of two
// float16 values are exact in float64, and for bfloat16 float64's 53
// bits are more than 2*8+2, so rounding twice is rounding once).
func halfExact(f HalfFmt, op Op, x, y uint16) uint16 {
	a := float64(math.Float32frombits(HalfToF32Bits(f, x)))
	b := float64(math.Float32frombits(HalfToF32Bits(f, y)))
	var r float64
	switch op {
	case OpHAdd:
		r = a + b
	case OpHSub:
		r = a - b
	default:
		r = a * b
	}
	if f == HalfBF16 {
		return uint16(half.BFromFloat64(r))
	}
	return uint16(half.FromFloat64(r))
}

func isHalfNaN(f HalfFmt, h uint16) bool {
	if f == HalfBF16 {
		return h&0x7fff > 0x7f80
	}
	return h&0x7fff > 0x7c00
}

func isQuietHalf(f HalfFmt, h uint16) bool {
	if f == HalfBF16 {
		return h&0x40 != 0
	}
	return h&0x200 != 0
}

// TestHalfOpsOnInterpreter checks hadd, hsub and hmul against the
// correctly rounded result (computed in float64, rounded once) and bit
// for bit against the f32 path they stand for, NaNs included, and
// hcmp's every predicate against float64 comparison, on every special
// against every pattern (every 97th pattern unless FUSEFLOW_HALF_LONG=1,
// which takes about 20 s) and random pairs.
func TestHalfOpsOnInterpreter(t *testing.T) {
	xs, ys := halfPairs(config.Enabled(config.HalfLong))
	n := len(xs)
	rels := map[CmpPred]func(a, b float64) bool{}
	for p := range numCmps {
		rels[p] = floatRel[p]
	}
	rels[CmpNE] = func(a, b float64) bool { return a < b || a > b } // ordered
	for _, f := range []HalfFmt{HalfF16, HalfBF16} {
		t.Run(f.String(), func(t *testing.T) {
			arith, path, cmp := NewMem(6*n), NewMem(6*n), NewMem(int(numCmps)*n)
			require.NoError(t, Run(halfOpsKernel(f), launch(n/256, 256), MemOf(xs), MemOf(ys), arith, path, cmp))
			ga, gp, gc := View[uint16](arith), View[uint16](path), View[uint8](cmp)
			bad := 0
			for i := range n {
				x, y := xs[i], ys[i]
				for k, op := range []Op{OpHAdd, OpHSub, OpHMul} {
					got, want, p := ga[3*i+k], halfExact(f, op, x, y), gp[3*i+k]
					ok := got == p && (got == want || isHalfNaN(f, want) && isHalfNaN(f, got) && isQuietHalf(f, got))
					if !ok {
						t.Errorf("%s.%s(%#04x, %#04x) got:%#04x want:%#04x (f32 path %#04x)", op, f, x, y, got, want, p)
						bad++
					}
				}
				a := float64(math.Float32frombits(HalfToF32Bits(f, x)))
				b := float64(math.Float32frombits(HalfToF32Bits(f, y)))
				for p := range numCmps {
					if got, want := gc[int(numCmps)*i+int(p)] == 1, rels[p](a, b); got != want {
						t.Errorf("hcmp.%s.%s(%#04x, %#04x) got:%v want:%v", p, f, x, y, got, want)
						bad++
					}
				}
				if bad > 20 {
					t.Fatal("too many mismatches")
				}
			}
		})
	}
}

func TestHalfOpsVerify(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(b *Builder, u16, u32 *Value)
		want string
	}{
		{"operand type", func(b *Builder, u16, u32 *Value) { b.HalfArith(OpHAdd, HalfF16, u16, u32) },
			"hadd takes two u16 patterns, got u16 and u32"},
		{"format", func(b *Builder, u16, _ *Value) { b.HalfArith(OpHMul, HalfFmt(7), u16, u16) },
			"hmul: unknown format halffmt(7)"},
		{"predicate", func(b *Builder, u16, _ *Value) { b.HalfCmp(CmpPred(99), HalfBF16, u16, u16) },
			"hcmp: unknown predicate cmp(99)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFunc("badhalf")
			x := f.AddParam("x", PtrTo(SpaceGlobal, U16))
			b := NewBuilder(f)
			v := b.Load(b.Index(x, b.TidX()))
			tc.make(b, v, b.Cvt(v, U32))
			b.Ret()
			err := f.Verify()
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestHalfOpsPrint(t *testing.T) {
	f := NewFunc("printhalf")
	x := f.AddParam("x", PtrTo(SpaceGlobal, U16))
	b := NewBuilder(f)
	v := b.Load(b.Index(x, b.TidX()))
	s := b.HalfArith(OpHSub, HalfBF16, v, v)
	b.Store(b.Index(x, b.TidX()), s)
	b.HalfCmp(CmpLTU, HalfF16, s, v)
	b.Ret()
	require.NoError(t, f.Verify())
	text := f.String()
	require.Contains(t, text, "hsub.bf16")
	require.Contains(t, text, "hcmp.ltu.f16")
}

// TestHalfConversionsVerify: a conversion to a 16-bit float of an
// operand that is not f32 fails verification.
func TestHalfConversionsVerify(t *testing.T) {
	f := NewFunc("badhalf")
	x := f.AddParam("x", gptrU32)
	b := NewBuilder(f)
	v := b.Load(b.Index(x, b.TidX()))
	b.Emit(OpF32ToF16, U16, v) // a u32 operand: must be f32
	b.Ret()
	err := f.Verify()
	require.Error(t, err)
	require.Contains(t, err.Error(), "f32tof16 converts f32 to u16, got u32 to u16")
}
