// Table: named columns of equal length held as Arrow chunked arrays
// (nulls allowed), from and to Arrow records and tables, evaluated
// through a Scan of its chunks.

package table

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Table is a set of named columns of equal length, each an Arrow chunked
// array whose nulls are the column's nulls. It holds references to the
// Arrow data it was made from until Release. A Table is immutable and
// safe for concurrent reads.
type Table struct {
	schema *arrow.Schema
	cols   []*arrow.Chunked
	rows   int64
}

// FromRecord returns a Table of rec's columns (retained; rec may be
// released by the caller at once).
func FromRecord(rec arrow.Record) (*Table, error) {
	if rec == nil {
		return nil, fmt.Errorf("FromRecord: nil record")
	}
	return FromRecords(rec.Schema(), []arrow.Record{rec})
}

// FromRecords returns a Table whose columns are the records' columns one
// after the other; every record must have schema. The records are
// retained.
func FromRecords(schema *arrow.Schema, recs []arrow.Record) (*Table, error) {
	t := &Table{schema: schema}
	chunks := make([][]arrow.Array, schema.NumFields())
	for i, r := range recs {
		if !r.Schema().Equal(schema) {
			return nil, fmt.Errorf("FromRecords: record %d has schema %v, want %v", i, r.Schema(), schema)
		}
		for j := range chunks {
			chunks[j] = append(chunks[j], r.Column(j))
		}
		t.rows += r.NumRows()
	}
	for j, f := range schema.Fields() {
		t.cols = append(t.cols, arrow.NewChunked(f.Type, chunks[j]))
	}
	return t, nil
}

// FromArrowTable returns a Table of tbl's columns (retained).
func FromArrowTable(tbl arrow.Table) (*Table, error) {
	if tbl == nil {
		return nil, fmt.Errorf("FromArrowTable: nil table")
	}
	t := &Table{schema: tbl.Schema(), rows: tbl.NumRows()}
	for i := range int(tbl.NumCols()) {
		c := tbl.Column(i).Data()
		c.Retain()
		t.cols = append(t.cols, c)
	}
	return t, nil
}

// Release drops the Table's references to its Arrow data.
func (t *Table) Release() {
	for _, c := range t.cols {
		c.Release()
	}
	t.cols = nil
}

// Schema returns the columns' names and types.
func (t *Table) Schema() *arrow.Schema { return t.schema }

// NumRows returns the number of rows.
func (t *Table) NumRows() int64 { return t.rows }

// Column returns the column named name (owned by the Table), or an error
// naming the columns there are.
func (t *Table) Column(name string) (*arrow.Chunked, error) {
	idx := t.schema.FieldIndices(name)
	if len(idx) != 1 {
		_, _, err := schemaInfo{s: t.schema}.lookup(name)
		if err == nil {
			err = fmt.Errorf("no column %q", name)
		}
		return nil, err
	}
	return t.cols[idx[0]], nil
}

// ArrowTable returns the Table as an arrow.Table, which the caller
// releases.
func (t *Table) ArrowTable() arrow.Table {
	cols := make([]arrow.Column, len(t.cols))
	for i, c := range t.cols {
		cols[i] = *arrow.NewColumn(t.schema.Field(i), c)
	}
	tbl := arrowarray.NewTable(t.schema, cols, t.rows)
	for i := range cols {
		cols[i].Release()
	}
	return tbl
}

// releaseArrays releases the arrays of cols that are not nil.
func releaseArrays(cols []arrow.Array) {
	for _, c := range cols {
		if c != nil {
			c.Release()
		}
	}
}

// ToRecord returns the Table as one record, its chunks concatenated into
// buffers from alloc (nil: the Go allocator). The caller releases it.
func (t *Table) ToRecord(alloc memory.Allocator) (arrow.Record, error) {
	if alloc == nil {
		alloc = memory.DefaultAllocator
	}
	cols := make([]arrow.Array, len(t.cols))
	defer releaseArrays(cols)
	for i, c := range t.cols {
		var err error
		if len(c.Chunks()) == 1 {
			cols[i] = c.Chunk(0)
			cols[i].Retain()
			continue
		}
		if len(c.Chunks()) == 0 {
			cols[i] = arrowarray.MakeArrayOfNull(alloc, c.DataType(), 0)
			continue
		}
		if cols[i], err = arrowarray.Concatenate(c.Chunks(), alloc); err != nil {
			return nil, fmt.Errorf("ToRecord: column %q: %w", t.schema.Field(i).Name, err)
		}
	}
	return arrowarray.NewRecord(t.schema, cols, t.rows), nil
}

// Scan returns a scan of the Table's rows in batches of at most
// opts.BatchRows (or what opts.Budget allows); the batches share the
// Table's buffers.
func (t *Table) Scan(opts Options) *Scan { return newScan(&tableSource{t: t}, opts) }

// Eval computes exprs over the Table on the default backend: row
// expressions give a Table of as many rows, aggregates a Table of one row.
// The caller releases the result.
func (t *Table) Eval(ctx context.Context, exprs ...*Expr) (*Table, error) {
	return t.Scan(Options{}).Collect(ctx, exprs...)
}

// tableSource reads a Table in batches.
type tableSource struct{ t *Table }

func (s *tableSource) name() string                   { return "table" }
func (s *tableSource) schema() (*arrow.Schema, error) { return s.t.schema, nil }

func (s *tableSource) open(_ context.Context, _ []int, rows int, _ memory.Allocator) (batchReader, error) {
	tbl := s.t.ArrowTable()
	defer tbl.Release()
	return &recordBatches{path: "table", rr: arrowarray.NewTableReader(tbl, int64(rows))}, nil
}
