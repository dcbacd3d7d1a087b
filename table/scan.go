// Scan: a lazy view of a source of record batches, with a filter, whose
// column expressions and aggregates are planned once per batch shape and
// run batch by batch through the fused kernels within a memory budget.

package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Options configure a Scan.
type Options struct {
	// Backend evaluates the kernels (nil: the process's default backend,
	// see exec.OpenDefault, opened once).
	Backend exec.Backend
	// Alloc allocates every buffer the scan reads and computes (nil:
	// exec.DefaultPool()).
	Alloc memory.Allocator
	// Budget bounds the bytes live at once in Alloc while the scan runs:
	// the batch being read, its masks, the kernels' buffers and the
	// batch's results until they are handed on (<= 0: no bound). The batch
	// size follows from it; going over it anyway (a Parquet page or an IPC
	// batch larger than the budget) fails the scan with *exec.MemoryError.
	Budget int64
	// BatchRows caps the rows per batch (<= 0: 1 Mi rows). Parquet
	// sources read batches of this size (or what Budget allows); IPC
	// files and record readers keep the batches they hold.
	BatchRows int
	// Progress, when set, is called after each batch.
	Progress func(Progress)
}

// Progress reports how far a scan has gone.
type Progress struct {
	Bytes, TotalBytes int64 // read so far, and the source's size (0: unknown)
	Rows              int64
	Batches           int
	Elapsed           time.Duration
}

// Stats describes a finished scan.
type Stats struct {
	Rows      int64
	Batches   int
	Bytes     int64 // bytes read from the source
	BatchRows int   // the batch size asked of the source
	Peak      int64 // most bytes live at once in the scan's allocator
	Plans     int   // distinct batch shapes planned
	Elapsed   time.Duration
}

// Scan is a lazy view of a source of record batches: nothing is read
// until Aggregate, Each, Collect or a Write method runs it. A Scan is
// immutable (Filter returns a new one) and may be run several times,
// except one over a RecordReader, which is read once. Runs are safe for
// concurrent use.
type Scan struct {
	src    source
	filter *Expr
	group  string // GroupBy's key column ("": none)
	opts   Options
	err    error
	stats  *Stats
	mu     *sync.Mutex
}

func newScan(src source, opts Options) *Scan {
	return &Scan{src: src, opts: opts, mu: &sync.Mutex{}, stats: &Stats{}}
}

// ScanParquet returns a scan of the Parquet file at path, reading only
// the columns the expressions use.
func ScanParquet(path string, opts Options) *Scan { return newScan(&parquetSource{path: path}, opts) }

// ScanIPC returns a scan of the Arrow IPC file or stream at path (told
// apart by the file format's magic bytes).
func ScanIPC(path string, opts Options) *Scan { return newScan(&ipcSource{path: path}, opts) }

// ScanFile returns ScanParquet or ScanIPC by path's extension (.parquet,
// .pq; .arrow, .arrows, .ipc, .feather), else by the file's first bytes.
func ScanFile(path string, opts Options) *Scan {
	switch kind, err := fileKind(path); {
	case err != nil:
		return &Scan{err: err, mu: &sync.Mutex{}, stats: &Stats{}}
	case kind == "parquet":
		return ScanParquet(path, opts)
	default:
		return ScanIPC(path, opts)
	}
}

// fileKind says whether path is "parquet" or "ipc".
func fileKind(path string) (string, error) {
	low := strings.ToLower(path)
	for _, ext := range []string{".parquet", ".pq"} {
		if strings.HasSuffix(low, ext) {
			return "parquet", nil
		}
	}
	for _, ext := range []string{".arrow", ".arrows", ".ipc", ".feather"} {
		if strings.HasSuffix(low, ext) {
			return "ipc", nil
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(f, magic); err == nil && string(magic) == "PAR1" {
		return "parquet", nil
	}
	return "ipc", nil
}

// ScanRecords returns a scan of the batches of rr (retained while the scan
// runs); it can run once.
func ScanRecords(rr arrowarray.RecordReader, opts Options) *Scan {
	return newScan(&readerSource{label: "record reader", rr: rr}, opts)
}

// Filter returns the scan of the rows where pred is true (rows where it is
// null are dropped, as Arrow's filter drops them); a second Filter keeps
// the rows both keep. Aggregates see the kept rows only; column results
// hold only the kept rows.
func (s *Scan) Filter(pred *Expr) *Scan {
	c := *s
	if s.filter != nil {
		pred = s.filter.And(pred)
	}
	c.filter = pred
	c.stats = &Stats{}
	return &c
}

// WithProgress returns the scan calling fn after each batch.
func (s *Scan) WithProgress(fn func(Progress)) *Scan {
	c := *s
	c.opts.Progress = fn
	c.stats = &Stats{}
	return &c
}

// IsAggregate reports whether e holds an aggregate (its value is one row).
func IsAggregate(e *Expr) bool { return e != nil && e.hasAgg() }

// Stats returns what the last finished run of s did.
func (s *Scan) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.stats
}

// Schema returns the source's columns.
func (s *Scan) Schema() (*arrow.Schema, error) {
	if s.err != nil {
		return nil, s.err
	}
	return s.src.schema()
}

var (
	defaultBackendOnce sync.Once
	defaultBackend     exec.Backend
	defaultBackendErr  error
)

func (s *Scan) backend() (exec.Backend, error) {
	if s.opts.Backend != nil {
		return s.opts.Backend, nil
	}
	defaultBackendOnce.Do(func() { defaultBackend, defaultBackendErr = exec.OpenDefault() })
	return defaultBackend, defaultBackendErr
}

// query is what a run computes: column results (rows) or aggregates.
type query struct {
	exprs []*Expr
	aggs  []*Expr // the aggregates of an aggregate query, once each
	cols  []string
	group string
}

func newQuery(exprs []*Expr, filter *Expr, group string) (*query, error) {
	if len(exprs) == 0 {
		return nil, errors.New("no expressions to compute")
	}
	q := &query{exprs: exprs}
	nagg := 0
	var agg, row *Expr
	for _, e := range exprs {
		if e == nil {
			return nil, errors.New("nil *Expr")
		}
		if e.hasAgg() {
			nagg++
			agg = e
		} else {
			row = e
		}
	}
	if nagg != 0 && nagg != len(exprs) {
		return nil, fmt.Errorf("%s is an aggregate (one row), %s a row expression (a row per row): compute them in separate runs", agg.Name(), row.Name())
	}
	seen := map[*Expr]bool{}
	for _, e := range exprs {
		if nagg > 0 {
			aggs, err := collectAggs(e, nil, false)
			if err != nil {
				return nil, err
			}
			for _, a := range aggs {
				if !seen[a] {
					seen[a] = true
					q.aggs = append(q.aggs, a)
				}
			}
			for _, a := range aggs {
				q.cols = a.columns(q.cols)
			}
		} else {
			q.cols = e.columns(q.cols)
		}
	}
	if filter != nil {
		q.cols = filter.columns(q.cols)
	}
	if group != "" {
		if nagg == 0 {
			return nil, fmt.Errorf("GroupBy %q: %s is a row expression; a grouped scan computes aggregates", group, exprs[0].Name())
		}
		q.group = group
		q.cols = Col(group).columns(q.cols)
	}
	return q, nil
}

// program is the compiled graph of one batch shape: outputs and where each
// result's nodes are among them.
type program struct {
	c       *compiler
	outputs []*graph.Node
	// rows queries: per expression the output index of values and of
	// validity (-1: none), and of the filter's mask (-1: none).
	vals, oks []int
	mask      int
	// aggregate queries: per partial the output indices of count, acc, m2.
	parts [][3]int
	types []graph.DType // result dtypes of rows queries
}

// compile plans q for batches of n rows with nulls in the columns nulls
// names.
func compile(q *query, filter *Expr, si schemaInfo, n, groups int, nulls map[string]bool) (*program, error) {
	c := newCompiler(n, si, nulls)
	switch {
	case q.group != "" && groups > BroadcastGroups:
		c.hostGroups = true
	case q.group != "":
		c.groups = groups
		c.codes = graph.Input(graph.Int32, graph.Shape{n}, q.group+".code")
	}
	p := &program{mask: -1}
	out := func(x *graph.Node) int {
		if x == nil {
			return -1
		}
		p.outputs = append(p.outputs, x)
		return len(p.outputs) - 1
	}
	if filter != nil {
		f, err := c.build(filter)
		if err != nil {
			return nil, fmt.Errorf("filter %v: %w", filter, err)
		}
		if f.v.DType() != graph.Bool {
			return nil, fmt.Errorf("filter %v: is %v, want bool", filter, f.v.DType())
		}
		c.mask = and(f.v, f.ok)
	}
	if q.aggs != nil {
		for _, a := range q.aggs {
			if err := c.aggregate(a); err != nil {
				return nil, err
			}
		}
		if q.group != "" {
			c.rowsPerGroup()
		}
		for _, pt := range c.parts {
			p.parts = append(p.parts, [3]int{out(pt.count), out(pt.acc), out(pt.m2)})
		}
		p.c = c
		return p, nil
	}
	for _, e := range q.exprs {
		v, err := c.build(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		p.vals = append(p.vals, out(v.v))
		p.oks = append(p.oks, out(v.ok))
		p.types = append(p.types, v.v.DType())
	}
	p.mask = out(c.mask)
	p.c = c
	return p, nil
}

// runner runs one query over one source.
type runner struct {
	s       *Scan
	q       *query
	si      schemaInfo
	be      exec.Backend
	alloc   memory.Allocator
	peak    *peakAllocator
	progs   map[string]*program
	planned int
	aggs    []*aggState
	types   []graph.DType // of row results
	grp     *grouping
	start   time.Time
	stats   Stats
}

// run reads the source batch by batch, computes q over each batch and
// hands row results to emit (which must release the record); aggregates
// are combined into r.aggs.
func (s *Scan) run(ctx context.Context, exprs []*Expr, emit func(arrow.Record) error) (r *runner, err error) {
	if s.err != nil {
		return nil, s.err
	}
	defer exec.RecoverMemoryError(&err)
	q, err := newQuery(exprs, s.filter, s.group)
	if err != nil {
		return nil, err
	}
	sch, err := s.src.schema()
	if err != nil {
		return nil, err
	}
	si := schemaInfo{s: sch, from: s.src.name()}
	be, err := s.backend()
	if err != nil {
		return nil, err
	}
	alloc := s.opts.Alloc
	if alloc == nil {
		alloc = exec.DefaultPool()
	}
	if s.opts.Budget > 0 {
		alloc = exec.NewLimitedAllocator(alloc, exec.Limits{MemoryLimit: s.opts.Budget})
	}
	r = &runner{s: s, q: q, si: si, be: be, peak: &peakAllocator{inner: alloc}, progs: map[string]*program{}, start: time.Now()}
	r.alloc = r.peak
	// Plan once before reading: every error of the expressions (unknown
	// columns, types, ops) comes before the first byte of data.
	probe, colIdx, rows, err := s.size(q, si)
	if err != nil {
		return nil, err
	}
	r.stats.BatchRows = rows
	r.types = probe.types
	if q.group != "" {
		if r.grp, err = newGrouping(q.group, si); err != nil {
			return nil, err
		}
	}
	if q.aggs != nil {
		for _, pt := range probe.c.parts {
			r.aggs = append(r.aggs, newAggState(pt))
		}
	}
	br, err := s.src.open(ctx, colIdx, rows, r.alloc)
	if err != nil {
		return nil, err
	}
	defer br.close()
	batches := r.batches(ctx, br)
	defer batches.stop()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := batches.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		out, err := r.batch(ctx, rec)
		rec.release()
		if err != nil {
			return nil, err
		}
		r.stats.Bytes = br.read()
		if out != nil {
			if err := emit(out); err != nil {
				return nil, err
			}
		}
		if s.opts.Progress != nil {
			s.opts.Progress(Progress{Bytes: r.stats.Bytes, TotalBytes: br.total(), Rows: r.stats.Rows,
				Batches: r.stats.Batches, Elapsed: time.Since(r.start)})
		}
	}
	r.stats.Peak = r.peak.peak.Load()
	r.stats.Plans = r.planned
	r.stats.Elapsed = time.Since(r.start)
	s.mu.Lock()
	*s.stats = r.stats
	s.mu.Unlock()
	return r, nil
}

// batch computes the query over one prepared batch: the row results as
// a record (nil for aggregate queries, whose partials it combines).
func (r *runner) batch(ctx context.Context, pb *prepared) (arrow.Record, error) {
	n := pb.n
	r.stats.Batches++
	r.stats.Rows += int64(n)
	if n == 0 {
		return nil, nil
	}
	codes, groups := pb.codes, pb.groups
	var key strings.Builder
	key.WriteString(pb.key)
	if r.grp != nil {
		if groups > BroadcastGroups {
			key.WriteString(";host") // the plan does not depend on the groups
		} else {
			fmt.Fprintf(&key, ";%d", groups)
		}
	}
	nulls := pb.nulls
	p := r.progs[key.String()]
	if p == nil {
		var err error
		if p, err = compile(r.q, r.s.filter, r.si, n, groups, nulls); err != nil {
			return nil, err
		}
		if len(r.progs) >= 8 {
			clear(r.progs)
		}
		r.progs[key.String()] = p
		r.planned++
	}
	req := &exec.Request{Outputs: p.outputs, Bound: make(map[*graph.Node]*exec.Tensor, 2*len(p.c.order)), Alloc: r.alloc}
	defer func() {
		for _, t := range req.Bound {
			t.Release()
		}
	}()
	if p.c.codes != nil {
		codes.Buf.Retain()
		req.Bound[p.c.codes] = &exec.Tensor{Buf: codes.Buf, Layout: codes.Layout}
	}
	for _, in := range p.c.order {
		if d, ok := pb.dev[in.name]; ok { // uploaded ahead
			if d[0] == nil || (in.ok != nil && d[1] == nil) {
				return nil, fmt.Errorf("%s: column %q was not uploaded with its validity", r.si.from, in.name)
			}
			req.Bound[in.v] = d[0].View(d[0].Shape, d[0].Strides, d[0].Offset)
			if in.ok != nil {
				req.Bound[in.ok] = d[1].View(d[1].Shape, d[1].Strides, d[1].Offset)
			}
			continue
		}
		a := pb.cols[in.name]
		t, err := valuesTensor(a, in.dtype, r.alloc)
		if err != nil {
			return nil, fmt.Errorf("%s: column %q: %w", r.si.from, in.name, err)
		}
		req.Bound[in.v] = t
		if in.ok != nil {
			if t, err = validTensor(a, r.alloc); err != nil {
				return nil, err
			}
			req.Bound[in.ok] = t
		}
	}
	var res []*exec.Tensor
	var err error
	if len(p.outputs) > 0 { // counts of rows without nulls or filter need no kernel
		if res, err = r.be.Eval(ctx, req); err != nil {
			return nil, err
		}
	}
	hosts, done, err := hostTensors(ctx, r.be, res, r.alloc)
	defer done()
	if err != nil {
		return nil, err
	}
	// Release the inputs before building the output: the batch's bytes
	// need not be live beside its results.
	for k, t := range req.Bound {
		t.Release()
		delete(req.Bound, k)
	}
	if r.q.aggs != nil {
		for i, pt := range p.parts {
			if p.c.hostGroups {
				r.aggs[i].addRows(hosts, pt, exec.Elems[int32](codes)[:n], groups)
			} else {
				r.aggs[i].add(hosts, pt, n, groups)
			}
		}
		return nil, nil
	}
	return r.rows(p, hosts)
}

// rows builds the record of a batch's row results.
func (r *runner) rows(p *program, hosts []*exec.Tensor) (arrow.Record, error) {
	var keep []uint8
	kept := 0
	if p.mask >= 0 {
		keep = elems[uint8](hosts[p.mask])
		for _, k := range keep {
			kept += int(k)
		}
	}
	cols := make([]arrow.Array, len(p.vals))
	defer releaseArrays(cols)
	for i, vi := range p.vals {
		var ok *exec.Tensor
		if p.oks[i] >= 0 {
			ok = hosts[p.oks[i]]
		}
		a, err := toArrow(hosts[vi], ok, keep, kept, r.alloc)
		if err != nil {
			return nil, err
		}
		cols[i] = a
	}
	return arrayRecord(r.schemaOf(p.types), cols), nil
}

// schemaOf returns the schema of row results of dtypes ts.
func (r *runner) schemaOf(ts []graph.DType) *arrow.Schema {
	fields := make([]arrow.Field, len(ts))
	for i, d := range ts {
		fields[i] = arrow.Field{Name: r.q.exprs[i].Name(), Type: arrowTypes[d], Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// size plans q once for a batch of one row (so that every error of the
// expressions comes before any data is read) and returns that plan, the
// source columns q reads and the rows per batch the options allow.
func (s *Scan) size(q *query, si schemaInfo) (probe *program, colIdx []int, rows int, err error) {
	probe, err = compile(q, s.filter, si, 1, 1, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	inBytes, outBytes := 0, 0
	for _, name := range q.cols {
		if idx := si.s.FieldIndices(name); name == q.group && len(idx) == 1 && isStringKey(si.s.Field(idx[0]).Type) {
			// A string key: its offsets or indices, a guess at its
			// characters, and the codes it becomes.
			colIdx = append(colIdx, idx[0])
			inBytes += 8 + 8 + 4 + 1
			continue
		}
		idx, d, err := si.lookup(name)
		if err != nil {
			return nil, nil, 0, err
		}
		colIdx = append(colIdx, idx)
		inBytes += d.Size() + 1
	}
	for _, d := range probe.types {
		outBytes += d.Size() + 1
	}
	rows, err = batchRowsFor(s.opts.Budget, len(colIdx), inBytes, outBytes, s.opts.BatchRows)
	return probe, colIdx, rows, err
}

// Graph returns what one batch of the scan evaluates for exprs: the
// graph's outputs (row results with their validity and the filter's
// mask, or aggregates' partial states) and the layouts of its inputs,
// for a full batch (the rows Budget and BatchRows allow, returned) in
// which the columns the schema marks nullable have nulls (and, with
// GroupBy, 16 groups). For explaining
// plans; running the scan plans the same way per batch.
func (s *Scan) Graph(exprs ...*Expr) (outputs []*graph.Node, inputs map[*graph.Node]graph.Layout, rows int, err error) {
	if s.err != nil {
		return nil, nil, 0, s.err
	}
	q, err := newQuery(exprs, s.filter, s.group)
	if err != nil {
		return nil, nil, 0, err
	}
	sch, err := s.src.schema()
	if err != nil {
		return nil, nil, 0, err
	}
	si := schemaInfo{s: sch, from: s.src.name()}
	_, _, rows, err = s.size(q, si)
	if err != nil {
		return nil, nil, 0, err
	}
	nulls := map[string]bool{}
	for _, name := range q.cols {
		if f, ok := sch.FieldsByName(name); ok && f[0].Nullable {
			nulls[name] = true
		}
	}
	p, err := compile(q, s.filter, si, rows, 16, nulls)
	if err != nil {
		return nil, nil, 0, err
	}
	inputs = map[*graph.Node]graph.Layout{}
	if p.c.codes != nil {
		inputs[p.c.codes] = graph.ContiguousLayout(graph.Int32, graph.Shape{rows})
	}
	for _, in := range p.c.order {
		inputs[in.v] = graph.ContiguousLayout(in.dtype, graph.Shape{rows})
		if in.ok != nil {
			inputs[in.ok] = graph.ContiguousLayout(graph.Bool, graph.Shape{rows})
		}
	}
	return p.outputs, inputs, rows, nil
}
