// This file tests what explicit kernels (codegen/gokernel) need from the
// emitter: source positions as .file and .loc line information, trap,
// bar.red, bar.warp.sync, activemask, atomic inc and dec, dynamic shared
// memory and constant arrays, in two kernels of one module (their
// module-scope symbols must not collide).

package ptx

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/stretchr/testify/require"
)

// explicitKernel builds a kernel named name that uses every feature of
// explicit kernels, with source positions in file.
func explicitKernel(name, file string) *ir.Func {
	f := ir.NewFunc(name)
	out := f.AddParam("out", gptr(ir.U32))
	n := f.AddParam("n", ir.S64)
	coef := f.AddConstArray("coef", ir.F32, []uint64{0x3F800000, 0x40000000, 0xC0400000})
	dyn := f.AddDynShared("dyn", ir.U32)
	b := ir.NewBuilder(f)
	at := func(line int) { b.SetPos(ir.Pos{File: file, Line: line, Col: 2}) }
	at(10)
	tid := b.TidX()
	i := b.Cvt(tid, ir.S64)
	at(11)
	b.If(b.Ge(b.Cvt(i, ir.U64), b.Cvt(n, ir.U64)), func() {
		b.AtomicCAS(b.Index(out, b.U32(0)), b.U32(0), b.U32(5))
		b.Fence(ir.ScopeSys)
		b.Trap()
	})
	at(12)
	b.Store(b.Index(dyn, tid), b.Cvt(b.Load(b.Index(coef, b.Rem(tid, b.U32(3)))), ir.U32))
	cnt := b.BarRed(ir.RedPopc, b.Lt(tid, b.U32(7)))
	at(13)
	all := b.BarRed(ir.RedAnd, b.Bool(true))
	b.WarpSync(b.ActiveMask())
	at(14)
	v := b.Add(b.Load(b.Index(dyn, b.Xor(tid, b.U32(1)))), cnt)
	v = b.Add(v, b.Select(all, b.U32(100), b.U32(0)))
	b.Atomic(ir.AtomInc, b.Index(out, b.U32(1)), b.U32(9))
	b.Atomic(ir.AtomDec, b.Index(out, b.U32(2)), b.U32(9))
	at(15)
	b.Store(b.Index(out, b.Add(tid, b.U32(3))), b.Add(v, b.DynSmemSize()))
	b.Ret()
	return f
}

func TestExplicitFeaturesGoldenAndAssemble(t *testing.T) {
	fns := []*ir.Func{explicitKernel("first", "first.go"), explicitKernel("second", "second.go")}
	text, err := EmitModule(fns, Options{LineInfo: true})
	require.NoError(t, err)
	goldenFile(t, "explicit_lineinfo", text)
	for _, want := range []string{
		".file 1 \"first.go\"\n.file 2 \"second.go\"\n",
		".const .align 4 .b32 first$coef[3] = {0x3F800000, 0x40000000, 0xC0400000};",
		".extern .shared .align 16 .b8 second$dyn[];",
		"\t.loc 2 13 2\n",
		"bar.red.popc.u32", "bar.red.and.pred", "bar.warp.sync", "activemask.b32", "\ttrap;",
		"atom.global.inc.u32", "atom.global.dec.u32", "%dynamic_smem_size",
	} {
		require.Contains(t, text, want)
	}
	assembleModule(t, text)

	// Without LineInfo there is no line table.
	plain, err := Emit(fns[0], Options{})
	require.NoError(t, err)
	require.NotContains(t, plain, ".loc")
	require.NotContains(t, plain, ".file")
	assembleModule(t, plain)
}

// TestLegalizeKeepsPositions checks that the legalized copy carries the
// positions, including those of the instructions a rewrite builds.
func TestLegalizeKeepsPositions(t *testing.T) {
	f := ir.NewFunc("pos")
	out := f.AddParam("out", gptr(ir.U32))
	c := f.AddParam("c", ir.U32)
	b := ir.NewBuilder(f)
	b.SetPos(ir.Pos{File: "p.go", Line: 7})
	p := b.Select(b.Eq(c, b.U32(1)), b.Bool(true), b.Lt(c, b.U32(5))) // a pred select: rewritten
	b.Store(out, b.Select(p, b.U32(1), b.U32(2)))
	b.Ret()
	lf, err := Legalize(f, Options{})
	require.NoError(t, err)
	for _, blk := range lf.Blocks {
		for _, in := range blk.Instrs {
			require.Equal(t, 7, in.Pos.Line, "%s", in)
		}
	}
	require.True(t, strings.Contains(lf.String(), "at p.go:7"))
}
