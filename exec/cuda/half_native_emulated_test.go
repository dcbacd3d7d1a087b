// float16 and bfloat16 arithmetic, comparisons and selects through real
// plans on the emulated devices (sm_80: float16 native, bfloat16 through
// fma.rn.bf16; sm_90: both native), bit for bit against the CPU backend,
// which computes them in float32 and rounds after each op.

package cuda

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

func TestEmulatedHalfNativeMatchesCPU(t *testing.T) {
	devs := []struct {
		name string
		b    *Backend
	}{{"sm_80", emuBackend(t, emuSmall, Options{})}, {"sm_90", emuBackend(t, emuH100, Options{})}}
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	sp := []uint16{0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x1000, 0x7bff, 0xfbff,
		0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x007f, 0x3f80, 0xbf80, 0x3f81, 0x3b80, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81}
	var xs, ys []uint16
	for _, a := range sp {
		for _, c := range sp {
			xs, ys = append(xs, a), append(ys, c)
		}
	}
	r := rand.New(rand.NewPCG(16, 61))
	for len(xs) < 4096 {
		xs, ys = append(xs, uint16(r.Uint32())), append(ys, uint16(r.Uint32()))
	}
	for _, d := range []graph.DType{graph.Float16, graph.BFloat16} {
		x, y := graph.Input(d, graph.Shape{len(xs)}, "x"), graph.Input(d, graph.Shape{len(xs)}, "y")
		bin := func(op graph.Op, a, b *graph.Node) *graph.Node { return graph.Binary(op, a, b) }
		halves := []struct {
			name string
			n    *graph.Node
			zero bool // the CPU's Maximum and Minimum may differ in the sign of a zero
		}{
			{"add", bin(graph.OpAdd, x, y), false}, {"sub", bin(graph.OpSub, x, y), false}, {"mul", bin(graph.OpMul, x, y), false},
			{"chain", bin(graph.OpSub, bin(graph.OpMul, bin(graph.OpAdd, x, y), y), x), false},
			{"add_const", bin(graph.OpAdd, x, graph.FloatConst(d, 2)), false},
			{"neg", graph.Unary(graph.OpNeg, x), false}, {"abs", graph.Unary(graph.OpAbs, x), false},
			{"square", graph.Unary(graph.OpSquare, x), false}, {"sign", graph.Unary(graph.OpSign, x), false},
			{"maximum", bin(graph.OpMax, x, y), true}, {"minimum", bin(graph.OpMin, x, y), true},
			{"where", graph.Where(bin(graph.OpLt, x, y), x, y), false},
		}
		preds := []*graph.Node{bin(graph.OpLt, x, y), bin(graph.OpLe, x, y), bin(graph.OpEq, x, y), bin(graph.OpNe, x, y),
			bin(graph.OpGt, x, y), bin(graph.OpGe, x, y), graph.Unary(graph.OpIsNaN, x)}
		outs := make([]*graph.Node, 0, len(halves)+len(preds))
		for _, h := range halves {
			require.NoError(t, h.n.Err())
			outs = append(outs, h.n)
		}
		outs = append(outs, preds...)
		bound := bindings{x: hostOf(t, alloc, d, xs), y: hostOf(t, alloc, d, ys)}
		want, err := cpu.New(cpu.Options{}).Eval(context.Background(), &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc})
		require.NoError(t, err)
		nan := func(h uint16) bool {
			if d == graph.BFloat16 {
				return h&0x7fff > 0x7f80
			}
			return h&0x7fff > 0x7c00
		}
		for _, dev := range devs {
			t.Run(fmt.Sprintf("%v/%s", d, dev.name), func(t *testing.T) {
				got16 := evalCall[uint16](t, dev.b, alloc, outs[:len(halves)], bound)
				gotB := evalCall[uint8](t, dev.b, alloc, outs[len(halves):], bound)
				bad := 0
				for k, h := range halves {
					w := exec.Elems[uint16](want[k])
					for i := range xs {
						g := got16[k][i]
						if g == w[i] || nan(g) && nan(w[i]) || h.zero && g&0x7fff == 0 && w[i]&0x7fff == 0 {
							continue
						}
						if bad++; bad <= 20 {
							t.Errorf("%s(%#04x, %#04x) got:%#04x want:%#04x", h.name, xs[i], ys[i], g, w[i])
						}
					}
				}
				for k, p := range preds {
					w := exec.Elems[uint8](want[len(halves)+k])
					for i := range xs {
						if g := gotB[k][i]; g != w[i] {
							if bad++; bad <= 20 {
								t.Errorf("%v(%#04x, %#04x) got:%d want:%d", p.Op(), xs[i], ys[i], g, w[i])
							}
						}
					}
				}
			})
		}
		releaseAll(want)
		for _, v := range bound {
			v.Release()
		}
	}
}
