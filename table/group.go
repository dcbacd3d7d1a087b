// GroupBy: aggregates per value of an integer or string key column. The
// host gives each distinct key a dense code as batches arrive (a hash
// map; a null key is a group of its own, as in Arrow); string keys, plain
// or dictionary-encoded, are unified by value across batches whatever
// their dictionaries, and the codes' names come back as the key column. With few groups the kernels
// reduce each aggregate per code with a masked column reduction (see
// compiler.aggregate), whose work grows with rows times groups; with
// more, the kernels compute the aggregates' row values and validity and
// the host adds them up by code (addRows).

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

// MaxGroups bounds the distinct keys of a GroupBy.
const MaxGroups = 1 << 20

// maxGroups is MaxGroups, lowered by tests.
var maxGroups = MaxGroups

// BroadcastGroups is the most groups the kernels reduce per group
// themselves (a masked column reduction over rows times groups); with
// more, the kernels compute each aggregate's row values and the host adds
// them up by group code, in one pass over the rows.
var BroadcastGroups = 8

// GroupBy returns the scan whose Aggregate computes its aggregates once
// per distinct value of the column key: an integer column (int32 or
// int64), a string column (utf8 or large_utf8) or a dictionary of strings
// (whose batches may have different dictionaries: keys are the same when
// their strings are). The result has one row per key with a row the
// filter keeps, sorted by key (integers by value, strings bytewise; a
// null key last), the key first (a string key as utf8). More than MaxGroups distinct keys is an error. Row
// expressions (Each, Collect, the Write methods) fail on a grouped scan.
func (s *Scan) GroupBy(key string) *Scan {
	c := *s
	c.group = key
	c.stats = &Stats{}
	return &c
}

// grouping gives the keys of a GroupBy dense codes.
type grouping struct {
	key   string
	dtype graph.DType // of integer keys; 0 for string keys
	codes map[int64]int32
	keys  []int64     // by code
	strs  *stringKeys // string keys (nil: integer keys)
	null  int32       // the null key's code, -1 until one is seen
	valid []bool      // by code: false for the null key
	lut   []int32     // code+1 of the keys 0..lutSize-1 (0: none yet)
}

// lutSize bounds the keys encode finds by a table instead of the map.
const lutSize = 1 << 16

func newGrouping(key string, si schemaInfo) (*grouping, error) {
	if idx := si.s.FieldIndices(key); len(idx) == 1 && isStringKey(si.s.Field(idx[0]).Type) {
		return &grouping{key: key, strs: &stringKeys{codes: map[string]int32{}}, null: -1}, nil
	}
	_, d, err := si.lookup(key)
	if err != nil {
		return nil, err
	}
	if d != graph.Int32 && d != graph.Int64 {
		return nil, fmt.Errorf("%sGroupBy: key column %q is %v, want int32, int64, utf8 or a dictionary of utf8", si.prefix(), key, d)
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
	if g.strs != nil {
		if err := g.encodeStrings(a, out); err != nil {
			t.Release()
			return nil, err
		}
		return t, nil
	}
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
		if uint64(k) < lutSize { // small keys: a table, not the map
			if g.lut == nil {
				g.lut = make([]int32, lutSize)
			}
			if c := g.lut[k]; c > 0 {
				out[i] = c - 1
				continue
			}
		}
		c, ok := g.codes[k]
		if !ok {
			if len(g.keys) >= maxGroups {
				t.Release()
				return nil, fmt.Errorf("GroupBy %q: more than %d distinct keys", g.key, maxGroups)
			}
			c = int32(len(g.keys))
			g.codes[k] = c
			g.keys = append(g.keys, k)
			g.valid = append(g.valid, true)
		}
		if uint64(k) < lutSize {
			g.lut[k] = c + 1
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
		if g.strs != nil {
			return g.strs.names[o[a]] < g.strs.names[o[b]]
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
	if g.strs != nil {
		b := arrowarray.NewStringBuilder(alloc)
		defer b.Release()
		for j, c := range order {
			if valid[j] {
				b.Append(g.strs.names[c])
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
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

// addRows adds to s the rows of a batch whose row values and validity
// (nil: all valid) are at idx (count: validity, acc: values) of res,
// row i to group codes[i] of k.
func (s *aggState) addRows(res []*exec.Tensor, idx [3]int, codes []int32, k int) {
	s.grow(k)
	var ok []uint8
	if idx[0] >= 0 {
		ok = elems[uint8](res[idx[0]])
	}
	if idx[1] < 0 { // Count and the rows per group
		for i, g := range codes {
			if ok == nil || ok[i] != 0 {
				s.count[g]++
			}
		}
		return
	}
	v := res[idx[1]]
	switch v.DType {
	case graph.Float32:
		addRowsOf(s, elems[float32](v), ok, codes)
	case graph.Float64:
		addRowsOf(s, elems[float64](v), ok, codes)
	case graph.Int32:
		addRowsOf(s, elems[int32](v), ok, codes)
	case graph.Int64:
		addRowsOf(s, elems[int64](v), ok, codes)
	case graph.Bool:
		addRowsOf(s, elems[uint8](v), ok, codes)
	}
}

// elems returns the elements of a 1-d host tensor in order (its own
// memory when contiguous, else a copy).
func elems[T any](t *exec.Tensor) []T {
	all := exec.Elems[T](t)
	n := t.Size()
	if t.Contiguous() {
		return all[t.Offset : t.Offset+n]
	}
	out := make([]T, n)
	for i := range out {
		out[i] = all[t.Offset+i*t.Strides[0]]
	}
	return out
}

func addRowsOf[T int32 | int64 | float32 | float64 | uint8](s *aggState, vals []T, ok []uint8, codes []int32) {
	isInt := !s.in.IsFloat()
	for i, g := range codes {
		if ok != nil && ok[i] == 0 {
			continue
		}
		v := vals[i]
		s.count[g]++
		switch s.e.agg {
		case AggSum:
			if isInt {
				s.i[g] += int64(v)
			} else {
				s.f[g] += float64(v)
			}
		case AggMin, AggMax:
			isMax := s.e.agg == AggMax
			if isInt {
				x := int64(v)
				if !s.extSet[g] || (isMax && x > s.i[g]) || (!isMax && x < s.i[g]) {
					s.i[g] = x
				}
			} else {
				x := float64(v)
				switch {
				case !s.extSet[g] || x != x:
					s.f[g] = x
				case s.f[g] != s.f[g]:
				case isMax && x > s.f[g], !isMax && x < s.f[g]:
					s.f[g] = x
				}
			}
			s.extSet[g] = true
		case AggMean:
			s.mean[g] += float64(v)
		case AggVar: // Welford
			x := float64(v)
			d := x - s.mean[g]
			s.mean[g] += d / float64(s.count[g])
			s.m2[g] += d * (x - s.mean[g])
		}
	}
}
