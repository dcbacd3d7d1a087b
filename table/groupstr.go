// String keys of a GroupBy: utf8, large_utf8 and string-view columns and
// dictionaries of them, given dense codes by value on the host. A
// dictionary's entries are mapped to codes once per batch, as rows first
// use them, so batches whose dictionaries differ (IPC dictionary
// replacements, a Parquet dictionary per row group) agree on each key.

package table

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
)

// stringKeys are the distinct string keys of a GroupBy.
type stringKeys struct {
	codes map[string]int32
	names []string // by code ("" for the null key)
	remap []int32  // a batch dictionary's entry -> code+1 (0: not yet)
}

// isStringKey reports whether a column of type t groups by string keys.
func isStringKey(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	case arrow.DICTIONARY:
		switch t.(*arrow.DictionaryType).ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return true
		}
	}
	return false
}

// dictOf reports whether t is a dictionary of want's strings (a Parquet
// string column read as a dictionary).
func dictOf(t, want arrow.DataType) bool {
	d, ok := t.(*arrow.DictionaryType)
	return ok && isStringKey(want) && arrow.TypeEqual(d.ValueType, want)
}

// stringValues is what the string arrays have in common.
type stringValues interface {
	arrow.Array
	Value(int) string
}

// code returns the code of the string k (which may share an Arrow
// buffer: it is copied when it is new).
func (g *grouping) code(k string) (int32, error) {
	if c, ok := g.strs.codes[k]; ok {
		return c, nil
	}
	if len(g.keys) >= maxGroups {
		return 0, fmt.Errorf("GroupBy %q: more than %d distinct keys", g.key, maxGroups)
	}
	c := int32(len(g.keys))
	k = strings.Clone(k)
	g.strs.codes[k] = c
	g.strs.names = append(g.strs.names, k)
	g.keys = append(g.keys, 0)
	g.valid = append(g.valid, true)
	return c, nil
}

// nullCode returns the code of the null key.
func (g *grouping) nullCode() int32 {
	if g.null < 0 {
		g.null = int32(len(g.keys))
		g.keys = append(g.keys, 0)
		g.valid = append(g.valid, false)
		g.strs.names = append(g.strs.names, "")
	}
	return g.null
}

// encodeStrings writes the codes of a's rows, a string array or a
// dictionary of strings, to out.
func (g *grouping) encodeStrings(a arrow.Array, out []int32) error {
	switch x := a.(type) {
	case *arrowarray.Dictionary:
		vals, ok := x.Dictionary().(stringValues)
		if !ok {
			return fmt.Errorf("GroupBy: key column %q is %v, want a dictionary of strings", g.key, a.DataType())
		}
		remap := g.strs.remap[:0]
		for range vals.Len() {
			remap = append(remap, 0)
		}
		g.strs.remap = remap
		nulls := x.NullN() > 0
		index := x.GetValueIndex
		if ix, ok := x.Indices().(*arrowarray.Int32); ok { // what Parquet gives: no type switch per row
			raw := ix.Int32Values()
			index = func(i int) int { return int(raw[i]) }
		}
		for i := range out {
			if nulls && x.IsNull(i) {
				out[i] = g.nullCode()
				continue
			}
			j := index(i)
			if j < 0 || j >= len(remap) {
				return fmt.Errorf("GroupBy %q: row %d has dictionary index %d, the dictionary has %d entries", g.key, i, j, len(remap))
			}
			if c := remap[j]; c > 0 {
				out[i] = c - 1
				continue
			}
			var c int32
			if vals.IsNull(j) {
				c = g.nullCode()
			} else {
				var err error
				if c, err = g.code(vals.Value(j)); err != nil {
					return err
				}
			}
			remap[j] = c + 1
			out[i] = c
		}
		return nil
	case stringValues:
		if !isStringKey(a.DataType()) {
			break
		}
		nulls := x.NullN() > 0
		for i := range out {
			if nulls && x.IsNull(i) {
				out[i] = g.nullCode()
				continue
			}
			c, err := g.code(x.Value(i))
			if err != nil {
				return err
			}
			out[i] = c
		}
		return nil
	}
	return fmt.Errorf("GroupBy: key column %q is %v, want utf8 or a dictionary of utf8", g.key, a.DataType())
}
