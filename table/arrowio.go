// Arrow columns in and out of tensors: the types fuseflow computes in,
// values (zero-copy for numbers), validity bitmaps unpacked into bool
// masks and packed back, and the rows a filter keeps.

package table

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// dtypes maps the Arrow types columns may have to the dtypes they compute in.
var dtypes = map[arrow.Type]graph.DType{
	arrow.BOOL: graph.Bool, arrow.INT8: graph.Int8, arrow.INT16: graph.Int16, arrow.INT32: graph.Int32,
	arrow.INT64: graph.Int64, arrow.UINT8: graph.Uint8, arrow.UINT16: graph.Uint16, arrow.UINT32: graph.Uint32,
	arrow.UINT64: graph.Uint64, arrow.FLOAT16: graph.Float16, arrow.FLOAT32: graph.Float32, arrow.FLOAT64: graph.Float64,
}

// computable ends the error of a column of a type not in dtypes.
const computable = "which fuseflow cannot compute in yet (bool, the signed and unsigned integers of 8 to 64 bits, float16, float32, float64)"

// arrowTypes maps dtypes back to Arrow types.
var arrowTypes = map[graph.DType]arrow.DataType{
	graph.Bool: arrow.FixedWidthTypes.Boolean, graph.Int32: arrow.PrimitiveTypes.Int32,
	graph.Int64: arrow.PrimitiveTypes.Int64, graph.Float32: arrow.PrimitiveTypes.Float32,
	graph.Float64: arrow.PrimitiveTypes.Float64, graph.Int8: arrow.PrimitiveTypes.Int8,
	graph.Int16: arrow.PrimitiveTypes.Int16, graph.Uint8: arrow.PrimitiveTypes.Uint8,
	graph.Uint16: arrow.PrimitiveTypes.Uint16, graph.Uint32: arrow.PrimitiveTypes.Uint32,
	graph.Uint64: arrow.PrimitiveTypes.Uint64, graph.Float16: arrow.FixedWidthTypes.Float16,
}

// schemaInfo finds columns of a schema by name.
type schemaInfo struct {
	s    *arrow.Schema
	from string // the file or source, for messages
}

// lookup returns the index and dtype of the column named name, or an
// error naming the column (and the columns there are) or its type.
func (si schemaInfo) lookup(name string) (int, graph.DType, error) {
	idx := si.s.FieldIndices(name)
	if len(idx) == 0 {
		names := make([]string, si.s.NumFields())
		for i, f := range si.s.Fields() {
			names[i] = f.Name
		}
		return 0, 0, fmt.Errorf("%sno column %q (the columns are %q)", si.prefix(), name, names)
	}
	if len(idx) > 1 {
		return 0, 0, fmt.Errorf("%scolumn name %q is ambiguous: %d columns have it", si.prefix(), name, len(idx))
	}
	f := si.s.Field(idx[0])
	d, ok := dtypes[f.Type.ID()]
	if !ok {
		return 0, 0, fmt.Errorf("%scolumn %q has type %v, %s", si.prefix(), name, f.Type, computable)
	}
	return idx[0], d, nil
}

func (si schemaInfo) prefix() string {
	if si.from == "" {
		return ""
	}
	return si.from + ": "
}

// valuesTensor returns the values of a (of dtype d) as a tensor: numeric
// arrays share a's buffer (retained), bools are unpacked into bytes from
// alloc. Null slots hold whatever a holds there.
func valuesTensor(a arrow.Array, d graph.DType, alloc memory.Allocator) (*exec.Tensor, error) {
	n := a.Len()
	if d == graph.Bool {
		t, err := exec.NewTensorUninit(alloc, graph.Bool, graph.Shape{n})
		if err != nil {
			return nil, err
		}
		unpack(exec.Elems[uint8](t), a.Data().Buffers()[1], a.Data().Offset(), n)
		return t, nil
	}
	buf, off := a.Data().Buffers()[1], a.Data().Offset()
	if buf == nil || buf.Len() < (off+n)*d.Size() {
		return nil, fmt.Errorf("%v data buffer is shorter than offset %d + length %d", a.DataType(), off, n)
	}
	if off != 0 { // the same plan for every batch: offsets are rebased
		buf = memory.SliceBuffer(buf, off*d.Size(), n*d.Size())
	} else {
		buf.Retain()
	}
	return &exec.Tensor{Buf: buf, Layout: graph.ContiguousLayout(d, graph.Shape{n})}, nil
}

// validTensor returns a's validity as a bool mask from alloc.
func validTensor(a arrow.Array, alloc memory.Allocator) (*exec.Tensor, error) {
	n := a.Len()
	t, err := exec.NewTensorUninit(alloc, graph.Bool, graph.Shape{n})
	if err != nil {
		return nil, err
	}
	unpack(exec.Elems[uint8](t), a.Data().Buffers()[0], a.Data().Offset(), n)
	return t, nil
}

// unpack writes bits off..off+n of bitmap as bytes 0 and 1 (all 1 for a
// nil bitmap).
func unpack(dst []uint8, bitmap *memory.Buffer, off, n int) {
	if bitmap == nil {
		for i := range dst[:n] {
			dst[i] = 1
		}
		return
	}
	bits := bitmap.Bytes()
	for i := range n {
		j := off + i
		dst[i] = (bits[j>>3] >> (j & 7)) & 1
	}
}

// hostTensor returns t on the host (t itself, retained, when it is
// there), for a backend that may keep results on a device.
func hostTensor(ctx context.Context, be exec.Backend, t *exec.Tensor, alloc memory.Allocator) (*exec.Tensor, error) {
	if !t.OnDevice() {
		t.Buf.Retain()
		return &exec.Tensor{Buf: t.Buf, Layout: t.Layout}, nil
	}
	hc, ok := be.(exec.HostCopier)
	if !ok {
		return nil, fmt.Errorf("backend %s left a result on a device and cannot copy it to the host", be.Name())
	}
	return hc.ToHost(ctx, t, alloc)
}

// hostTensors returns host copies (or host references) of the results
// res of an evaluation, as hostTensor does, and a function that releases
// both the results and the copies, to be called whatever the error.
func hostTensors(ctx context.Context, be exec.Backend, res []*exec.Tensor, alloc memory.Allocator) ([]*exec.Tensor, func(), error) {
	hosts := make([]*exec.Tensor, len(res))
	done := func() {
		for i, t := range res {
			t.Release()
			if hosts[i] != nil {
				hosts[i].Release()
			}
		}
	}
	for i, t := range res {
		var err error
		if hosts[i], err = hostTensor(ctx, be, t, alloc); err != nil {
			return nil, done, err
		}
	}
	return hosts, done, nil
}

// packBits returns a bitmap from alloc of the rows of b (bytes 0 or 1)
// that keep keeps (keep nil: all), rows of them, and how many of those
// are 0. The caller releases the bitmap.
func packBits(b, keep []uint8, rows int, alloc memory.Allocator) (*memory.Buffer, int) {
	buf := memory.NewResizableBuffer(alloc)
	buf.Resize(int(bitutil.BytesForBits(int64(rows))))
	bits := buf.Bytes()
	clear(bits)
	j, zeros := 0, 0
	for i, v := range b {
		if keep != nil && keep[i] == 0 {
			continue
		}
		if v != 0 {
			bitutil.SetBit(bits, j)
		} else {
			zeros++
		}
		j++
	}
	return buf, zeros
}

// toArrow returns the 1-d host tensor v with validity ok (nil: all
// valid) as an Arrow array, keeping only the rows where keep is 1 (keep
// nil: all). A contiguous numeric result with every row kept shares v's
// buffer; anything else is copied into buffers from alloc. The caller
// releases the result.
func toArrow(v, ok *exec.Tensor, keep []uint8, kept int, alloc memory.Allocator) (arrow.Array, error) {
	d := v.DType
	n := v.Size()
	rows := n
	if keep != nil {
		rows = kept
	}
	var nulls int
	var bitmap *memory.Buffer
	if ok != nil {
		bitmap, nulls = packBits(elems[uint8](ok), keep, rows, alloc)
		defer bitmap.Release()
		if nulls == 0 {
			bitmap = nil
		}
	}
	var data *memory.Buffer
	switch {
	case d == graph.Bool:
		data, _ = packBits(elems[uint8](v), keep, rows, alloc)
	case keep == nil && v.Contiguous():
		sz := d.Size()
		data = memory.SliceBuffer(v.Buf, v.Offset*sz, n*sz)
	default:
		sz := d.Size()
		src := v.Bytes()
		data = memory.NewResizableBuffer(alloc)
		data.Resize(rows * sz)
		dst := data.Bytes()
		j := 0
		for i := range n {
			if keep != nil && keep[i] == 0 {
				continue
			}
			off := (v.Offset + i*v.Strides[0]) * sz
			copy(dst[j*sz:(j+1)*sz], src[off:off+sz])
			j++
		}
	}
	defer data.Release()
	ad := arrowarray.NewData(arrowTypes[d], rows, []*memory.Buffer{bitmap, data}, nil, nulls, 0)
	defer ad.Release()
	return arrowarray.MakeFromData(ad), nil
}

// arrayRecord returns the record of cols (owned by the caller, who
// releases cols too) under schema.
func arrayRecord(schema *arrow.Schema, cols []arrow.Array) arrow.Record {
	rows := int64(0)
	if len(cols) > 0 {
		rows = int64(cols[0].Len())
	}
	return arrowarray.NewRecord(schema, cols, rows)
}
