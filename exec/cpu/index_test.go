// Index kernels against the reference evaluator on sizes that take every
// parallel path (many gather tasks, ownership by outer rows and by axis
// ranges, per-worker partial sums, multi-chunk compaction), on 1 and 4
// workers, and their errors.

package cpu_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
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
	for _, tc := range indexCases {
		for _, workers := range []int{1, 4} {
			t.Run(tc.name, func(t *testing.T) {
				rc := array.MustContext(array.WithBackend(ref.New()))
				cc := array.MustContext(array.WithBackend(cpu.New(cpu.Options{Workers: workers})))
				want := tc.build(rc, rand.New(rand.NewPCG(1, 2))).AsType(array.Float64)
				got := tc.build(cc, rand.New(rand.NewPCG(1, 2))).AsType(array.Float64)
				wv, err := array.ToSlice[float64](want)
				if err != nil {
					t.Fatalf("ref: %v", err)
				}
				gv, err := array.ToSlice[float64](got)
				if err != nil {
					t.Fatalf("cpu, %d workers: %v", workers, err)
				}
				if !got.Shape().Equal(want.Shape()) {
					t.Fatalf("shape got:%v want:%v", got.Shape(), want.Shape())
				}
				kept = nil
				for i := range wv {
					if gv[i] != wv[i] && (gv[i] == gv[i] || wv[i] == wv[i]) {
						t.Fatalf("%d workers: element %d got:%v want:%v", workers, i, gv[i], wv[i])
					}
				}
			})
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
