// Native half-precision arithmetic: float16 and bfloat16 kernels written
// as the code generator writes them (widen, compute in f32, narrow) give
// bit for bit the same results once legalization has put native 16-bit
// ops in their place, on the IR interpreter and on the simulator running
// the emitted PTX, for targets below, at and above each instruction's
// requirement; each target's PTX uses exactly the instructions it has
// and assembles with ptxas.

package ptx

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/config"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// halfOuts are the 16-bit outputs of halfPathKernel; arith marks those
// whose NaNs come from arithmetic (payload unspecified).
var halfOuts = []struct {
	name  string
	arith bool
}{
	{"add", true}, {"sub", true}, {"mul", true}, {"chain", true}, {"neg", false}, {"abs", false},
	{"maximum", false}, {"add_const", true}, {"round_trip", false}, {"neg_mul", true}, {"sign", false},
}

// halfCmps are the comparisons of halfPathKernel, stored as bytes.
var halfCmps = []ir.CmpPred{ir.CmpLT, ir.CmpNEU, ir.CmpGE, ir.CmpNAN}

// halfPathKernel builds, per thread i, the float16 or bfloat16 ops of
// x[i] and y[i] as the code generator lowers them (f32 between exact
// widenings and narrowings), with the outputs of halfOuts into h, the
// comparisons of halfCmps into c and x*3 in f32 into w (a widened
// operand that stays in use).
func halfPathKernel(f ir.HalfFmt) *ir.Func {
	fn := ir.NewFunc("halfpath_" + f.String())
	xp, yp := fn.AddParam("x", gptr(ir.U16)), fn.AddParam("y", gptr(ir.U16))
	hp, cp, wp := fn.AddParam("h", gptr(ir.U16)), fn.AddParam("c", gptr(ir.U8)), fn.AddParam("w", gptr(ir.F32))
	b := ir.NewBuilder(fn)
	i := b.Add(b.Mul(b.CtaidX(), b.NtidX()), b.TidX())
	x, y := b.Load(b.Index(xp, i)), b.Load(b.Index(yp, i))
	widen := func(h *ir.Value) *ir.Value { return widenHalf(b, f, h) }
	round := func(v *ir.Value) *ir.Value { return narrowHalf(b, f, v) }
	wx, wy := widen(x), widen(y)
	t := round(b.Add(wx, wy))
	t = round(b.Mul(widen(t), wy))
	chain := round(b.Sub(widen(t), wx))
	z := b.Float(ir.F32, 0)
	sign := b.Select(b.Eq(wx, z), z, wx)
	sign = b.Select(b.Lt(wx, z), b.Float(ir.F32, -1), sign)
	sign = b.Select(b.Gt(wx, z), b.Float(ir.F32, 1), sign)
	outs := []*ir.Value{
		round(b.Add(wx, wy)), round(b.Sub(wx, wy)), round(b.Mul(wx, wy)), chain,
		round(b.Neg(wx)), round(b.Abs(wx)),
		round(b.Select(b.Or(b.Ge(wx, wy), b.Cmp(ir.CmpNAN, wx, wx)), wx, wy)),
		round(b.Add(wx, b.Float(ir.F32, 2))), round(wx), round(b.Mul(b.Neg(wx), wy)), round(sign),
	}
	for k, v := range outs {
		b.Store(b.Index(hp, b.Add(b.Mul(i, b.U32(uint32(len(outs)))), b.U32(uint32(k)))), v)
	}
	for k, p := range halfCmps {
		c := b.Select(b.Cmp(p, wx, wy), b.Const(ir.U8, 1), b.Const(ir.U8, 0))
		b.Store(b.Index(cp, b.Add(b.Mul(i, b.U32(uint32(len(halfCmps)))), b.U32(uint32(k)))), c)
	}
	b.Store(b.Index(wp, i), b.Mul(wx, b.Float(ir.F32, 3)))
	b.Ret()
	return fn
}

// halfOperands returns operand pairs: every pair of special patterns of
// both formats, and every 8th 16-bit pattern (every one with
// FUSEFLOW_HALF_LONG=1: 65536, about 2 s, 25 s with -race) as x with a
// random y, a multiple of 256 of them.
func halfOperands() (xs, ys []uint16) {
	step := 8
	if config.Enabled(config.HalfLong) {
		step = 1
	}
	sp := []uint16{0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x4000, 0x1000,
		0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd55,
		0x007f, 0x0080, 0x3f80, 0xbf80, 0x3f81, 0x3b80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81}
	for _, a := range sp {
		for _, c := range sp {
			xs, ys = append(xs, a), append(ys, c)
		}
	}
	r := rand.New(rand.NewPCG(5, 8))
	for p := 0; p < 1<<16; p += step {
		xs, ys = append(xs, uint16(p)), append(ys, uint16(r.Uint32()))
	}
	return xs, ys
}

// halfRun holds the outputs of one run of halfPathKernel.
type halfRun struct {
	h []uint16
	c []uint8
	w []uint32
}

func interpHalf(t *testing.T, fn *ir.Func, xs, ys []uint16) halfRun {
	t.Helper()
	n := len(xs)
	h, c, w := ir.NewMem(2*len(halfOuts)*n), ir.NewMem(len(halfCmps)*n), ir.NewMem(4*n)
	cfg := ir.Config{Grid: [3]int{n / 256}, Block: [3]int{256}}
	require.NoError(t, ir.Run(fn, cfg, ir.MemOf(xs), ir.MemOf(ys), h, c, w))
	return halfRun{ir.View[uint16](h), ir.View[uint8](c), ir.View[uint32](w)}
}

func simHalf(t *testing.T, text, name string, xs, ys []uint16) halfRun {
	t.Helper()
	m, err := ptxsim.Parse(text)
	require.NoError(t, err)
	k, err := m.Kernel(name)
	require.NoError(t, err)
	n := len(xs)
	regions := []ptxsim.Region{
		{Name: "x", Addr: 0x1000_0000, Data: ir.MemOf(xs).Data},
		{Name: "y", Addr: 0x2000_0000, Data: ir.MemOf(ys).Data},
		{Name: "h", Addr: 0x3000_0000, Data: make([]byte, 2*len(halfOuts)*n)},
		{Name: "c", Addr: 0x4000_0000, Data: make([]byte, len(halfCmps)*n)},
		{Name: "w", Addr: 0x5000_0000, Data: make([]byte, 4*n)},
	}
	params := make([]uint64, len(regions))
	for i, r := range regions {
		params[i] = r.Addr
	}
	_, err = k.Run(ptxsim.Config{Grid: [3]int{n / 256}, Block: [3]int{256}, Params: params, Global: regions})
	require.NoError(t, err)
	return halfRun{ir.View[uint16](&ir.Mem{Data: regions[2].Data}), regions[3].Data, ir.View[uint32](&ir.Mem{Data: regions[4].Data})}
}

// compareHalf reports the outputs of got that differ from want; with
// anyNaN, arithmetic outputs that are NaN in both agree.
func compareHalf(t *testing.T, what string, f ir.HalfFmt, xs, ys []uint16, got, want halfRun, anyNaN bool) {
	t.Helper()
	isNaN := func(h uint16) bool {
		if f == ir.HalfBF16 {
			return h&0x7fff > 0x7f80
		}
		return h&0x7fff > 0x7c00
	}
	bad := 0
	report := func(format string, args ...any) {
		t.Errorf(what+": "+format, args...)
		if bad++; bad > 20 {
			t.FailNow()
		}
	}
	for i := range xs {
		for k, o := range halfOuts {
			g, w := got.h[i*len(halfOuts)+k], want.h[i*len(halfOuts)+k]
			if g != w && !(anyNaN && o.arith && isNaN(g) && isNaN(w)) {
				report("%s.%s(%#04x, %#04x) got:%#04x want:%#04x", o.name, f, xs[i], ys[i], g, w)
			}
		}
		for k, p := range halfCmps {
			if g, w := got.c[i*len(halfCmps)+k], want.c[i*len(halfCmps)+k]; g != w {
				report("cmp.%s.%s(%#04x, %#04x) got:%d want:%d", p, f, xs[i], ys[i], g, w)
			}
		}
		if g, w := got.w[i], want.w[i]; g != w && !(anyNaN && g&0x7fffffff > 0x7f800000 && w&0x7fffffff > 0x7f800000) {
			report("x*3 in f32 (%#04x) got:%#08x want:%#08x", xs[i], g, w)
		}
	}
}

// halfArchs are the targets tested: below every native op (sm_52),
// float16 only (sm_70, sm_75), bfloat16 through fma (sm_80) and
// everything (sm_90).
var halfArchs = []Capability{{5, 2}, {7, 0}, {7, 5}, {8, 0}, {9, 0}}

func TestHalfNativeAgreesWithF32Path(t *testing.T) {
	xs, ys := halfOperands()
	for _, f := range []ir.HalfFmt{ir.HalfF16, ir.HalfBF16} {
		fn := halfPathKernel(f)
		want := interpHalf(t, fn, xs, ys)
		for _, arch := range halfArchs {
			t.Run(fmt.Sprintf("%s/%s", f, arch), func(t *testing.T) {
				opts := Options{Arch: arch, ExpandMath: nil}
				lz, err := Legalize(fn, opts)
				require.NoError(t, err)
				compareHalf(t, "legalized IR on the interpreter", f, xs, ys, interpHalf(t, lz, xs, ys), want, false)
				text, err := Emit(fn, opts)
				require.NoError(t, err)
				ptxas.AssembleAll(t, text, arch.String())
				compareHalf(t, "PTX on the simulator", f, xs, ys, simHalf(t, text, fn.Name, xs, ys), want, true)
			})
		}
	}
}

// TestHalfNativeInstructions checks which instructions each target gets
// and that its PTX assembles.
func TestHalfNativeInstructions(t *testing.T) {
	for _, c := range []struct {
		f       ir.HalfFmt
		arch    Capability
		has     []string
		hasNone []string
	}{
		{ir.HalfF16, Capability{5, 2}, []string{"add.rn.f32", "cvt.rn.f16.f32", "setp.lt.f32"}, []string{".rn.f16 ", "setp.lt.f16", "hadd"}},
		{ir.HalfF16, Capability{7, 0}, []string{"add.rn.f16", "sub.rn.f16", "mul.rn.f16", "setp.lt.f16", "setp.nan.f16", "xor.b16", "selp.b16"}, []string{"add.rn.f32", "sub.rn.f32"}},
		{ir.HalfF16, Capability{9, 0}, []string{"add.rn.f16", "sub.rn.f16", "mul.rn.f16", "setp.neu.f16"}, []string{"add.rn.f32"}},
		{ir.HalfBF16, Capability{7, 5}, []string{"add.rn.f32", "setp.lt.f32"}, []string{".bf16"}},
		{ir.HalfBF16, Capability{8, 0}, []string{"fma.rn.bf16", "setp.lt.f32"}, []string{"add.rn.bf16", "setp.lt.bf16", "add.rn.f32", "sub.rn.f32"}},
		{ir.HalfBF16, Capability{9, 0}, []string{"add.rn.bf16", "sub.rn.bf16", "mul.rn.bf16", "setp.lt.bf16", "setp.nan.bf16"}, []string{"fma.rn.bf16", "add.rn.f32", "setp.lt.f32"}},
	} {
		t.Run(fmt.Sprintf("%s/%s", c.f, c.arch), func(t *testing.T) {
			text, err := Emit(halfPathKernel(c.f), Options{Arch: c.arch})
			require.NoError(t, err)
			for _, s := range c.has {
				require.Contains(t, text, s)
			}
			for _, s := range c.hasNone {
				require.NotContains(t, text, s)
			}
			require.NotContains(t, text, ".ftz")
			ptxas.AssembleAll(t, text, c.arch.String())
		})
	}
}

// TestHalfChainStaysNarrow checks that a chain of float16 ops between a
// load and a store keeps its values in .b16 registers: no conversion is
// left, and every op is one instruction.
func TestHalfChainStaysNarrow(t *testing.T) {
	for _, f := range []ir.HalfFmt{ir.HalfF16, ir.HalfBF16} {
		fn := ir.NewFunc("chain_" + f.String())
		xp, yp := fn.AddParam("x", gptr(ir.U16)), fn.AddParam("y", gptr(ir.U16))
		b := ir.NewBuilder(fn)
		i := b.TidX()
		x, y := widenHalf(b, f, b.Load(b.Index(xp, i))), widenHalf(b, f, b.Load(b.Index(yp, i)))
		v := widenHalf(b, f, narrowHalf(b, f, b.Add(x, y)))
		v = widenHalf(b, f, narrowHalf(b, f, b.Mul(v, y)))
		v = widenHalf(b, f, narrowHalf(b, f, b.Sub(v, x)))
		b.Store(b.Index(yp, i), narrowHalf(b, f, v))
		b.Ret()
		text, err := Emit(fn, Options{Arch: Capability{9, 0}})
		require.NoError(t, err)
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, ".f32") && !strings.Contains(line, ".reg") || strings.Contains(line, "cvt.") {
				t.Errorf("%s: f32 or a conversion left in a chain of 16-bit ops: %s", f, line)
			}
		}
		for _, op := range []string{"add", "mul", "sub"} {
			require.Equal(t, 1, strings.Count(text, op+".rn."+f.String()), "%s.rn.%s in\n%s", op, f, text)
		}
		ptxas.AssembleAll(t, text, "sm_90")
	}
}

// TestHalfOpsExpandedBelowTarget checks that 16-bit ops written in the
// IR become the f32 path on targets without them.
func TestHalfOpsExpandedBelowTarget(t *testing.T) {
	fn := ir.NewFunc("hops")
	xp := fn.AddParam("x", gptr(ir.U16))
	b := ir.NewBuilder(fn)
	x := b.Load(xp)
	s := b.HalfArith(ir.OpHAdd, ir.HalfBF16, x, x)
	p := b.HalfCmp(ir.CmpLT, ir.HalfF16, x, s)
	b.Store(xp, b.Select(p, s, b.HalfArith(ir.OpHMul, ir.HalfF16, x, x)))
	b.Ret()
	for _, c := range []struct {
		arch    Capability
		has     []string
		hasNone []string
	}{
		{Capability{5, 2}, []string{"add.rn.f32", "mul.rn.f32", "setp.lt.f32"}, []string{".bf16", ".rn.f16 ", "setp.lt.f16"}},
		{Capability{7, 5}, []string{"add.rn.f32", "mul.rn.f16", "setp.lt.f16"}, []string{".bf16"}},
		{Capability{8, 0}, []string{"fma.rn.bf16", "mul.rn.f16", "setp.lt.f16"}, []string{".f32"}},
	} {
		text, err := Emit(fn, Options{Arch: c.arch})
		require.NoError(t, err, "%s", c.arch)
		for _, s := range c.has {
			require.Contains(t, text, s, "%s", c.arch)
		}
		for _, s := range c.hasNone {
			require.NotContains(t, text, s, "%s", c.arch)
		}
		ptxas.AssembleAll(t, text, c.arch.String())
	}
}
