// Products against the naive reference over shapes, transposes, strides,
// offsets, batches, kernels and worker counts; determinism, NaN and
// infinities, the epilogue's contract, errors.

package gemm_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/fuseflow/fuseflow/internal/gemm"
)

// prod is one batched product to test.
type prod struct {
	m, n, k          int
	ta, tb           bool
	padA, padB, padC int // strides beyond the stored row length
	batch            int
	bcastA, bcastB   bool // stride 0 over the batch
	offsets          bool // through Batch.Offsets, points in reverse
	accumulate       bool
}

func (p prod) String() string {
	return fmt.Sprintf("%dx%dx%d ta=%v tb=%v pad=%d,%d,%d batch=%d bcast=%v,%v offs=%v acc=%v",
		p.m, p.n, p.k, p.ta, p.tb, p.padA, p.padB, p.padC, p.batch, p.bcastA, p.bcastB, p.offsets, p.accumulate)
}

// setup builds p's operands (with a leading gap of 3 elements before the
// first matrix of each) and C's initial contents.
type setup[T gemm.Float] struct {
	a, b             gemm.Matrix[T]
	c                []T
	ldc              int
	bt               gemm.Batch
	offA, offB, offC []int
}

func build[T gemm.Float](p prod, seed uint64) *setup[T] {
	r := rand.New(rand.NewPCG(seed, 7))
	s := &setup[T]{ldc: max(1, p.n) + p.padC}
	nb := max(1, p.batch)
	strideA := extent(p.m, p.k, max(1, pick(p.ta, p.m, p.k))+p.padA, p.ta) + 5
	strideB := extent(p.k, p.n, max(1, pick(p.tb, p.k, p.n))+p.padB, p.tb) + 2
	strideC := extent(p.m, p.n, s.ldc, false) + 1
	if p.bcastA {
		strideA = 0
	}
	if p.bcastB {
		strideB = 0
	}
	da := make([]T, 3+strideA*nb+extent(p.m, p.k, max(1, pick(p.ta, p.m, p.k))+p.padA, p.ta))
	db := make([]T, 3+strideB*nb+extent(p.k, p.n, max(1, pick(p.tb, p.k, p.n))+p.padB, p.tb))
	s.c = make([]T, 3+strideC*nb)
	for i := range nb {
		pt := i
		if p.offsets {
			pt = nb - 1 - i
		}
		s.offA = append(s.offA, 3+pt*strideA)
		s.offB = append(s.offB, 3+pt*strideB)
		s.offC = append(s.offC, 3+pt*strideC)
	}
	// Fill every point's matrices (broadcast ones once); the rest is NaN.
	for i := range da {
		da[i] = T(math.NaN())
	}
	for i := range db {
		db[i] = T(math.NaN())
	}
	s.a = fill(r, p.m, p.k, p.padA, p.ta, da, s.offA)
	s.b = fill(r, p.k, p.n, p.padB, p.tb, db, s.offB)
	for i := range s.c {
		s.c[i] = T(r.Float64())
	}
	if p.offsets {
		s.bt = gemm.Batch{Count: p.batch, Offsets: func(i int) (int, int, int) { return s.offA[i], s.offB[i], s.offC[i] }}
	} else {
		s.bt = gemm.Batch{Count: p.batch, StrideA: strideA, StrideB: strideB, StrideC: strideC}
		for i := range nb {
			s.offA[i], s.offB[i], s.offC[i] = 3+i*strideA, 3+i*strideB, 3+i*strideC
		}
		s.a.Data, s.b.Data, s.c = s.a.Data[3:], s.b.Data[3:], s.c[3:]
		for i := range nb {
			s.offA[i] -= 3
			s.offB[i] -= 3
			s.offC[i] -= 3
		}
	}
	return s
}

func pick(trans bool, rows, cols int) int {
	if trans {
		return rows
	}
	return cols
}

// fill writes random values into the rows×cols matrices at offs of data
// (NaN elsewhere) and returns the operand.
func fill[T gemm.Float](r *rand.Rand, rows, cols, pad int, trans bool, data []T, offs []int) gemm.Matrix[T] {
	sr, sc := rows, cols
	if trans {
		sr, sc = cols, rows
	}
	stride := max(1, sc) + pad
	for _, off := range offs {
		for i := range sr {
			for j := range sc {
				data[off+i*stride+j] = T(r.Float64()*2 - 1)
			}
		}
	}
	return gemm.Matrix[T]{Data: data, Stride: stride, Trans: trans}
}

// check runs p with o and compares every point with the reference; C
// outside the points' matrices must keep its values.
func check[T gemm.Float](t *testing.T, p prod, o *gemm.Options[T], seed uint64) []T {
	t.Helper()
	return run(t, p, o, seed, true)
}

// run runs p with o and returns C, compared with the reference when
// compare is set.
func run[T gemm.Float](t *testing.T, p prod, o *gemm.Options[T], seed uint64, compare bool) []T {
	t.Helper()
	s := build[T](p, seed)
	before := slices.Clone(s.c)
	var err error
	if p.batch == 0 {
		err = gemm.Mul(p.m, p.n, p.k, s.a, s.b, s.c, s.ldc, o)
		s.offA, s.offB, s.offC = s.offA[:1], s.offB[:1], s.offC[:1]
	} else {
		err = gemm.MulBatch(p.m, p.n, p.k, s.a, s.b, s.c, s.ldc, s.bt, o)
	}
	if err != nil {
		t.Fatalf("%v: %v", p, err)
	}
	if !compare {
		return s.c
	}
	inside := make([]bool, len(s.c))
	for pt := range s.offC {
		want, scale := naive(p.m, p.n, p.k, s.a, s.offA[pt], s.b, s.offB[pt])
		for i := range p.m {
			for j := range p.n {
				x := s.offC[pt] + i*s.ldc + j
				inside[x] = true
				if o != nil && o.Accumulate {
					want[i*p.n+j] += float64(before[x])
					scale[i*p.n+j] += math.Abs(float64(before[x]))
				}
			}
		}
		if err := agree(p.m, p.n, p.k, s.c, s.offC[pt], s.ldc, want, scale); err != nil {
			t.Fatalf("%v kernel %s point %d: %v", p, gemm.Kernel(o), pt, err)
		}
	}
	for x := range s.c {
		if !inside[x] && math.Float64bits(float64(s.c[x])) != math.Float64bits(float64(before[x])) {
			t.Fatalf("%v: element %d outside C changed: got:%v want:%v", p, x, s.c[x], before[x])
		}
	}
	return s.c
}

// shapes covers single elements and vectors, sizes around the kernels'
// tiles (4, 6, 12 rows; 4, 8, 16, 32 columns), depths around the
// unrolling and the pass depth, and a few larger products.
func shapes() [][3]int {
	s := [][3]int{
		{1, 1, 1}, {1, 1, 9}, {1, 37, 5}, {41, 1, 6}, {5, 7, 1}, {3, 5, 7}, {7, 5, 3},
		{4, 4, 4}, {6, 8, 3}, {12, 32, 4}, {11, 31, 5}, {13, 33, 8}, {12, 16, 17}, {24, 64, 2},
		{25, 65, 33}, {2, 100, 70}, {100, 2, 70}, {64, 64, 64},
	}
	if !raceOn {
		s = append(s, [3]int{129, 130, 131}, [3]int{200, 100, 700}, [3]int{37, 800, 90})
	}
	return s
}

// forKernels runs fn for each kernel family and each path (packed
// operands or read in place).
func forKernels[T gemm.Float](t *testing.T, fn func(t *testing.T, kern string)) {
	for _, path := range gemm.Paths {
		for _, kern := range gemm.Kernels[T]() {
			t.Run(path+"/"+kern, func(t *testing.T) {
				defer gemm.SetPath(path)()
				fn(t, kern)
			})
		}
	}
}

func testShapes[T gemm.Float](t *testing.T) {
	forKernels[T](t, func(t *testing.T, kern string) {
		for i, sh := range shapes() {
			for tr := range 4 {
				if sh[0]*sh[1]*sh[2] > 1<<20 && tr != i%4 {
					continue // one layout for the large ones
				}
				p := prod{m: sh[0], n: sh[1], k: sh[2], ta: tr&1 != 0, tb: tr&2 != 0, padA: i % 3, padB: (i + tr) % 2, padC: tr % 2}
				o := &gemm.Options[T]{}
				gemm.SetKernel(o, kern)
				check(t, p, o, uint64(i))
			}
		}
	})
}

func TestShapesF32(t *testing.T) { testShapes[float32](t) }
func TestShapesF64(t *testing.T) { testShapes[float64](t) }

// Tiny blocks make small products cross every boundary of the loop nest
// (passes over k, shared blocks of rows and columns, task columns).
func testBlocks[T gemm.Float](t *testing.T) {
	defer gemm.SetSmallBlocks()()
	forKernels[T](t, func(t *testing.T, kern string) {
		for i, sh := range [][3]int{{1, 1, 1}, {3, 5, 7}, {50, 150, 30}, {37, 70, 15}, {100, 40, 8}} {
			for _, w := range []int{1, 3} {
				for _, acc := range []bool{false, true} {
					p := prod{m: sh[0], n: sh[1], k: sh[2], ta: i%2 == 1, tb: i%3 == 1, padA: 1, accumulate: acc}
					o := &gemm.Options[T]{Workers: w, Accumulate: acc}
					gemm.SetKernel(o, kern)
					check(t, p, o, uint64(i))
				}
			}
		}
	})
}

func TestBlocksF32(t *testing.T) { testBlocks[float32](t) }
func TestBlocksF64(t *testing.T) { testBlocks[float64](t) }

func testBatches[T gemm.Float](t *testing.T) {
	forKernels[T](t, func(t *testing.T, kern string) {
		for i, p := range batchCases() {
			for _, w := range []int{1, 2, 4} {
				o := &gemm.Options[T]{Workers: w, Accumulate: p.accumulate}
				gemm.SetKernel(o, kern)
				check(t, p, o, uint64(i))
			}
		}
	})
}

// batchCases are the batched products (the larger ones without the race
// detector).
func batchCases() []prod {
	ps := []prod{
		{m: 5, n: 7, k: 3, batch: 1},
		{m: 5, n: 7, k: 3, batch: 6, padA: 1},
		{m: 13, n: 17, k: 9, batch: 5, bcastA: true, tb: true},
		{m: 13, n: 17, k: 9, batch: 5, bcastB: true, ta: true, padC: 2},
		{m: 20, n: 33, k: 40, batch: 4, offsets: true, accumulate: true},
		{m: 1, n: 1, k: 1, batch: 9, offsets: true},
		{m: 7, n: 9, k: 0, batch: 3},
	}
	if !raceOn {
		ps = append(ps, prod{m: 90, n: 70, k: 100, batch: 3, bcastB: true})
	}
	return ps
}

func TestBatchesF32(t *testing.T) { testBatches[float32](t) }
func TestBatchesF64(t *testing.T) { testBatches[float64](t) }

// The result is the same bits whatever the worker count and whether the
// operands are packed or read in place.
func testDeterminism[T gemm.Float](t *testing.T) {
	shapes := []prod{{m: 130, n: 270, k: 400}, {m: 64, n: 64, k: 64, batch: 9}, {m: 1000, n: 40, k: 30, tb: true}, {m: 50, n: 90, k: 700, ta: true}}
	if raceOn {
		shapes = []prod{{m: 70, n: 150, k: 40}, {m: 30, n: 20, k: 10, batch: 5}}
	}
	for _, kern := range gemm.Kernels[T]() {
		for i, p := range shapes {
			var first []T
			for _, path := range gemm.Paths {
				undo := gemm.SetPath(path)
				for w := 1; w <= 4; w++ {
					o := &gemm.Options[T]{Workers: w}
					gemm.SetKernel(o, kern)
					c := run(t, p, o, uint64(i), first == nil)
					if first == nil {
						first = c
						continue
					}
					for x := range c {
						if math.Float64bits(float64(c[x])) != math.Float64bits(float64(first[x])) {
							t.Fatalf("%s %v: %s, %d workers: element %d got:%v want:%v (packed, 1 worker)", kern, p, path, w, x, c[x], first[x])
						}
					}
				}
				undo()
			}
		}
	}
}

func TestDeterminismF32(t *testing.T) { testDeterminism[float32](t) }
func TestDeterminismF64(t *testing.T) { testDeterminism[float64](t) }

// 0·NaN, 0·Inf and Inf-Inf make NaN, NaN stays NaN, an infinity times a
// finite value stays infinite: every product is computed, as in the
// definition.
func testNonFinite[T gemm.Float](t *testing.T) {
	inf, nan := T(math.Inf(1)), T(math.NaN())
	forKernels[T](t, func(t *testing.T, kern string) {
		for _, sh := range [][3]int{{2, 2, 2}, {13, 35, 9}, {40, 70, 20}} {
			m, n, k := sh[0], sh[1], sh[2]
			r := rand.New(rand.NewPCG(uint64(m), 1))
			a, b := make([]T, m*k), make([]T, k*n)
			for i := range a {
				a[i] = T(r.IntN(3)) // zeros among small integers
			}
			for i := range b {
				b[i] = T(r.IntN(3))
			}
			a[0], b[1] = nan, inf                   // C[0][*] NaN; C[*][1] has 0·Inf where A is 0
			a[(m-1)*k+k-1], b[(k-1)*n] = inf, -inf  // C[m-1][0] Inf·-Inf
			b[(k/2)*n+n-1] = nan                    // column n-1 NaN
			a[(m/2)*k+k/2], b[(k/2)*n+n/2] = 0, inf // 0·Inf at (m/2, n/2)
			ma, mb := gemm.Matrix[T]{Data: a, Stride: k}, gemm.Matrix[T]{Data: b, Stride: n}
			want, scale := naive(m, n, k, ma, 0, mb, 0)
			c := make([]T, m*n)
			o := &gemm.Options[T]{}
			gemm.SetKernel(o, kern)
			if err := gemm.Mul(m, n, k, ma, mb, c, n, o); err != nil {
				t.Fatal(err)
			}
			if !math.IsNaN(want[(m/2)*n+n/2]) || !math.IsNaN(want[0]) {
				t.Fatalf("%v: the reference lost a NaN", sh)
			}
			if err := agree(m, n, k, c, 0, n, want, scale); err != nil {
				t.Fatalf("%v: %v", sh, err)
			}
		}
	})
}

func TestNonFiniteF32(t *testing.T) { testNonFinite[float32](t) }
func TestNonFiniteF64(t *testing.T) { testNonFinite[float64](t) }

// With k == 0 the product is zero (C unchanged with Accumulate), and the
// epilogue still runs on every element.
func TestEmptyK(t *testing.T) {
	for _, acc := range []bool{false, true} {
		c := []float32{1, 2, 3, 4, 5, 6, -1}
		o := &gemm.Options[float32]{Accumulate: acc, Epilogue: func(tl gemm.Tile[float32]) {
			for r := range tl.Rows {
				for x := range tl.Cols {
					tl.Data[r*tl.Stride+x] += 10
				}
			}
		}}
		if err := gemm.Mul(2, 3, 0, gemm.Matrix[float32]{Stride: 1}, gemm.Matrix[float32]{Stride: 3}, c, 3, o); err != nil {
			t.Fatal(err)
		}
		want := []float32{10, 10, 10, 10, 10, 10, -1}
		if acc {
			want = []float32{11, 12, 13, 14, 15, 16, -1}
		}
		if !slices.Equal(c, want) {
			t.Fatalf("accumulate=%v: got:%v want:%v", acc, c, want)
		}
	}
}

// The epilogue gets a partition of C: every element once, in bounds,
// holding the product's final value; what it writes is the result.
func testEpilogue[T gemm.Float](t *testing.T) {
	cases := []prod{{m: 1, n: 1, k: 1}, {m: 37, n: 90, k: 50, batch: 3}, {m: 200, n: 700, k: 400}, {m: 50, n: 30, k: 1000, batch: 7}}
	if raceOn {
		cases = cases[:2]
	}
	forKernels[T](t, func(t *testing.T, kern string) {
		for i, p := range cases {
			for _, w := range []int{1, 3} {
				s := build[T](p, uint64(i))
				raw := slices.Clone(s.c)
				o := &gemm.Options[T]{Workers: w}
				gemm.SetKernel(o, kern)
				nb := max(1, p.batch)
				bt := s.bt
				if p.batch == 0 {
					bt = gemm.Batch{Count: 1}
				}
				if err := gemm.MulBatch(p.m, p.n, p.k, s.a, s.b, raw, s.ldc, bt, o); err != nil {
					t.Fatal(err)
				}
				seen := make([]int, nb*p.m*p.n)
				var mu sync.Mutex
				busy := make([]bool, w)
				o.Epilogue = func(tl gemm.Tile[T]) {
					mu.Lock()
					if tl.Worker < 0 || tl.Worker >= w || busy[tl.Worker] {
						t.Errorf("worker %d of %d busy or out of range", tl.Worker, w)
					}
					busy[tl.Worker] = true
					mu.Unlock()
					if tl.Row < 0 || tl.Col < 0 || tl.Rows < 1 || tl.Cols < 1 || tl.Row+tl.Rows > p.m || tl.Col+tl.Cols > p.n || tl.Stride != s.ldc {
						t.Errorf("tile %+v outside %dx%d", tl, p.m, p.n)
					}
					for r := range tl.Rows {
						for x := range tl.Cols {
							v := &tl.Data[r*tl.Stride+x]
							if g, want := *v, raw[s.offC[tl.Batch]+(tl.Row+r)*s.ldc+tl.Col+x]; g != want {
								t.Errorf("tile value got:%v want:%v", g, want)
							}
							*v = 2**v + 1
							mu.Lock()
							seen[(tl.Batch*p.m+tl.Row+r)*p.n+tl.Col+x]++
							mu.Unlock()
						}
					}
					mu.Lock()
					busy[tl.Worker] = false
					mu.Unlock()
				}
				if err := gemm.MulBatch(p.m, p.n, p.k, s.a, s.b, s.c, s.ldc, bt, o); err != nil {
					t.Fatal(err)
				}
				for x, v := range seen {
					if v != 1 {
						t.Fatalf("%v: element %d seen %d times", p, x, v)
					}
				}
				for pt := range nb {
					for r := range p.m {
						for x := range p.n {
							e := s.offC[pt] + r*s.ldc + x
							if g, want := s.c[e], 2*raw[e]+1; g != want {
								t.Fatalf("%v: (%d,%d,%d) got:%v want:%v", p, pt, r, x, g, want)
							}
						}
					}
				}
			}
		}
	})
}

func TestEpilogueF32(t *testing.T) { testEpilogue[float32](t) }
func TestEpilogueF64(t *testing.T) { testEpilogue[float64](t) }

// A caller's Runner runs the tasks; its error stops the product, and a
// worker number out of range is an error, not a crash.
func TestRunner(t *testing.T) {
	p := prod{m: 120, n: 300, k: 200, batch: 3}
	if raceOn {
		p = prod{m: 60, n: 200, k: 70, batch: 3} // still 3 workers a point
	}
	calls := 0
	o := &gemm.Options[float64]{Workers: 3, Run: func(tasks int, fn func(w, t int)) error {
		calls++
		var wg sync.WaitGroup
		for w := range 3 {
			wg.Go(func() {
				for t := w; t < tasks; t += 3 {
					fn(w, t)
				}
			})
		}
		wg.Wait()
		return nil
	}}
	check(t, p, o, 1)
	if calls == 0 {
		t.Fatalf("Runner calls got:%d want:>0", calls)
	}
	s := build[float64](p, 1)
	stop := errors.New("stopped")
	o.Run = func(int, func(int, int)) error { return stop }
	if err := gemm.MulBatch(p.m, p.n, p.k, s.a, s.b, s.c, s.ldc, s.bt, o); !errors.Is(err, stop) {
		t.Fatalf("got:%v want:%v", err, stop)
	}
	o.Run = func(tasks int, fn func(int, int)) error {
		for t := range tasks {
			fn(7, t)
		}
		return nil
	}
	if err := gemm.MulBatch(p.m, p.n, p.k, s.a, s.b, s.c, s.ldc, s.bt, o); err == nil {
		t.Fatalf("worker 7 of 3: got:nil want:an error")
	}
}

func TestErrors(t *testing.T) {
	a := gemm.Matrix[float32]{Data: make([]float32, 6), Stride: 3}
	b := gemm.Matrix[float32]{Data: make([]float32, 12), Stride: 4}
	c := make([]float32, 8)
	run := func(*gemm.Options[float32]) {}
	for _, tc := range []struct {
		name string
		err  func() error
	}{
		{"negative", func() error { return gemm.Mul(-1, 4, 3, a, b, c, 4, nil) }},
		{"A stride", func() error { return gemm.Mul(2, 4, 3, gemm.Matrix[float32]{Data: a.Data, Stride: 2}, b, c, 4, nil) }},
		{"A trans stride", func() error {
			return gemm.Mul(2, 4, 3, gemm.Matrix[float32]{Data: a.Data, Stride: 1, Trans: true}, b, c, 4, nil)
		}},
		{"A short", func() error { return gemm.Mul(3, 4, 3, a, b, make([]float32, 12), 4, nil) }},
		{"B short", func() error {
			return gemm.Mul(2, 4, 4, gemm.Matrix[float32]{Data: make([]float32, 8), Stride: 4}, b, c, 4, nil)
		}},
		{"C stride", func() error { return gemm.Mul(2, 4, 3, a, b, c, 3, nil) }},
		{"C short", func() error { return gemm.Mul(2, 4, 3, a, b, c[:7], 4, nil) }},
		{"workers", func() error { return gemm.Mul(2, 4, 3, a, b, c, 4, &gemm.Options[float32]{Workers: -1}) }},
		{"run without workers", func() error {
			return gemm.Mul(2, 4, 3, a, b, c, 4, &gemm.Options[float32]{Run: func(int, func(int, int)) error { return nil }})
		}},
		{"batch count", func() error { return gemm.MulBatch(2, 4, 3, a, b, c, 4, gemm.Batch{Count: -1}, nil) }},
		{"batch C offset", func() error {
			return gemm.MulBatch(2, 4, 3, a, b, c, 4, gemm.Batch{Count: 2, StrideC: 1}, nil)
		}},
		{"batch offsets", func() error {
			return gemm.MulBatch(2, 4, 3, a, b, c, 4, gemm.Batch{Count: 1, Offsets: func(int) (int, int, int) { return -1, 0, 0 }}, nil)
		}},
	} {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: got:nil want:an error", tc.name)
			continue
		}
		t.Logf("%s: %v", tc.name, err)
	}
	_ = run
	// A single stored row may have any stride.
	one := gemm.Matrix[float32]{Data: []float32{1, 2, 3}, Stride: 1}
	ones := gemm.Matrix[float32]{Data: slices.Repeat([]float32{1}, 12), Stride: 4}
	if err := gemm.Mul(1, 4, 3, one, ones, c, 4, nil); err != nil || c[3] != 6 {
		t.Fatalf("1x3 A with stride 1: err %v, C[0][3] got:%v want:6", err, c[3])
	}
	// Empty products need no data.
	if err := gemm.Mul(0, 5, 3, gemm.Matrix[float64]{Stride: 3}, gemm.Matrix[float64]{Stride: 5}, nil, 5, nil); err != nil {
		t.Fatalf("0x5x3: %v", err)
	}
}

// FUSEFLOW_NOASM selects the portable kernels, as the CPU executor's
// loops (the setting is read at init: run with FUSEFLOW_NOASM=1 to test
// the other side); Options.Portable does for one product.
func TestKernelChoice(t *testing.T) {
	v := os.Getenv("FUSEFLOW_NOASM")
	noasm := v != "" && v != "0"
	for _, k := range []string{gemm.Kernel[float32](nil), gemm.Kernel[float64](nil)} {
		if got, want := k == "go", noasm || len(gemm.Kernels[float32]()) == 1; got != want {
			t.Fatalf("FUSEFLOW_NOASM=%q: kernel %q: portable got:%v want:%v", v, k, got, want)
		}
	}
	if k := gemm.Kernel(&gemm.Options[float64]{Portable: true}); k != "go" {
		t.Fatalf("Portable: kernel got:%q want:go", k)
	}
	if ks := gemm.Kernels[float32](); ks[len(ks)-1] != "go" {
		t.Fatalf("Kernels got:%v want: the portable one last", ks)
	}
}
