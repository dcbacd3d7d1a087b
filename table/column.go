// Column: one Arrow column as lazy arrays of the array package, values
// plus an optional validity mask, with Arrow's null propagation for
// elementwise ops, reductions that skip nulls (masked, so that they fuse),
// FillNull, IsNull, and the way back to Arrow with the validity written.

package table

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/graph"
)

// Column is a column as lazy arrays: Values holds every row (a null row
// holds whatever the source held there), Valid is a 1-d bool array, true
// where the row is not null, or nil when no row is. A Column is immutable;
// its arrays follow the array package's ownership rules (Release).
type Column struct {
	Name   string
	Values *array.Array
	Valid  *array.Array
}

// ColumnFromArrow returns the column of a in c: numeric values without a
// copy (the Array retains a's buffer), bool values unpacked, and the
// validity bitmap as a bool mask when a has nulls. Types fuseflow does
// not compute in are an error naming name and the type.
func ColumnFromArrow(c *array.Context, name string, a arrow.Array) (*Column, error) {
	if a == nil {
		return nil, errors.New("ColumnFromArrow: nil arrow.Array")
	}
	if _, ok := dtypes[a.DataType().ID()]; !ok {
		return nil, fmt.Errorf("column %q has type %v, %s", name, a.DataType(), computable)
	}
	d := a.Data()
	// The values alone: the same buffers without the bitmap.
	vd := arrowarray.NewData(d.DataType(), d.Len(), []*memory.Buffer{nil, d.Buffers()[1]}, nil, 0, d.Offset())
	defer vd.Release()
	va := arrowarray.MakeFromData(vd)
	defer va.Release()
	col := &Column{Name: name, Values: c.FromArrow(va)}
	if err := col.Values.Err(); err != nil {
		return nil, fmt.Errorf("column %q: %w", name, err)
	}
	if a.NullN() > 0 {
		ok := make([]bool, a.Len())
		bits := d.Buffers()[0].Bytes()
		for i := range ok {
			ok[i] = bitutil.BitIsSet(bits, d.Offset()+i)
		}
		col.Valid = array.FromSlice(c, ok)
	}
	return col, nil
}

// ColumnFromChunked is ColumnFromArrow of a chunked array, whose chunks
// are concatenated first (a copy, from the Go allocator) when there are
// several.
func ColumnFromChunked(c *array.Context, name string, ch *arrow.Chunked) (*Column, error) {
	switch len(ch.Chunks()) {
	case 0:
		a := arrowarray.MakeArrayOfNull(memory.DefaultAllocator, ch.DataType(), 0)
		defer a.Release()
		return ColumnFromArrow(c, name, a)
	case 1:
		return ColumnFromArrow(c, name, ch.Chunk(0))
	}
	a, err := arrowarray.Concatenate(ch.Chunks(), memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("column %q: %w", name, err)
	}
	defer a.Release()
	return ColumnFromArrow(c, name, a)
}

// validAnd returns the validity of both columns (nil where neither has
// nulls).
func validAnd(a, b *array.Array) *array.Array {
	return bothValid(a, b, func(a, b *array.Array) *array.Array { return a.And(b) })
}

// bothValid returns the validity of rows valid in both a and b, nil
// standing for all rows valid: the other when one is nil, else and(a, b).
func bothValid[V any](a, b *V, and func(a, b *V) *V) *V {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return and(a, b)
}

// Map returns f of x's values, null where x is.
func Map(x *Column, f func(*array.Array) *array.Array) *Column {
	return &Column{Name: x.Name, Values: f(x.Values), Valid: x.Valid}
}

// Map2 returns f of x's and y's values, null where either is (as Arrow
// compute propagates nulls).
func Map2(x, y *Column, f func(a, b *array.Array) *array.Array) *Column {
	return &Column{Name: x.Name, Values: f(x.Values, y.Values), Valid: validAnd(x.Valid, y.Valid)}
}

// FillNull returns the values with the null rows replaced by v (an
// *array.Array or a Go number).
func (x *Column) FillNull(v any) *array.Array {
	if x.Valid == nil {
		return x.Values
	}
	return array.Where(x.Valid, x.Values, v)
}

// IsNull returns a bool array, true where x is null.
func (x *Column) IsNull() *array.Array {
	if x.Valid == nil {
		return x.Values.Context().Zeros(array.Bool, x.Values.Size())
	}
	return x.Valid.Not()
}

// masked returns the values with the null rows replaced by the identity
// of Max (isMax) or Min.
func (x *Column) masked(isMax bool) *array.Array {
	if x.Valid == nil {
		return x.Values
	}
	d := x.Values.DType()
	s := identity(d, isMax)
	switch {
	case d.IsFloat():
		return array.Where(x.Valid, x.Values, s.F)
	case d == graph.Bool:
		return array.Where(x.Valid, x.Values, s.I != 0)
	}
	return array.Where(x.Valid, x.Values, s.I)
}

// Count returns the number of non-null rows (a 0-d int64 array).
func (x *Column) Count() *array.Array {
	if x.Valid == nil {
		return x.Values.Context().Scalar(int64(x.Values.Size()))
	}
	return x.Valid.AsType(graph.Int64).Sum()
}

// Sum returns the sum of the non-null rows (0 when there is none).
func (x *Column) Sum() *array.Array {
	if x.Valid == nil {
		return x.Values.Sum()
	}
	return array.Where(x.Valid, x.Values, 0).Sum()
}

// Mean returns the mean of the non-null rows (NaN when there is none).
func (x *Column) Mean() *array.Array {
	d := meanDType(x.Values.DType())
	return x.Sum().AsType(d).Div(x.Count().AsType(d))
}

// Max returns the greatest non-null row (the dtype's least value, -Inf
// for floats, when there is none; NaN propagates).
func (x *Column) Max() *array.Array { return x.masked(true).Max() }

// Min returns the least non-null row (the dtype's greatest value, +Inf
// for floats, when there is none).
func (x *Column) Min() *array.Array { return x.masked(false).Min() }

// Var returns the variance of the non-null rows with ddof delta degrees
// of freedom (NaN when there are ddof rows or fewer).
func (x *Column) Var(ddof int) *array.Array {
	d := meanDType(x.Values.DType())
	v := x.Values.AsType(d)
	dev := v.Sub(x.Mean()).Square()
	if x.Valid != nil {
		dev = array.Where(x.Valid, dev, 0)
	}
	return dev.Sum().Div(x.Count().Sub(ddof).AsType(d))
}

// ToArrow evaluates the column and returns it as an Arrow array with its
// validity bitmap (no bitmap when no row is null). The caller releases it.
func (x *Column) ToArrow() (arrow.Array, error) {
	vals, err := x.Values.ToArrow()
	if err != nil {
		return nil, fmt.Errorf("column %q: %w", x.Name, err)
	}
	defer vals.Release()
	if x.Valid == nil {
		vals.Retain()
		return vals, nil
	}
	ok, err := array.ToSlice[bool](x.Valid)
	if err != nil {
		return nil, fmt.Errorf("column %q validity: %w", x.Name, err)
	}
	if len(ok) != vals.Len() {
		return nil, fmt.Errorf("column %q: %d values but %d validity flags", x.Name, vals.Len(), len(ok))
	}
	bitmap := memory.NewResizableBuffer(memory.DefaultAllocator)
	defer bitmap.Release()
	bitmap.Resize(int(bitutil.BytesForBits(int64(len(ok)))))
	bits := bitmap.Bytes()
	clear(bits)
	nulls := 0
	for i, v := range ok {
		if v {
			bitutil.SetBit(bits, i)
		} else {
			nulls++
		}
	}
	d := vals.Data()
	buf := bitmap
	if nulls == 0 {
		buf = nil
	}
	out := arrowarray.NewData(d.DataType(), d.Len(), []*memory.Buffer{buf, d.Buffers()[1]}, nil, nulls, d.Offset())
	defer out.Release()
	return arrowarray.MakeFromData(out), nil
}

// Release releases the column's arrays.
func (x *Column) Release() {
	x.Values.Release()
	if x.Valid != nil {
		x.Valid.Release()
	}
}
