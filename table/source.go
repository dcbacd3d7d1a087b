// Sources of record batches: Parquet files (arrow-go's pqarrow, reading
// only the columns asked, in batches of the rows asked), Arrow IPC files
// and streams, and record readers given by the caller. Reading counts the
// bytes it has read, for progress.

package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/fuseflow/fuseflow/exec"
)

// source opens batch readers over some data.
type source interface {
	// name is the file or source, for messages.
	name() string
	// schema returns the columns (it may read a file's footer).
	schema() (*arrow.Schema, error)
	// open returns a reader of the columns cols (indices in schema; the
	// batches hold only those, in that order, where the source can
	// choose) in batches of about rows rows, allocating from alloc.
	open(ctx context.Context, cols []int, rows int, alloc memory.Allocator) (batchReader, error)
}

// batchReader yields record batches; next returns io.EOF at the end.
type batchReader interface {
	next() (arrow.Record, error)
	// read is the number of bytes read so far, total what reading all
	// batches reads (0: unknown).
	read() int64
	total() int64
	close() error
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r interface {
		io.ReaderAt
		io.Seeker
	}
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingReaderAt) Seek(off int64, whence int) (int64, error) { return c.r.Seek(off, whence) }

func (c *countingReaderAt) Read(p []byte) (int, error) {
	if r, ok := c.r.(io.Reader); ok {
		n, err := r.Read(p)
		c.n.Add(int64(n))
		return n, err
	}
	return 0, errors.New("not a reader")
}

// corrupt turns a panic of a decoder reading path into an error naming
// the file; arrow-go's decoders may panic on malformed input.
// A *exec.MemoryError (the budget's allocator refusing) is no sign of a
// bad file: it is returned as it is.
func corrupt(path string, err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(error); ok {
			var me *exec.MemoryError
			if errors.As(e, &me) {
				*err = fmt.Errorf("%s: %w", path, e)
				return
			}
		}
		*err = fmt.Errorf("%s: corrupt or truncated file: %v", path, r)
	}
}

// parquetSource reads a Parquet file.
type parquetSource struct {
	path  string
	bytes int64
}

func (p *parquetSource) name() string  { return p.path }
func (p *parquetSource) size() int64   { return p.bytes }
func (p *parquetSource) chooses() bool { return true }

// openFile opens the file with a reader over it (the read buffer of each
// column chunk is allocated from alloc) that reads the string columns
// among dict as dictionaries (their batches hold each distinct string of
// a row group once, and string keys are encoded per dictionary entry,
// not per row).
func (p *parquetSource) openFile(alloc memory.Allocator, dict []int) (f *os.File, cr *countingReaderAt, fr *pqarrow.FileReader, rows int, err error) {
	defer corrupt(p.path, &err)
	f, err = os.Open(p.path)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	cr = &countingReaderAt{r: f}
	props := parquet.NewReaderProperties(alloc)
	props.BufferedStreamEnabled = true
	props.BufferSize = readBufferSize
	pr, err := file.NewParquetReader(cr, file.WithReadProps(props))
	if err != nil {
		f.Close()
		return nil, nil, nil, 0, fmt.Errorf("%s: not a readable Parquet file: %w", p.path, err)
	}
	aprops := pqarrow.ArrowReadProperties{BatchSize: int64(max(rows, 1))}
	for _, c := range dict {
		aprops.SetReadDict(c, true) // binary and string columns only
	}
	fr, err = pqarrow.NewFileReader(pr, aprops, alloc)
	if err != nil {
		pr.Close()
		return nil, nil, nil, 0, fmt.Errorf("%s: %w", p.path, err)
	}
	return f, cr, fr, int(pr.NumRows()), nil
}

func (p *parquetSource) schema() (s *arrow.Schema, err error) {
	f, _, fr, _, err := p.openFile(memory.DefaultAllocator, nil)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer corrupt(p.path, &err)
	s, err = fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.path, err)
	}
	return s, nil
}

func (p *parquetSource) open(ctx context.Context, cols []int, rows int, alloc memory.Allocator) (br batchReader, err error) {
	f, cr, fr, _, err := p.openFile(alloc, cols)
	if err != nil {
		return nil, err
	}
	defer corrupt(p.path, &err)
	fr.Props.BatchSize = int64(rows)
	rr, err := fr.GetRecordReader(ctx, cols, nil)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p.path, err)
	}
	return &recordBatches{path: p.path, rr: rr, f: f, counted: cr, bytes: columnBytes(fr, cols)}, nil
}

// columnBytes returns the bytes the column chunks of cols take in the
// file: what reading those columns reads.
func columnBytes(fr *pqarrow.FileReader, cols []int) int64 {
	md := fr.ParquetReader().MetaData()
	var n int64
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for _, c := range cols {
			if cc, err := rg.ColumnChunk(c); err == nil {
				n += cc.TotalCompressedSize()
			}
		}
	}
	return n
}

// recordBatches reads an arrow RecordReader, closing f (if any) at the end.
type recordBatches struct {
	path    string
	rr      arrowarray.RecordReader
	f       io.Closer
	counted *countingReaderAt
	bytes   int64
}

func (r *recordBatches) next() (rec arrow.Record, err error) {
	defer corrupt(r.path, &err)
	if !r.rr.Next() {
		if err := r.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", r.path, err)
		}
		return nil, io.EOF
	}
	rec = r.rr.Record()
	rec.Retain()
	return rec, nil
}

func (r *recordBatches) read() int64 {
	if r.counted == nil {
		return 0
	}
	return r.counted.n.Load()
}

func (r *recordBatches) total() int64 { return r.bytes }

func (r *recordBatches) close() error {
	r.rr.Release()
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}

// ipcSource reads an Arrow IPC file (random access, "ARROW1" magic) or
// stream; its batches are those the writer made.
type ipcSource struct{ path string }

func (s *ipcSource) name() string { return s.path }

func (s *ipcSource) schema() (*arrow.Schema, error) {
	br, err := s.open(context.Background(), nil, 0, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer br.close()
	return br.(*ipcBatches).schema, nil
}

// ipcBatches reads an IPC file batch by batch, or a stream.
type ipcBatches struct {
	path    string
	f       *os.File
	counted *countingReaderAt
	schema  *arrow.Schema
	file    *ipc.FileReader
	stream  *ipc.Reader
	i       int
	bytes   int64
}

func (s *ipcSource) open(_ context.Context, _ []int, _ int, alloc memory.Allocator) (br batchReader, err error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, err
	}
	defer corrupt(s.path, &err)
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	magic := make([]byte, 6)
	n, _ := f.ReadAt(magic, 0)
	b := &ipcBatches{path: s.path, f: f, counted: &countingReaderAt{r: f}, bytes: st.Size()}
	if n == 6 && bytes.Equal(magic, []byte("ARROW1")) {
		b.file, err = ipc.NewFileReader(b.counted, ipc.WithAllocator(alloc))
		if err == nil {
			b.schema = b.file.Schema()
		}
	} else {
		b.stream, err = ipc.NewReader(b.counted, ipc.WithAllocator(alloc))
		if err == nil {
			b.schema = b.stream.Schema()
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a readable Arrow IPC file or stream: %w", s.path, err)
	}
	return b, nil
}

func (b *ipcBatches) next() (rec arrow.Record, err error) {
	defer corrupt(b.path, &err)
	if b.file != nil {
		if b.i >= b.file.NumRecords() {
			return nil, io.EOF
		}
		rec, err = b.file.RecordAt(b.i)
		if err != nil {
			return nil, fmt.Errorf("%s: batch %d: %w", b.path, b.i, err)
		}
		b.i++
		return rec, nil
	}
	if !b.stream.Next() {
		if err := b.stream.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: batch %d: %w", b.path, b.i, err)
		}
		return nil, io.EOF
	}
	b.i++
	rec = b.stream.Record()
	rec.Retain()
	return rec, nil
}

func (b *ipcBatches) read() int64  { return b.counted.n.Load() }
func (b *ipcBatches) total() int64 { return b.bytes }

func (b *ipcBatches) close() error {
	if b.file != nil {
		b.file.Close()
	} else {
		b.stream.Release()
	}
	return b.f.Close()
}

// readerSource reads batches from a caller's RecordReader, once.
type readerSource struct {
	label string
	rr    arrowarray.RecordReader
	used  atomic.Bool
}

func (r *readerSource) name() string                   { return r.label }
func (r *readerSource) schema() (*arrow.Schema, error) { return r.rr.Schema(), nil }

func (r *readerSource) open(context.Context, []int, int, memory.Allocator) (batchReader, error) {
	if r.used.Swap(true) {
		return nil, fmt.Errorf("%s: a record reader is read once; it was read already", r.label)
	}
	r.rr.Retain()
	return &recordBatches{path: r.label, rr: r.rr}, nil
}
