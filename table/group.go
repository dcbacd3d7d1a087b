// GroupBy: aggregates per value of an integer key column. The host gives
// each distinct key a dense code as batches arrive (a hash map; a null
// key is a group of its own, as in Arrow); the kernels reduce each
// aggregate per code with a masked column reduction (see
// compiler.aggregate), whose work grows with rows times groups, so the
// number of groups is bounded.

package table

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// MaxGroups bounds the distinct keys of a GroupBy: the per-group
// reduction does work proportional to rows times groups.
const MaxGroups = 1024

// GroupBy returns the scan whose Aggregate computes its aggregates once
// per distinct value of the integer (int32 or int64) column key: one row
// per key, sorted by key (a null key last), the key first. More than
// MaxGroups distinct keys is an error. Each, Collect of row expressions
// and the Write methods of row expressions ignore nothing: they fail on
// a grouped scan.
func (s *Scan) GroupBy(key string) *Scan {
	c := *s
	c.group = key
	c.stats = &Stats{}
	return &c
}

// grouping gives the keys of a GroupBy dense codes.
type grouping struct {
	key   string
	dtype graph.DType
	codes map[int64]int32
	keys  []int64 // by code
	null  int32   // the null key's code, -1 until one is seen
	valid []bool  // by code: false for the null key
}

func newGrouping(key string, si schemaInfo) (*grouping, error) {
	_, d, err := si.lookup(key)
	if err != nil {
		return nil, err
	}
	if d != graph.Int32 && d != graph.Int64 {
		return nil, fmt.Errorf("%sGroupBy: key column %q is %v, want int32 or int64", si.prefix(), key, d)
	}
	return &grouping{key: key, dtype: d, codes: map[int64]int32{}, null: -1}, nil
}

// encode returns the codes of a's rows as an int32 tensor from alloc,
// giving new keys new codes.
func (g *grouping) encode(a arrow.Array, alloc memory.Allocator) (*exec.Tensor, error) {
	n := a.Len()
	t, err := exec.NewTensorUninit(alloc, graph.Int32, graph.Shape{n})
	if err != nil {
		return nil, err
	}
	out := exec.Elems[int32](t)
	var key func(i int) int64
	switch x := a.(type) {
	case *arrowarray.Int32:
		key = func(i int) int64 { return int64(x.Value(i)) }
	case *arrowarray.Int64:
		key = x.Value
	default:
		t.Release()
		return nil, fmt.Errorf("GroupBy: key column %q is %v, want int32 or int64", g.key, a.DataType())
	}
	nulls := a.NullN() > 0
	for i := range n {
		if nulls && a.IsNull(i) {
			if g.null < 0 {
				g.null = int32(len(g.keys))
				g.keys = append(g.keys, 0)
				g.valid = append(g.valid, false)
			}
			out[i] = g.null
			continue
		}
		k := key(i)
		c, ok := g.codes[k]
		if !ok {
			if len(g.keys) >= MaxGroups {
				t.Release()
				return nil, fmt.Errorf("GroupBy %q: more than %d distinct keys (the per-group reduction does work proportional to rows times groups)", g.key, MaxGroups)
			}
			c = int32(len(g.keys))
			g.codes[k] = c
			g.keys = append(g.keys, k)
			g.valid = append(g.valid, true)
		}
		out[i] = c
	}
	return t, nil
}

// order returns the codes sorted by key, the null key last.
func (g *grouping) order() []int {
	o := make([]int, len(g.keys))
	for i := range o {
		o[i] = i
	}
	sort.Slice(o, func(a, b int) bool {
		va, vb := g.valid[o[a]], g.valid[o[b]]
		if va != vb {
			return va
		}
		return g.keys[o[a]] < g.keys[o[b]]
	})
	return o
}

// keyArray returns the keys in order as an Arrow array of the key's type.
func (g *grouping) keyArray(order []int, alloc memory.Allocator) arrow.Array {
	valid := make([]bool, len(order))
	for j, c := range order {
		valid[j] = g.valid[c]
	}
	if g.dtype == graph.Int32 {
		b := arrowarray.NewInt32Builder(alloc)
		defer b.Release()
		for j, c := range order {
			if valid[j] {
				b.Append(int32(g.keys[c]))
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	}
	b := arrowarray.NewInt64Builder(alloc)
	defer b.Release()
	for j, c := range order {
		if valid[j] {
			b.Append(g.keys[c])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray()
}
