// Index kernels against the reference evaluator on sizes that take every
// parallel path (many gather tasks, ownership by outer rows and by axis
// ranges, per-worker partial sums, multi-chunk compaction), on 1 and 4
// workers, and their errors; random graphs with the indexing ops; and
// gathers fused into Map and Reduce kernels: epilogues, reductions of
// gathered values, broadcasting, transposed reads and results, negative
// indices and every index dtype, on 1 and 4 workers with chunks small
// enough that every kernel runs in many, and the error of the first bad
// index, wherever it lies.

package cpu_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// indexCase builds one indexing expression in c from the same seeded
// data on every call.
type indexCase struct {
	name  string
	build func(c *array.Context, r *rand.Rand) *array.Array
}

// kept holds the input Arrays of the case being run: an input Array the
// program forgets may be released before the expression is evaluated.
var kept []*array.Array

// from is array.FromSlice, kept alive until the case ends.
func from[T array.Number](c *array.Context, v []T, shape ...int) *array.Array {
	a := array.FromSlice(c, v, shape...)
	kept = append(kept, a)
	return a
}

func randInts(r *rand.Rand, n, lo, hi int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(lo + r.IntN(hi-lo))
	}
	return v
}

func randFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.IntN(200) - 100) // integral: sums are exact in any order
	}
	return v
}

var indexCases = []indexCase{
	{"take/flat/large", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 5000), 5000)
		return x.Mul(2).Take(from(c, randInts(r, 100000, -5000, 5000), 100000), 0).Add(1)
	}},
	{"take/rows/int32idx", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 300*70), 300, 70)
		idx := from(c, randInts(r, 900, -70, 70), 900).AsType(array.Int32)
		return x.Take(idx, 1)
	}},
	{"take/outer/bool", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 64*50*3), 64, 50, 3).Gt(0)
		return x.Take(from(c, randInts(r, 700, 0, 50), 700), 1)
	}},
	{"takealong/large", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 400*300), 400, 300).AsType(array.Float64)
		return x.TakeAlongAxis(from(c, randInts(r, 400*300, -300, 300), 400, 300), 1)
	}},
	{"mask/large", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 200000), 1000, 200)
		return x.Mask(x.Gt(10)).Mul(3)
	}},
	{"nonzero/large", func(c *array.Context, r *rand.Rand) *array.Array {
		return from(c, randInts(r, 150000, -1, 2), 500, 300).Nonzero()[1]
	}},
	{"put/dups", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 100000), 100000)
		idx := from(c, randInts(r, 200000, -1000, 1000), 200000)
		return x.Put(idx, c.Arange(array.Float32, 200000))
	}},
	{"set/outer", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randInts(r, 64*300, 0, 9), 64, 300)
		return x.Set(from(c, randInts(r, 2000, -300, 300), 2000), c.Arange(array.Int64, 2000), 1)
	}},
	{"scatteradd/bincount", func(c *array.Context, r *rand.Rand) *array.Array {
		return array.Bincount(from(c, randInts(r, 300000, 0, 300), 300000), nil, 0)
	}},
	{"scatteradd/weights", func(c *array.Context, r *rand.Rand) *array.Array {
		w := from(c, randFloats(r, 300000), 300000)
		return array.Bincount(from(c, randInts(r, 300000, 0, 70), 300000), w, 100)
	}},
	{"scatteradd/owned", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 100000), 100000)
		return x.ScatterAdd(from(c, randInts(r, 120000, -100000, 100000), 120000), 1.5, 0)
	}},
	{"scatteradd/inner", func(c *array.Context, r *rand.Rand) *array.Array {
		x := c.Zeros(array.Int32, 40, 30)
		return x.ScatterAdd(from(c, randInts(r, 5000, 0, 40), 5000), 1, 0)
	}},
	{"scattermax/owned", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 500), 500)
		return x.ScatterMax(from(c, randInts(r, 100000, 0, 500), 100000), from(c, randFloats(r, 100000), 100000), 0)
	}},
	{"histogram", func(c *array.Context, r *rand.Rand) *array.Array {
		h, _ := from(c, randFloats(r, 200000), 200000).Mul(0.37).Histogram(37, -30, 30)
		return h
	}},
}

func TestIndexAgainstRef(t *testing.T) {
	checkIndexCases(t, indexCases, []cpu.Options{{Workers: 1}, {Workers: 4}})
}

// checkIndexCases builds every case on the reference and on a CPU
// backend of each options and requires the same elements (NaN where the
// reference has NaN).
func checkIndexCases(t *testing.T, cases []indexCase, opts []cpu.Options) {
	for _, tc := range cases {
		for _, o := range opts {
			t.Run(tc.name, func(t *testing.T) {
				rc := array.MustContext(array.WithBackend(ref.New()))
				cc := array.MustContext(array.WithBackend(cpu.New(o)))
				want := tc.build(rc, rand.New(rand.NewPCG(1, 2))).AsType(array.Float64)
				got := tc.build(cc, rand.New(rand.NewPCG(1, 2))).AsType(array.Float64)
				wv, err := array.ToSlice[float64](want)
				if err != nil {
					t.Fatalf("ref: %v", err)
				}
				gv, err := array.ToSlice[float64](got)
				if err != nil {
					t.Fatalf("cpu %+v: %v", o, err)
				}
				kept = nil
				if !got.Shape().Equal(want.Shape()) {
					t.Fatalf("shape got:%v want:%v", got.Shape(), want.Shape())
				}
				for i := range wv {
					if gv[i] != wv[i] && (gv[i] == gv[i] || wv[i] == wv[i]) {
						t.Fatalf("%+v: element %d got:%v want:%v", o, i, gv[i], wv[i])
					}
				}
			})
		}
	}
}

// TestDifferentialIndexing runs random graphs with the indexing ops
// (randgraph Config.Indexing) on 1 and 3 workers.
func TestDifferentialIndexing(t *testing.T) {
	for _, w := range []int{1, 3} {
		be := cpu.New(cpu.Options{Workers: w})
		for seed := range uint64(150) {
			differential(t, be, 7000+seed, randgraph.Config{Indexing: true})
		}
	}
}

func TestIndexOutOfRangeCPU(t *testing.T) {
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{Workers: 4})))
	big := make([]int64, 200000)
	big[150001] = 9 // the only bad index, in a late task
	big[190000] = -11
	x := c.Arange(array.Float32, 9)
	cases := []struct {
		name string
		a    *array.Array
		want string
	}{
		{"take", x.Take(from(c, big, len(big)), 0), "Take: index 9 is out of bounds for axis 0 with size 9"},
		{"takealong", x.Reshape(3, 3).TakeAlongAxis(from(c, []int64{0, 1, -4}, 1, 3), 0), "TakeAlongAxis: index -4 is out of bounds for axis 0 with size 3"},
		{"put", x.Put(from(c, big, len(big)), 1), "Scatter: index 9 is out of bounds for axis 0 with size 9"},
		{"scatteradd", x.ScatterAdd(from(c, big, len(big)), 1, 0), "ScatterAdd: index 9 is out of bounds for axis 0 with size 9"},
		{"scatteradd/owned", c.Zeros(array.Float32, 100000).ScatterAdd(from(c, []int64{5, 100000}, 2), 1, 0), "ScatterAdd: index 100000 is out of bounds for axis 0 with size 100000"},
		{"scattermax", x.ScatterMax(from(c, big, len(big)), 1, 0), "ScatterMax: index 9 is out of bounds for axis 0 with size 9"},
	}
	for _, tc := range cases {
		err := tc.a.Eval()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got:%v want:%s", tc.name, err, tc.want)
		}
	}
}

var indexDTypes = []array.DType{array.Int8, array.Int16, array.Int32, array.Int64, array.Uint8, array.Uint16, array.Uint32, array.Uint64}

var fusedGatherCases = []indexCase{
	{"take_mul_add", func(c *array.Context, r *rand.Rand) *array.Array {
		x, y := from(c, randFloats(r, 50*7), 50, 7), from(c, randFloats(r, 300*7), 300, 7)
		return x.Take(from(c, randInts(r, 300, -50, 50), 300), 0).Mul(2).Add(y)
	}},
	{"take_sum_rows", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 40*60), 40, 60)
		return x.Take(from(c, randInts(r, 90, -60, 60), 90), 1).Sum(1)
	}},
	{"takealong_sum_cols", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 70*30), 70, 30)
		return x.TakeAlongAxis(from(c, randInts(r, 50*30, -70, 70), 50, 30), 0).Sum(0)
	}},
	{"take_max_middle", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 9*20*11), 9, 20, 11).AsType(array.Float64)
		return x.Take(from(c, randInts(r, 6*5, -20, 20), 6, 5), 1).Max(1, 2)
	}},
	{"take_broadcast_transposed", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 80*9), 80, 9).Transpose()
		z := from(c, randFloats(r, 5*9*40), 5, 40, 9)
		return x.Take(from(c, randInts(r, 40, -80, 80), 40), 1).Transpose().Sub(z)
	}},
	{"take_index_prologue", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 64), 64)
		idx := from(c, randInts(r, 500, 0, 42), 500).Mul(3).Sub(64)
		return x.Take(idx, 0).Abs()
	}},
	{"take_bool_any", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 30*40), 30, 40).Gt(50)
		return x.Take(from(c, randInts(r, 100, 0, 40), 100), 1).Any(1)
	}},
	{"take_of_take", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 100), 100)
		return x.Take(from(c, randInts(r, 70, -100, 100), 70), 0).Take(from(c, randInts(r, 400, -70, 70), 400), 0).Add(1)
	}},
	{"take_long_rows", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 30*300), 30, 300)
		idx := randInts(r, 40, -30, 30)
		idx[5], idx[6] = idx[4], idx[4]
		return x.Take(from(c, idx, 40), 0).Mul(2)
	}},
	{"take_scalar_index", func(c *array.Context, r *rand.Rand) *array.Array {
		x := from(c, randFloats(r, 30*40), 30, 40)
		return x.Take(from(c, []int64{-3}), 1).Mul(x.Take(from(c, []int64{7}), 1))
	}},
}

func init() {
	for _, d := range indexDTypes {
		fusedGatherCases = append(fusedGatherCases, indexCase{"take_add/" + d.String(), func(c *array.Context, r *rand.Rand) *array.Array {
			x := from(c, randFloats(r, 100*3), 100, 3)
			lo := -100
			if strings.HasPrefix(d.String(), "uint") {
				lo = 0
			}
			return x.Take(from(c, randInts(r, 2000, lo, 100), 2000).AsType(d), 0).Add(1).Sum(1)
		}})
	}
}

func TestFusedGatherAgainstRef(t *testing.T) {
	checkIndexCases(t, fusedGatherCases, []cpu.Options{{Workers: 1}, {Workers: 4, Chunk: 64}})
}

// TestFusedGatherErrors checks that a fused gather reports the first bad
// index in row-major order of its result, as the reference does, when
// bad indices lie in several chunks and workers and the kernel visits
// the result in another order.
func TestFusedGatherErrors(t *testing.T) {
	idx := make([]int64, 3000)
	idx[2900] = -41 // bad, in a late chunk
	idx[1700] = 40  // the first bad one
	idx[2999] = 99
	cases := []struct {
		name  string
		build func(c *array.Context) *array.Array
		want  string
	}{
		{"map", func(c *array.Context) *array.Array {
			return c.Arange(array.Float32, 40).Take(from(c, idx, 3000), 0).Mul(2)
		}, "Take: index 40 is out of bounds for axis 0 with size 40"},
		{"transposed", func(c *array.Context) *array.Array {
			x := c.Arange(array.Float32, 40*3).Reshape(40, 3)
			return x.Take(from(c, idx, 30, 100), 0).Transpose().Add(1)
		}, "Take: index 40 is out of bounds for axis 0 with size 40"},
		{"column reduce", func(c *array.Context) *array.Array {
			x := c.Arange(array.Float32, 5*40).Reshape(5, 40)
			return x.Take(from(c, idx, 3000), 1).Sum(0)
		}, "Take: index 40 is out of bounds for axis 1 with size 40"},
		{"takealong rows", func(c *array.Context) *array.Array {
			x := c.Arange(array.Float32, 30*40).Reshape(30, 40)
			return x.TakeAlongAxis(from(c, idx, 30, 100), 1).Max(1)
		}, "TakeAlongAxis: index 40 is out of bounds for axis 1 with size 40"},
		{"whole rows", func(c *array.Context) *array.Array {
			x := c.Arange(array.Float32, 40*300).Reshape(40, 300)
			return x.Take(from(c, idx, 3000), 0).Mul(2)
		}, "Take: index 40 is out of bounds for axis 0 with size 40"},
		{"int8", func(c *array.Context) *array.Array {
			return c.Arange(array.Float32, 40).Take(from(c, idx, 3000).AsType(array.Int8), 0).Sum()
		}, "Take: index 40 is out of bounds for axis 0 with size 40"},
	}
	for _, tc := range cases {
		for _, be := range []string{"ref", "cpu"} {
			c := array.MustContext(array.WithBackend(ref.New()))
			if be == "cpu" {
				c = array.MustContext(array.WithBackend(cpu.New(cpu.Options{Workers: 4, Chunk: 256})))
			}
			err := tc.build(c).Eval()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s on %s: got:%v want:%s", tc.name, be, err, tc.want)
			}
		}
	}
	kept = nil
}
