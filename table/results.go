// Running a scan: aggregates as a one-row record, row results batch by
// batch, collected into a Table, or written to a Parquet or Arrow IPC
// file that appears only when complete.

package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/fuseflow/fuseflow/exec"
)

// Aggregate runs the scan and returns the aggregate expressions' values
// as a record of one row, a column per expression (named by Expr.Name),
// null where an aggregate saw no row. Every expression must hold
// aggregates and read columns only inside them (sum(price*qty)/sum(qty)
// is one). The caller releases the record.
func (s *Scan) Aggregate(ctx context.Context, exprs ...*Expr) (arrow.Record, error) {
	if _, err := newQuery(exprs, nil, s.group); err != nil {
		return nil, err
	}
	if !exprs[0].hasAgg() {
		return nil, fmt.Errorf("Aggregate: %v is a row expression (use Each, Collect or a Write method)", exprs[0])
	}
	r, err := s.run(ctx, exprs, func(rec arrow.Record) error { rec.Release(); return nil })
	if err != nil {
		return nil, err
	}
	return r.finish(ctx)
}

// Each runs the scan and calls fn with each batch's row results: a
// record with a column per expression and only the rows the filter
// keeps. The record is released when fn returns (Retain it to keep it).
// An error of fn stops the scan and is returned.
func (s *Scan) Each(ctx context.Context, fn func(arrow.Record) error, exprs ...*Expr) error {
	if _, err := newQuery(exprs, nil, s.group); err != nil {
		return err
	}
	if exprs[0].hasAgg() {
		return fmt.Errorf("Each: %v is an aggregate (use Aggregate)", exprs[0])
	}
	_, err := s.run(ctx, exprs, func(rec arrow.Record) error {
		defer rec.Release()
		return fn(rec)
	})
	return err
}

// Collect runs the scan and returns its results as a Table: row results
// a chunk per batch, aggregates one row. The caller releases the Table.
func (s *Scan) Collect(ctx context.Context, exprs ...*Expr) (*Table, error) {
	if len(exprs) > 0 && exprs[0] != nil && exprs[0].hasAgg() {
		rec, err := s.Aggregate(ctx, exprs...)
		if err != nil {
			return nil, err
		}
		defer rec.Release()
		return FromRecord(rec)
	}
	var recs []arrow.Record
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	r, err := s.run(ctx, exprs, func(rec arrow.Record) error { recs = append(recs, rec); return nil })
	if err != nil {
		return nil, err
	}
	schema := r.rowSchema()
	return FromRecords(schema, recs)
}

// rowSchema returns the schema of a row query's results.
func (r *runner) rowSchema() *arrow.Schema { return r.schemaOf(r.types) }

// recordWriter writes record batches to a file.
type recordWriter interface {
	Write(arrow.Record) error
	Close() error
}

// WriteParquet runs the scan and writes its results (row results batch by
// batch, a row group each; or the one row of aggregates) to a Parquet
// file at path, zstd-compressed. The file is written beside path under a
// temporary name and renamed to path once complete: on error nothing is
// left at path (an older file there is kept).
func (s *Scan) WriteParquet(ctx context.Context, path string, exprs ...*Expr) error {
	return s.write(ctx, path, exprs, func(f *os.File, schema *arrow.Schema) (recordWriter, error) {
		props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithAllocator(s.allocator()))
		return pqarrow.NewFileWriter(schema, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(s.allocator())))
	})
}

// WriteIPC runs the scan and writes its results to an Arrow IPC file at
// path (the stream format when path ends in .arrows), as WriteParquet
// does.
func (s *Scan) WriteIPC(ctx context.Context, path string, exprs ...*Expr) error {
	return s.write(ctx, path, exprs, func(f *os.File, schema *arrow.Schema) (recordWriter, error) {
		if strings.HasSuffix(strings.ToLower(path), ".arrows") {
			return ipc.NewWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(s.allocator())), nil
		}
		return ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(s.allocator()))
	})
}

// WriteFile is WriteParquet or WriteIPC by path's extension (.parquet and
// .pq are Parquet, anything else Arrow IPC).
func (s *Scan) WriteFile(ctx context.Context, path string, exprs ...*Expr) error {
	low := strings.ToLower(path)
	if strings.HasSuffix(low, ".parquet") || strings.HasSuffix(low, ".pq") {
		return s.WriteParquet(ctx, path, exprs...)
	}
	return s.WriteIPC(ctx, path, exprs...)
}

func (s *Scan) allocator() memory.Allocator {
	if s.opts.Alloc != nil {
		return s.opts.Alloc
	}
	return exec.DefaultPool()
}

// write runs the scan into a writer over a temporary file beside path,
// renamed to path on success and removed on error.
func (s *Scan) write(ctx context.Context, path string, exprs []*Expr, open func(*os.File, *arrow.Schema) (recordWriter, error)) (err error) {
	if s.err != nil {
		return s.err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	var w recordWriter
	defer func() {
		if w != nil {
			if cerr := w.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("writing %s: %w", path, cerr)
			}
		}
		f.Close()
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	emit := func(rec arrow.Record) error {
		defer rec.Release()
		if w == nil {
			var err error
			if w, err = open(f, rec.Schema()); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
		}
		if err := w.Write(rec); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	}
	if len(exprs) > 0 && exprs[0] != nil && exprs[0].hasAgg() {
		rec, err := s.Aggregate(ctx, exprs...)
		if err != nil {
			return err
		}
		return emit(rec)
	}
	r, err := s.run(ctx, exprs, emit)
	if err != nil {
		return err
	}
	if w == nil { // no batch: an empty file with the results' schema
		if w, err = open(f, r.rowSchema()); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}
