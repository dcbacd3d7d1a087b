// This file runs every test kernel of internal/testkernels two ways that
// must agree bit for bit: natively (the Go function on the CPU device,
// through the generated handle) and as compiled IR on the IR interpreter
// (Kernel.Interpret). Kernels that fail (out of range, division by zero)
// must fail both ways at the same source line. A third way, the PTX on
// the PTX simulator or a GPU, joins when those exist.

package gokernel_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/gokernel"
	tk "github.com/fuseflow/fuseflow/codegen/gokernel/internal/testkernels"
	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

var testPkg struct {
	once sync.Once
	pkg  *gokernel.Package
	err  error
}

// compiled returns the compiled kernel name of internal/testkernels (the
// package is compiled once per test binary).
func compiled(t *testing.T, name string) *gokernel.Kernel {
	t.Helper()
	testPkg.once.Do(func() {
		testPkg.pkg, testPkg.err = gokernel.Compile(".", "./internal/testkernels", gokernel.Options{})
	})
	require.NoError(t, testPkg.err)
	for _, k := range testPkg.pkg.Kernels {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// cloneArgs deep-copies the slices of args.
func cloneArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		v := reflect.ValueOf(a)
		if v.Kind() == reflect.Slice {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			out[i] = c.Interface()
		} else {
			out[i] = a
		}
	}
	return out
}

// agreeCase is one launch of one kernel.
type agreeCase struct {
	name   string
	handle *kernel.Kernel
	cfg    kernel.Config
	args   func(r *rand.Rand) []any
	// fails, when set, is the error both ways must return (a part of
	// the message), at the same source line.
	fails string
	// skip, when set, excuses element j of written parameter name.
	skip func(in []any, name string, j int) bool
}

// sameBits reports whether two values are equal, floats bit for bit
// (any NaN equals any NaN).
func sameBits(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if math.IsNaN(x) && math.IsNaN(y) {
			return true
		}
		if a.Kind() == reflect.Float32 {
			return math.Float32bits(float32(x)) == math.Float32bits(float32(y))
		}
		return math.Float64bits(x) == math.Float64bits(y)
	}
	return a.Interface() == b.Interface()
}

// runAgree runs c both ways on the same inputs and compares the written
// slices element by element.
func runAgree(t *testing.T, c agreeCase) {
	t.Helper()
	k := compiled(t, c.name)
	in := c.args(rand.New(rand.NewPCG(7, uint64(len(c.name)))))
	native, interp := cloneArgs(in), cloneArgs(in)
	nerr := c.handle.Launch(c.cfg, native...)
	ierr := k.Interpret(c.cfg, interp...)
	if c.fails != "" {
		require.Error(t, nerr, "native run of %s", c.name)
		require.Error(t, ierr, "IR run of %s", c.name)
		require.Contains(t, nerr.Error(), c.fails)
		require.Contains(t, ierr.Error(), c.fails)
		var ne, ie *kernel.LaunchError
		require.True(t, errors.As(nerr, &ne), "native: %v", nerr)
		require.True(t, errors.As(ierr, &ie), "IR: %v", ierr)
		require.Equal(t, lineOf(ne.Pos), lineOf(ie.Pos), "native %v, IR %v", nerr, ierr)
		return
	}
	require.NoError(t, nerr, "native run of %s", c.name)
	require.NoError(t, ierr, "IR run of %s", c.name)
	compareWritten(t, c, k, in, native, interp, "IR", sameBits)
}

// compareWritten compares the slices of k's written parameters in the
// native run's args with those of another run (named other), element by
// element with agree, except the elements c excuses; in is the inputs
// both started from.
func compareWritten(t *testing.T, c agreeCase, k *gokernel.Kernel, in, native, got []any, other string, agree func(a, b reflect.Value) bool) {
	t.Helper()
	for i, p := range k.Params {
		if !p.Written {
			continue
		}
		nv, gv := reflect.ValueOf(native[i]), reflect.ValueOf(got[i])
		for j := range nv.Len() {
			if c.skip != nil && c.skip(in, p.Name, j) {
				continue
			}
			if !agree(nv.Index(j), gv.Index(j)) {
				t.Fatalf("%s: %s[%d] native:%v %s:%v", c.name, p.Name, j, nv.Index(j), other, gv.Index(j))
			}
		}
	}
}

// lineOf returns "file.go:line" of "file.go:line[:col]".
func lineOf(pos string) string {
	parts := strings.Split(pos, ":")
	if len(parts) < 2 {
		return pos
	}
	return parts[0] + ":" + parts[1]
}

func f32s(r *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32((r.Float64() - 0.5) * scale)
	}
	return s
}

func f64s(r *rand.Rand, n int, scale float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = (r.Float64() - 0.5) * scale
	}
	return s
}

func i32s(r *rand.Rand, n int, lo, hi int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(lo + r.IntN(hi-lo))
	}
	return s
}

// specials are float inputs with every special value.
var specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3.5, math.Inf(1), math.Inf(-1), math.NaN(),
	1e-310, 1e300, -1e300, 700, -745, 1e-8, math.Pi, 1 << 40}

func agreeCases() []agreeCase {
	d1 := kernel.Launch1D
	return []agreeCase{
		{name: "Saxpy", handle: tk.SaxpyKernel, cfg: d1(8, 128), args: func(r *rand.Rand) []any {
			return []any{float32(1.5), f32s(r, 1000, 10), f32s(r, 1000, 10)}
		}},
		{name: "Daxpy", handle: tk.DaxpyKernel, cfg: d1(4, 64), args: func(r *rand.Rand) []any {
			return []any{-0.75, f64s(r, 3000, 4), f64s(r, 3000, 4)}
		}},
		{name: "Indices", handle: tk.IndicesKernel, cfg: kernel.Config{Grid: kernel.D3(2, 3, 2), Block: kernel.D3(4, 2, 3)}, args: func(*rand.Rand) []any {
			return []any{make([]int, 12*12*24)}
		}},
		{name: "Bools", handle: tk.BoolsKernel, cfg: d1(2, 128), args: func(r *rand.Rand) []any {
			in := make([]bool, 250)
			for i := range in {
				in[i] = r.IntN(2) == 1
			}
			return []any{true, in, 250, make([]bool, 250), make([]int32, 1)}
		}},
		{name: "IntArith", handle: tk.IntArithKernel, cfg: d1(3, 128), args: func(r *rand.Rand) []any {
			n := 300
			a, b := make([]int64, n), make([]int64, n)
			for i := range a {
				a[i] = r.Int64N(1<<62) - 1<<61
				b[i] = r.Int64N(1<<20) - 1<<19
				if i%5 == 0 {
					b[i] = int64(r.IntN(9) - 4)
				}
				if i%7 == 0 {
					a[i] = int64(r.Uint64() >> 1)
				}
			}
			return []any{a, b, make([]int64, 16*n), make([]int32, 16*n), make([]uint32, 16*n), make([]uint64, 16*n)}
		}},
		{name: "FloatArith", handle: tk.FloatArithKernel, cfg: d1(4, 64), args: func(r *rand.Rand) []any {
			n := 200
			a, b := f64s(r, n, 2000), f64s(r, n, 2000)
			for i := range specials {
				a[i], b[len(specials)+i] = specials[i], specials[i]
				b[2*len(specials)+i] = specials[len(specials)-1-i]
			}
			return []any{a, b, make([]float64, 24*n)}
		}},
		{name: "Control", handle: tk.ControlKernel, cfg: d1(4, 128), args: func(r *rand.Rand) []any {
			return []any{i32s(r, 97, -150, 150), make([]int64, 500)}
		}},
		{name: "Calls", handle: tk.CallsKernel, cfg: d1(2, 64), args: func(r *rand.Rand) []any {
			return []any{tk.Celsius(21.5), f32s(r, 40, 6), make([]float32, 100)}
		}},
		{name: "Locals", handle: tk.LocalsKernel, cfg: d1(2, 64), args: func(r *rand.Rand) []any {
			return []any{f32s(r, 110, 8), make([]float32, 1100)}
		}},
		{name: "Slices", handle: tk.SlicesKernel, cfg: d1(2, 32), args: func(r *rand.Rand) []any {
			return []any{i32s(r, 50, -99, 99), make([]int32, 200)}
		}},
		{name: "Math64", handle: tk.Math64Kernel, cfg: d1(3, 64), args: func(r *rand.Rand) []any {
			x := f64s(r, 180, 20)
			copy(x, specials)
			return []any{x, make([]float64, 30*180)}
		}, skip: func(in []any, _ string, j int) bool {
			// Go's math.Log on amd64 is off for subnormal arguments (the
			// assembly does not normalize them); the IR, like the GPU's
			// math library, is right. The native run is the Go code as is.
			x := in[0].([]float64)[j/30]
			return j%30 == 4 && x != 0 && math.Abs(x) < 0x1p-1022
		}},
		{name: "Math32", handle: tk.Math32Kernel, cfg: d1(3, 64), args: func(r *rand.Rand) []any {
			x := f32s(r, 180, 20)
			for i, s := range specials {
				x[i] = float32(s)
			}
			return []any{x, make([]float32, 24*180)}
		}},
		{name: "TiledMatMul", handle: tk.TiledMatMulKernel, cfg: kernel.Config{Grid: kernel.D2(3, 3), Block: kernel.D2(8, 8)}, args: func(r *rand.Rand) []any {
			n := 20
			return []any{f32s(r, n*n, 2), f32s(r, n*n, 2), make([]float32, n*n), n}
		}},
		{name: "BlockVotes", handle: tk.BlockVotesKernel, cfg: kernel.Config{Grid: kernel.D1(3), Block: kernel.D1(64), SharedBytes: 64*4 + 12}, args: func(r *rand.Rand) []any {
			return []any{i32s(r, 170, -4, 92), make([]int32, 12)}
		}},
		{name: "WarpOps", handle: tk.WarpOpsKernel, cfg: d1(2, 64), args: func(r *rand.Rand) []any {
			return []any{i32s(r, 128, -20, 20), make([]int64, 1280)}
		}},
		{name: "Histogram", handle: tk.HistogramKernel, cfg: d1(4, 64), args: func(r *rand.Rand) []any {
			return []any{i32s(r, 1000, 0, 1000), make([]uint32, 16)}
		}},
		{name: "Atomics", handle: tk.AtomicsKernel, cfg: d1(4, 64), args: func(*rand.Rand) []any {
			return []any{[]int32{0, 0, 100, 0, -1, 0, 0, 0}, []uint32{0, 0, 1 << 31, 0, 0, 0, 0},
				[]int64{0, math.MinInt64, 0, 0}, []uint64{0, math.MaxUint64, math.MaxUint64}, []int{0, 0, 0},
				[]float32{0, 10, 0}, []float64{0}}
		}},
		{name: "Unchecked", handle: tk.UncheckedKernel, cfg: d1(2, 64), args: func(r *rand.Rand) []any {
			return []any{float32(2), f32s(r, 100, 1), f32s(r, 100, 1)}
		}},
		{name: "OutOfRange", handle: tk.OutOfRangeKernel, cfg: d1(2, 64), fails: "index out of range", args: func(r *rand.Rand) []any {
			return []any{f32s(r, 100, 1), 5, make([]float32, 100)}
		}},
		{name: "Divide", handle: tk.DivideKernel, cfg: d1(1, 64), fails: "integer divide by zero", args: func(r *rand.Rand) []any {
			d := i32s(r, 50, 1, 9)
			d[37] = 0
			return []any{i32s(r, 50, -100, 100), d}
		}},
	}
}

func TestNativeAndIRAgree(t *testing.T) {
	for _, c := range agreeCases() {
		t.Run(c.name, func(t *testing.T) { runAgree(t, c) })
	}
}

// TestEveryTestKernelRuns checks that every kernel of the package has an
// agreement case.
func TestEveryTestKernelRuns(t *testing.T) {
	compiled(t, "Saxpy")
	have := map[string]bool{}
	for _, c := range agreeCases() {
		have[c.name] = true
	}
	for _, k := range testPkg.pkg.Kernels {
		require.True(t, have[k.Name], "kernel %s has no agreement case", k.Name)
	}
	require.Equal(t, fmt.Sprint(len(have)), fmt.Sprint(len(testPkg.pkg.Kernels)))
}
