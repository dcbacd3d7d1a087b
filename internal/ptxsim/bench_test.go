// Benchmarks of the simulator on generated kernels: an elementwise map,
// a row reduction, a full reduction and a GEMM, reporting the simulated
// thread instructions per second (and warp instructions per second).

package ptxsim_test

import (
	"fmt"
	"testing"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// benchKernel is a compiled plan with its memory, ready to launch.
type benchKernel struct {
	launches []func() (ptxsim.Stats, error)
	bytes    int64
}

// prepare plans and compiles outs (inputs filled with small values) and
// returns its launches.
func prepare(b *testing.B, outs []*graph.Node, tg codegen.Target) *benchKernel {
	b.Helper()
	layouts := map[*graph.Node]graph.Layout{}
	for _, in := range collectInputs(outs) {
		layouts[in] = graph.ContiguousLayout(in.DType(), in.Shape())
	}
	p, err := fuse.Build(outs, layouts)
	if err != nil {
		b.Fatal(err)
	}
	mod, err := codegen.Compile(p, tg, codegen.Options{})
	if err != nil {
		b.Fatal(err)
	}
	sm, err := ptxsim.Parse(mod.PTX)
	if err != nil {
		b.Fatal(err)
	}
	bk := &benchKernel{bytes: p.Bytes}
	regions := make([]ptxsim.Region, len(p.Buffers))
	for i, buf := range p.Buffers {
		data := make([]byte, buf.Bytes)
		for j := range data {
			if j%4 == 3 {
				data[j] = 0x3f // floats near 1, small integers
			}
		}
		regions[i] = ptxsim.Region{Name: fmt.Sprint(i), Addr: bufBase + uint64(i)*bufStride, Data: data}
	}
	nb := len(p.Buffers)
	for _, sig := range mod.Kernels {
		k, err := sm.Kernel(sig.Entry)
		if err != nil {
			b.Fatal(err)
		}
		kr := regions[:nb:nb] // the plan's buffers, then the kernel's scratch areas
		for si, sc := range sig.Scratch {
			kr = append(kr, ptxsim.Region{Name: fmt.Sprint("scratch ", si), Addr: bufBase + uint64(nb+si)*bufStride, Data: make([]byte, sc.Bytes)})
		}
		for _, ln := range sig.Launches {
			params := make([]uint64, len(sig.Params))
			for pi, prm := range sig.Params {
				switch prm.Kind {
				case codegen.ParamBuffer:
					params[pi] = bufBase + uint64(prm.Buffer)*bufStride
				case codegen.ParamScratch:
					params[pi] = bufBase + uint64(nb+prm.Buffer)*bufStride
				default:
					params[pi] = uint64(uint32(ln.Pass))
				}
			}
			cfg := ptxsim.Config{Grid: ln.Grid.Array(), Block: ln.Block.Array(), Params: params, Global: kr}
			bk.launches = append(bk.launches, func() (ptxsim.Stats, error) { return k.Run(cfg) })
		}
	}
	return bk
}

func BenchmarkSimulate(b *testing.B) {
	f32 := graph.Float32
	cases := []struct {
		name string
		outs func() []*graph.Node
	}{
		{"map_fma_1M", func() []*graph.Node {
			x, y := graph.Input(f32, graph.Shape{1 << 20}, "x"), graph.Input(f32, graph.Shape{1 << 20}, "y")
			return []*graph.Node{graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, x, y), x)}
		}},
		{"map_exp_256K", func() []*graph.Node {
			x := graph.Input(f32, graph.Shape{1 << 18}, "x")
			return []*graph.Node{graph.Unary(graph.OpExp, x)}
		}},
		{"rowsum_1024x1024", func() []*graph.Node {
			x := graph.Input(f32, graph.Shape{1024, 1024}, "x")
			return []*graph.Node{graph.Reduce(graph.OpSum, x, []int{1}, false)}
		}},
		{"argmax_1M", func() []*graph.Node {
			x := graph.Input(graph.Float64, graph.Shape{1 << 20}, "x")
			return []*graph.Node{graph.Reduce(graph.OpArgMax, x, nil, false)}
		}},
		{"gemm_256", func() []*graph.Node {
			a, c := graph.Input(f32, graph.Shape{256, 256}, "a"), graph.Input(f32, graph.Shape{256, 256}, "b")
			return []*graph.Node{graph.MatMul(a, c)}
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			bk := prepare(b, c.outs(), codegen.H100())
			b.SetBytes(bk.bytes)
			var thread, warp int64
			b.ResetTimer()
			for range b.N {
				for _, l := range bk.launches {
					st, err := l()
					if err != nil {
						b.Fatal(err)
					}
					thread += st.ThreadInstructions
					warp += st.WarpInstructions
				}
			}
			s := b.Elapsed().Seconds()
			b.ReportMetric(float64(thread)/s, "instr/s")
			b.ReportMetric(float64(warp)/s, "warp-instr/s")
		})
	}
}
