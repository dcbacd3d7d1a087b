// Tests of array.Call on the CPU and reference backends: results equal
// an eager launch on the CPU device bit for bit, inputs are never
// changed, the call is a fusion boundary with the work around it fused,
// and bad calls are errors naming the kernel and the parameter.

package array_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	ct "github.com/fuseflow/fuseflow/internal/calltest"
	"github.com/fuseflow/fuseflow/kernel"
)

// callBackends are the backends lazy calls are tested on, each on a
// checked allocator that must end at zero bytes.
func callBackends(t *testing.T) map[string]*array.Context {
	out := map[string]*array.Context{}
	for name, b := range map[string]exec.Backend{"ref": ref.New(), "cpu": cpu.New(cpu.Options{Workers: 2})} {
		out[name], _ = checkedContext(t, b)
	}
	return out
}

func randF32(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

func requireBits32(t *testing.T, want, got []float32) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("element %d got:%v want:%v", i, got[i], want[i])
		}
	}
}

func TestCallSaxpyMatchesLaunch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := randF32(r, 1000), randF32(r, 1000)
	for name, c := range callBackends(t) {
		for _, g := range []struct {
			name string
			geom array.Geometry
			cfg  func() (kernel.Config, error)
		}{
			{"launch", array.Launch(kernel.Launch1D(3, 64)), func() (kernel.Config, error) { return kernel.Launch1D(3, 64), nil }},
			{"forall", array.ForAll(1000), func() (kernel.Config, error) { return ct.SaxpyKernel.ForAllConfig(kernel.CPU(), 1000) }},
		} {
			t.Run(name+"/"+g.name, func(t *testing.T) {
				want := append([]float32(nil), y...)
				cfg, err := g.cfg()
				require.NoError(t, err)
				cfg.Device = kernel.CPU()
				require.NoError(t, ct.SaxpyKernel.Launch(cfg, float32(2.5), x, want))

				xa := array.FromSlice(c, x, 10, 100)
				ya := array.FromSlice(c, y, 10, 100)
				defer xa.Release()
				defer ya.Release()
				out := array.Call(ct.SaxpyKernel, g.geom, 2.5, xa, ya)
				require.Len(t, out, 1)
				defer out[0].Release()
				require.Equal(t, array.Shape{10, 100}, out[0].Shape())
				got, err := array.ToSlice[float32](out[0])
				require.NoError(t, err)
				requireBits32(t, want, got)
				// The argument is not changed.
				yv, err := array.ToSlice[float32](ya)
				require.NoError(t, err)
				requireBits32(t, y, yv)
			})
		}
	}
}

// TestCallFusesAround checks the plan of Call(Saxpy, a, Exp(x), y).Sum():
// a Map computing Exp(x) and copying y into the result's buffer, the
// call, then a Reduce reading its result; and the values on each backend
// against the eager launch.
func TestCallFusesAround(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := randF32(r, 512), randF32(r, 512)
	ex := make([]float32, len(x))
	for i, v := range x {
		ex[i] = float32(math.Exp(float64(v)))
	}
	for name, c := range callBackends(t) {
		t.Run(name, func(t *testing.T) {
			xa := array.FromSlice(c, x)
			ya := array.FromSlice(c, y)
			defer xa.Release()
			defer ya.Release()
			ez := xa.Exp()
			defer ez.Release()
			out := array.Call(ct.SaxpyKernel, array.ForAll(len(y)), float32(0.5), ez, ya.Mul(2))
			defer out[0].Release()
			s := out[0].Sum()
			defer s.Release()

			pl, err := fuse.Build([]*graph.Node{s.Node()}, map[*graph.Node]graph.Layout{
				xa.Node(): graph.ContiguousLayout(graph.Float32, graph.Shape{512}),
				ya.Node(): graph.ContiguousLayout(graph.Float32, graph.Shape{512}),
			})
			require.NoError(t, err)
			var kinds []fuse.Kind
			for _, k := range pl.Kernels {
				kinds = append(kinds, k.Kind())
			}
			require.Equal(t, []fuse.Kind{fuse.KindMap, fuse.KindCall, fuse.KindReduce}, kinds, fuse.Explain(pl))
			require.Equal(t, "call_Saxpy", pl.Kernels[1].Name)
			require.Contains(t, fuse.Explain(pl), "call Saxpy forall 512")

			// The values: exp computed by the backend, then the eager
			// launch over them.
			exv, err := array.ToSlice[float32](ez)
			require.NoError(t, err)
			want := make([]float32, len(y))
			for i := range y {
				want[i] = y[i] * 2
			}
			cfg, err := ct.SaxpyKernel.ForAllConfig(kernel.CPU(), len(y))
			require.NoError(t, err)
			require.NoError(t, ct.SaxpyKernel.Launch(cfg, float32(0.5), exv, want))
			got, err := array.ToSlice[float32](out[0])
			require.NoError(t, err)
			requireBits32(t, want, got)
			sum, err := s.Value()
			require.NoError(t, err)
			total := 0.0
			for _, v := range want {
				total += float64(v)
			}
			require.InDelta(t, total, sum, 1e-3)
		})
	}
}

// TestCallTwoOutputs checks a kernel writing two slices: both results,
// each from its argument's initial values, one launch for both in a
// plan, and either result alone.
func TestCallTwoOutputs(t *testing.T) {
	x := []float64{3, -1, 0.5, 7, -8, 2}
	lo := []float64{0, 0, 0, 0, 0, 0}
	// hi starts as ones (c.Ones), lo as the zeros of lo.
	wantLo := []float64{0, -1, 0, 0, -8, 0}
	wantHi := []float64{3, 1, 1, 7, 1, 2}
	for name, c := range callBackends(t) {
		t.Run(name, func(t *testing.T) {
			xa := array.FromSlice(c, x, 2, 3)
			loa := array.FromSlice(c, lo, 3, 2)
			defer xa.Release()
			defer loa.Release()
			hia := c.Ones(array.Float64, 6)
			defer hia.Release()
			out := array.Call(ct.BoundsKernel, array.ForAll(6), xa, loa, hia)
			require.Len(t, out, 2)
			defer out[0].Release()
			defer out[1].Release()
			require.Equal(t, array.Shape{3, 2}, out[0].Shape())
			require.Equal(t, array.Shape{6}, out[1].Shape())
			require.NoError(t, array.Eval(t.Context(), out...))
			gl, err := array.ToSlice[float64](out[0])
			require.NoError(t, err)
			gh, err := array.ToSlice[float64](out[1])
			require.NoError(t, err)
			require.Equal(t, wantLo, gl)
			require.Equal(t, wantHi, gh)

			again := array.Call(ct.BoundsKernel, array.ForAll(6), xa, loa, hia)
			d := again[1].Sub(1)
			defer again[0].Release()
			defer again[1].Release()
			defer d.Release()
			gd, err := array.ToSlice[float64](d)
			require.NoError(t, err)
			require.Equal(t, []float64{2, 0, 0, 6, 0, 1}, gd)

			both, err := fuse.Build([]*graph.Node{out[0].Node(), out[1].Node()}, map[*graph.Node]graph.Layout{
				xa.Node():  graph.ContiguousLayout(graph.Float64, graph.Shape{2, 3}),
				loa.Node(): graph.ContiguousLayout(graph.Float64, graph.Shape{3, 2}),
			})
			require.NoError(t, err)
			calls := 0
			for _, k := range both.Kernels {
				if k.Kind() == fuse.KindCall {
					calls++
				}
			}
			require.Equal(t, 1, calls, fuse.Explain(both))
		})
	}
}

func TestCallIntsBoolsAtomics(t *testing.T) {
	x := []int32{5, -2, 9, 0, 12, 3, 7}
	for name, c := range callBackends(t) {
		t.Run(name, func(t *testing.T) {
			xa := array.FromSlice(c, x)
			defer xa.Release()
			keep := c.Zeros(array.Bool, len(x))
			count := c.Zeros(array.Int64, 1)
			defer keep.Release()
			defer count.Release()
			out := array.Call(ct.AboveKernel, array.Launch(kernel.Launch1D(2, 4)), xa, 4, keep, count)
			defer out[0].Release()
			defer out[1].Release()
			k, err := array.ToSlice[bool](out[0])
			require.NoError(t, err)
			require.Equal(t, []bool{true, false, true, false, true, false, true}, k)
			n, err := out[1].ValueInt()
			require.NoError(t, err)
			require.Equal(t, int64(4), n)
		})
	}
}

// TestCallLaunchError checks that a kernel failing its bounds check
// fails the Eval of its result with the *kernel.LaunchError.
func TestCallLaunchError(t *testing.T) {
	for name, c := range callBackends(t) {
		t.Run(name, func(t *testing.T) {
			x := c.Ones(array.Float32, 8)
			y := c.Zeros(array.Float32, 8)
			defer x.Release()
			defer y.Release()
			out := array.Call(ct.ShiftKernel, array.ForAll(8), x, y)
			defer out[0].Release()
			err := out[0].Eval()
			var le *kernel.LaunchError
			require.ErrorAs(t, err, &le)
			require.Equal(t, "Shift", le.Kernel)
		})
	}
}

func TestCallErrors(t *testing.T) {
	c := callBackends(t)["cpu"]
	f32 := c.Zeros(array.Float32, 4)
	f64 := c.Zeros(array.Float64, 4)
	defer f32.Release()
	defer f64.Release()
	other := array.MustContext(array.WithBackend(ref.New()))
	o32 := other.Zeros(array.Float32, 4)
	defer o32.Release()
	for _, tc := range []struct {
		name string
		k    *kernel.Kernel
		g    array.Geometry
		args []any
		want []string
	}{
		{"nil kernel", nil, array.ForAll(4), nil, []string{"nil kernel"}},
		{"count", ct.SaxpyKernel, array.ForAll(4), []any{1, f32}, []string{"kernel Saxpy", "2 arguments for the 3 parameters (a float32, x []float32, y []float32)"}},
		{"dtype", ct.SaxpyKernel, array.ForAll(4), []any{1, f32, f64}, []string{"kernel Saxpy", "parameter y []float32", "got a float64 array (4,), want float32"}},
		{"not an array", ct.SaxpyKernel, array.ForAll(4), []any{1, []float32{1}, f32}, []string{"parameter x []float32", "got []float32, want a float32 *Array"}},
		{"array for scalar", ct.SaxpyKernel, array.ForAll(4), []any{f32, f32, f32}, []string{"parameter a float32", "scalar parameter takes a Go value"}},
		{"scalar value", ct.AboveKernel, array.ForAll(4), []any{c.Zeros(array.Int32, 4), int64(1) << 40, c.Zeros(array.Bool, 4), c.Zeros(array.Int64, 1)}, []string{"parameter k int32", "does not fit int32"}},
		{"uint slice", ct.FillKernel, array.ForAll(4), []any{uint32(1), f32}, []string{"parameter out []uint32", "no array dtype holds uint32"}},
		{"writes nothing", ct.PeekKernel, array.ForAll(4), []any{f32}, []string{"kernel Peek", "writes none"}},
		{"contexts", ct.SaxpyKernel, array.ForAll(4), []any{1, f32, o32}, []string{"parameter y []float32", "different Contexts"}},
		{"device", ct.SaxpyKernel, array.Launch(kernel.Config{Device: kernel.CPU()}), []any{1, f32, f32}, []string{"names a device"}},
		{"block", ct.SaxpyKernel, array.Launch(kernel.Launch1D(1, 2048)), []any{1, f32, f32}, []string{"kernel Saxpy", "block"}},
		{"forall", ct.SaxpyKernel, array.ForAll(-1), []any{1, f32, f32}, []string{"ForAll of -1 tasks"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := array.Call(tc.k, tc.g, tc.args...)
			require.NotEmpty(t, out)
			for _, a := range out {
				err := a.Err()
				require.Error(t, err)
				for _, w := range tc.want {
					require.ErrorContains(t, err, w)
				}
				require.ErrorContains(t, a.Eval(), tc.want[0])
			}
		})
	}
}

// Call adds a kernel call to the graph: the slice the kernel writes
// comes back as a new array, and the input y is unchanged.
func ExampleCall() {
	c := cpuContext()
	x := array.FromSlice(c, []float32{1, 2, 3, 4})
	y := array.FromSlice(c, []float32{10, 20, 30, 40})
	ys := array.Call(ct.SaxpyKernel, array.ForAll(4), 2, x.Mul(x), y)
	fmt.Println(ys[0])
	fmt.Println(ys[0].Sum())
	fmt.Println(y)
	// Output:
	// [12. 28. 48. 72.]
	// 160.0
	// [10. 20. 30. 40.]
}

// TestCallEmptyAndPartly checks calls over empty arrays (ForAll of no
// tasks launches nothing; an explicit launch runs with empty slices) and
// a call whose first output was evaluated before the second is asked
// for (the second plan runs the call again, the first output's slice in
// a scratch buffer).
func TestCallEmptyAndPartly(t *testing.T) {
	for name, c := range callBackends(t) {
		t.Run(name, func(t *testing.T) {
			e := c.Zeros(array.Float32, 0)
			defer e.Release()
			for _, g := range []array.Geometry{array.ForAll(0), array.Launch(kernel.Launch1D(1, 32))} {
				out := array.Call(ct.SaxpyKernel, g, 1, e, e)
				got, err := array.ToSlice[float32](out[0])
				require.NoError(t, err)
				require.Empty(t, got)
				out[0].Release()
			}

			x := array.FromSlice(c, []float64{1, -1, 5})
			defer x.Release()
			lo, hi := c.Zeros(array.Float64, 3), c.Zeros(array.Float64, 3)
			defer lo.Release()
			defer hi.Release()
			out := array.Call(ct.BoundsKernel, array.ForAll(3), x, lo, hi)
			defer out[0].Release()
			defer out[1].Release()
			gl, err := array.ToSlice[float64](out[0])
			require.NoError(t, err)
			require.Equal(t, []float64{0, -1, 0}, gl)
			sum := out[1].Add(out[0])
			defer sum.Release()
			gs, err := array.ToSlice[float64](sum)
			require.NoError(t, err)
			require.Equal(t, []float64{1, -1, 5}, gs)
		})
	}
}
