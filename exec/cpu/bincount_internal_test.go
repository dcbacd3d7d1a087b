// The counting ScatterAdd (countScatter) against a plain loop of
// additions: bin counts around the interleaving limits, index counts
// that are not multiples of the unrolling, one and
// two workers, negative indices, int32 and int64 indices, int32 and int64
// results, constants 1, 3 and -2, repeated runs of one bin, and a bad
// index at the start, in the middle, in a later worker's range and last.

package cpu

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// countRef adds c at each wrapped index of idx, or returns the error of
// the first bad one.
func countRef[E number, I int32 | int64](s *fuse.IndexSpec, out []E, idx []I, c E) error {
	for _, x := range idx {
		i := int(x)
		if i < 0 {
			i += s.Len
		}
		if i < 0 || i >= s.Len {
			return graph.IndexError(s.Op, int64(x), s.Axis, s.Len)
		}
		out[i] += c
	}
	return nil
}

func testCountScatter[E number, I int32 | int64](t *testing.T, name string, r *rand.Rand) {
	for _, n := range []int{1, 7, 1000, 1024, 1025, 4096, 4097, 70000} {
		for _, m := range []int{2*n + 3, 3*1024 + 5, 2*indexTask + 7, 4*n + 2*indexTask} {
			if n > m/2 {
				continue
			}
			for _, gc := range []struct {
				gen string
				c   E
			}{{"rand", 1}, {"rand", 3}, {"rand", E(0) - 2}, {"neg", 1}, {"runs", 1}} {
				{
					gen, c := gc.gen, gc.c
					idx := make([]I, m)
					for j := range idx {
						switch gen {
						case "rand":
							idx[j] = I(r.IntN(n))
						case "neg":
							idx[j] = I(r.IntN(2*n) - n)
						case "runs":
							idx[j] = I(j / 37 % n)
						}
					}
					s := &fuse.IndexSpec{Op: graph.OpScatterAdd, Outer: 1, Len: n, Inner: 1, Count: m}
					for _, workers := range []int{1, 2} {
						got, want := make([]E, n), make([]E, n)
						for i := range got {
							got[i] = E(i % 5)
							want[i] = got[i]
						}
						done, err := countScatter(context.Background(), s, got, idx, c, workers)
						// Two indices per bin and worker at least.
						if w := max(1, min(workers, m/indexTask)); n*w > m/2 {
							if done {
								t.Fatalf("%s n=%d m=%d workers=%d: got:counted want:general path", name, n, m, workers)
							}
							continue
						}
						if !done || err != nil {
							t.Fatalf("%s n=%d m=%d: got:%v,%v want:true,<nil>", name, n, m, done, err)
						}
						if err := countRef(s, want, idx, c); err != nil {
							t.Fatal(err)
						}
						for i := range got {
							if got[i] != want[i] {
								t.Fatalf("%s %s n=%d m=%d c=%v workers=%d bin %d: got:%v want:%v", name, gen, n, m, c, workers, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
	// Bad indices: the first in index order is the error.
	const n, m = 100, 3*indexTask + 11
	for _, bad := range [][]int{{0}, {m / 2}, {m - 1}, {m/3 + 5, 2*m/3 + 1}, {2*m/3 + 1, m - 2}} {
		for _, v := range []I{n, -n - 1, 1 << 20} {
			idx := make([]I, m)
			for j := range idx {
				idx[j] = I(r.IntN(n))
			}
			for _, j := range bad {
				idx[j] = v
			}
			s := &fuse.IndexSpec{Op: graph.OpScatterAdd, Outer: 1, Len: n, Inner: 1, Count: m}
			want := graph.IndexError(s.Op, int64(v), s.Axis, n).Error()
			for _, workers := range []int{1, 2} {
				_, err := countScatter(context.Background(), s, make([]E, n), idx, 1, workers)
				if err == nil || err.Error() != want {
					t.Fatalf("%s bad at %v = %v workers=%d: got:%v want:%s", name, bad, v, workers, err, want)
				}
			}
		}
	}
	// Not a counting scatter: left to the general path.
	s := &fuse.IndexSpec{Op: graph.OpScatterAdd, Outer: 1, Len: 1000, Inner: 1, Count: 1500}
	if done, _ := countScatter(context.Background(), s, make([]E, 1000), make([]I, 1500), 1, 1); done {
		t.Errorf("%s: 1500 indices into 1000 bins: got:counted want:general path", name)
	}
}

func TestCountScatter(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	testCountScatter[int64, int64](t, "int64/int64", r)
	testCountScatter[int64, int32](t, "int64/int32", r)
	testCountScatter[int32, int64](t, "int32/int64", r)
	testCountScatter[int32, int32](t, "int32/int32", r)
	s := &fuse.IndexSpec{Op: graph.OpScatterAdd, Outer: 1, Len: 10, Inner: 1, Count: 100}
	if done, _ := countScatter(context.Background(), s, make([]float64, 10), make([]int64, 100), 1, 1); done {
		t.Error("float64 result: got:counted want:general path")
	}
}
