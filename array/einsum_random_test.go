// A differential test of Einsum: random subscripts (repeated letters,
// axes of extent 1 that broadcast, implicit and explicit outputs, one to
// four operands) against a naive loop over every assignment of the
// letters, on the reference evaluator and the CPU executor.

package array_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// esCase is one random Einsum: its subscripts, the operands' shapes and
// values (small integers, so that every order of summation is exact).
type esCase struct {
	sub    string
	terms  []string
	out    string
	ext    map[byte]int
	shapes [][]int
	vals   [][]float64
}

func randomEinsum(r *rand.Rand) esCase {
	letters := "abcdF"
	c := esCase{ext: map[byte]int{}}
	for i := range letters {
		c.ext[letters[i]] = 2 + r.IntN(3)
	}
	nops := 2 + r.IntN(3)
	if r.IntN(5) == 0 {
		nops = 1
	}
	count := map[byte]int{}
	for range nops {
		rank := r.IntN(4)
		if nops > 1 {
			rank = 1 + r.IntN(3)
			if r.IntN(3) > 0 {
				rank = 2 + r.IntN(2) // contractions, many through MatMul
			}
		}
		var term []byte
		var shape []int
		for range rank {
			l := letters[r.IntN(len(letters))]
			e := c.ext[l]
			if r.IntN(5) == 0 && !slices.Contains(term, l) {
				e = 1 // broadcasts against the letter's extent elsewhere
			}
			if k := slices.Index(term, l); k >= 0 {
				e = shape[k] // a repeated letter: a diagonal, equal extents
			}
			term = append(term, l)
			shape = append(shape, e)
			count[l]++
		}
		n := 1
		for _, e := range shape {
			n *= e
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(5) - 2)
		}
		c.terms = append(c.terms, string(term))
		c.shapes = append(c.shapes, shape)
		c.vals = append(c.vals, v)
	}
	var used []byte
	for l := range count {
		used = append(used, l)
	}
	slices.Sort(used)
	if r.IntN(2) == 0 {
		for _, l := range used {
			if count[l] == 1 {
				c.out += string(l)
			}
		}
		c.sub = strings.Join(c.terms, ",")
	} else {
		r.Shuffle(len(used), func(i, j int) { used[i], used[j] = used[j], used[i] })
		c.out = string(used[:r.IntN(len(used)+1)])
		c.sub = strings.Join(c.terms, ",") + "->" + c.out
	}
	return c
}

// naive returns the Einsum of c by looping over every assignment of the
// letters: its shape and values.
func (c esCase) naive() ([]int, []float64) {
	var letters []byte
	for _, t := range c.terms {
		for i := range len(t) {
			if !slices.Contains(letters, t[i]) {
				letters = append(letters, t[i])
			}
		}
	}
	// A letter's extent is the largest among its axes (1 broadcasts).
	ext := map[byte]int{}
	for k, t := range c.terms {
		for i := range len(t) {
			ext[t[i]] = max(ext[t[i]], c.shapes[k][i])
		}
	}
	var shape []int
	for i := range len(c.out) {
		shape = append(shape, ext[c.out[i]])
	}
	size := 1
	for _, e := range shape {
		size *= e
	}
	out := make([]float64, size)
	at := map[byte]int{}
	var loop func(k int)
	loop = func(k int) {
		if k < len(letters) {
			for i := range ext[letters[k]] {
				at[letters[k]] = i
				loop(k + 1)
			}
			return
		}
		p := 1.0
		for j, t := range c.terms {
			flat := 0
			for i := range len(t) {
				idx := at[t[i]]
				if c.shapes[j][i] == 1 {
					idx = 0
				}
				flat = flat*c.shapes[j][i] + idx
			}
			p *= c.vals[j][flat]
		}
		flat := 0
		for i := range len(c.out) {
			flat = flat*shape[i] + at[c.out[i]]
		}
		out[flat] += p
	}
	loop(0)
	return shape, out
}

func TestEinsumRandom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 100
	}
	e := newEnv(t)
	onCPU := cpuContext()
	r := rand.New(rand.NewPCG(14, 15))
	matmuls := 0
	for i := range n {
		c := randomEinsum(r)
		wantShape, want := c.naive()
		for _, ctx := range []*array.Context{e.c, onCPU} {
			ops := make([]*array.Array, len(c.terms))
			for k := range ops {
				ops[k] = e.keep(e.keep(array.FromSlice(ctx, c.vals[k], len(c.vals[k]))).Reshape(c.shapes[k]...))
			}
			got := e.keep(array.Einsum(c.sub, ops...))
			what := fmt.Sprintf("case %d %s %v on %s", i, c.sub, c.shapes, ctx.Backend())
			require.NoError(t, got.Err(), what)
			g, err := array.ToSlice[float64](got)
			require.NoError(t, err, what)
			if !slices.Equal(got.Shape(), wantShape) && !(len(wantShape) == 0 && got.Rank() == 0) {
				t.Fatalf("%s: shape got:%v want:%v", what, got.Shape(), wantShape)
			}
			if !slices.Equal(g, want) {
				t.Fatalf("%s: got:%v want:%v", what, g, want)
			}
			if ctx == e.c {
				p, err := fuse.Build([]*graph.Node{got.Node()}, layoutsOf(got.Node()))
				require.NoError(t, err, what)
				for _, k := range p.Kernels {
					if k.Kind() == fuse.KindMatMul {
						matmuls++
					}
				}
			}
		}
	}
	// The MatMul lowering must be well exercised, not only the products
	// and sums.
	t.Logf("%d MatMul kernels in %d cases", matmuls, n)
	if matmuls < n/10 {
		t.Errorf("only %d MatMul kernels in %d cases", matmuls, n)
	}
}
