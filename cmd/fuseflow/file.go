// eval and explain over files: column expressions (-e) over a Parquet or
// Arrow IPC file, streamed batch by batch through the fused kernels;
// aggregates printed, row results printed or written with -o.

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fuseflow/fuseflow/codegen"
	fexec "github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/table"
)

// hasExprFlag reports whether args give -e, which selects the file mode.
func hasExprFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-e" || a == "--e" || strings.HasPrefix(a, "-e=") || strings.HasPrefix(a, "--e=") {
			return true
		}
	}
	return false
}

// namedExpr matches "name = expression" (one =, not ==), which names
// the result column.
var namedExpr = regexp.MustCompile(`^\s*([\pL_][\pL\pN_]*)\s*=([^=].*)$`)

// multi is a flag that may be given several times.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// fileFlags are the flags of eval and explain over a file.
type fileFlags struct {
	fs       *flag.FlagSet
	exprs    multi
	filter   string
	by       string
	device   string
	out      string
	budget   string
	batch    int
	progress string
	dot      string
	ptx      bool
	rows     int
}

func newFileFlags(name string, stderr io.Writer) *fileFlags {
	f := &fileFlags{}
	f.fs = newFlagSet(name, stderr, &f.device)
	f.fs.Var(&f.exprs, "e", "a column expression in Go syntax, such as 'sum(price*qty*(1-discount))' (repeatable)")
	f.fs.StringVar(&f.filter, "filter", "", "keep only the rows where this bool expression is true")
	f.fs.StringVar(&f.by, "by", "", "aggregate per value of this column (int32, int64, utf8 or a dictionary of utf8)")
	f.fs.StringVar(&f.budget, "budget", "", "memory budget of the scan, such as 512MiB (default: none)")
	f.fs.IntVar(&f.batch, "batch", 0, "most rows per batch (default 1048576)")
	if name == "eval" {
		f.fs.StringVar(&f.out, "o", "", "write row results to this .parquet, .arrow or .arrows file")
		f.fs.StringVar(&f.progress, "progress", "auto", "progress bar on stderr: auto (when stderr is a terminal), always, never")
		f.fs.IntVar(&f.rows, "rows", 10, "row results to print without -o")
	} else {
		f.fs.StringVar(&f.dot, "dot", "", "write the plan as Graphviz DOT to this file (and an SVG beside it where dot is installed)")
		f.fs.BoolVar(&f.ptx, "ptx", false, "print the kernels' PTX (for -device, or an H100 where it is not a GPU)")
	}
	return f
}

// parse reads the flags, which may come before or after the file.
func (f *fileFlags) parse(args []string) (string, []*table.Expr, *table.Expr, error) {
	var files []string
	for {
		if err := f.fs.Parse(args); err != nil {
			return "", nil, nil, err
		}
		if f.fs.NArg() == 0 {
			break
		}
		files = append(files, f.fs.Arg(0))
		args = f.fs.Args()[1:]
	}
	if len(files) != 1 {
		return "", nil, nil, fmt.Errorf("want one Parquet or Arrow IPC file, got %d", len(files))
	}
	var exprs []*table.Expr
	for _, src := range f.exprs {
		name, text := "", src
		if m := namedExpr.FindStringSubmatch(src); m != nil {
			name, text = m[1], m[2]
		}
		e, err := table.Parse(text)
		if err != nil {
			return "", nil, nil, fmt.Errorf("-e %q: %w", src, err)
		}
		if name != "" {
			e = e.As(name)
		}
		exprs = append(exprs, e)
	}
	var filter *table.Expr
	if f.filter != "" {
		var err error
		if filter, err = table.Parse(f.filter); err != nil {
			return "", nil, nil, fmt.Errorf("-filter %q: %w", f.filter, err)
		}
	}
	return files[0], exprs, filter, nil
}

// parseBytes reads a size such as 512MiB, 2GB or 1000000.
func parseBytes(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mul    int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mul := int64(1)
	num := strings.TrimSpace(s)
	for _, u := range units {
		if strings.HasSuffix(strings.ToUpper(num), strings.ToUpper(u.suffix)) {
			num, mul = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.mul
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad size %q (want a number of bytes such as 512MiB)", s)
	}
	return int64(v * float64(mul)), nil
}

// scanOf opens the scan of file with the flags' options.
func (f *fileFlags) scanOf(file string, be fexec.Backend, filter *table.Expr) (*table.Scan, error) {
	budget, err := parseBytes(f.budget)
	if err != nil {
		return nil, err
	}
	s := table.ScanFile(file, table.Options{Backend: be, Budget: budget, BatchRows: f.batch})
	if filter != nil {
		s = s.Filter(filter)
	}
	if f.by != "" {
		s = s.GroupBy(f.by)
	}
	return s, nil
}

// evalFile evaluates -e expressions over a file.
func evalFile(args []string, stdout, stderr io.Writer) error {
	f := newFileFlags("eval", stderr)
	file, exprs, filter, err := f.parse(args)
	if err != nil {
		return err
	}
	be, done, err := openBackend(f.device)
	if err != nil {
		return err
	}
	defer done()
	s, err := f.scanOf(file, be, filter)
	if err != nil {
		return err
	}
	bar, err := newProgressBar(f.progress, stderr)
	if err != nil {
		return err
	}
	if bar != nil {
		s = s.WithProgress(bar.update)
	}
	ctx := context.Background()
	agg := len(exprs) > 0 && table.IsAggregate(exprs[0])
	start := time.Now()
	switch {
	case agg && f.out == "":
		rec, err := s.Aggregate(ctx, exprs...)
		bar.finish()
		if err != nil {
			return err
		}
		defer rec.Release()
		fmt.Fprintf(stdout, "backend: %s\n", be.Name())
		st := s.Stats()
		fmt.Fprintf(stdout, "rows: %d\n", st.Rows)
		if f.by == "" {
			for i, fld := range rec.Schema().Fields() {
				fmt.Fprintf(stdout, "%s = %s\n", fld.Name, formatValue(rec.Column(i), 0))
			}
			break
		}
		var names []string
		for _, fld := range rec.Schema().Fields() {
			names = append(names, fld.Name)
		}
		fmt.Fprintln(stdout, strings.Join(names, "\t"))
		for r := range int(rec.NumRows()) {
			fmt.Fprintln(stdout, formatRow(rec, r))
		}
	case f.out != "":
		err := s.WriteFile(ctx, f.out, exprs...)
		bar.finish()
		if err != nil {
			return err
		}
		st := s.Stats()
		fmt.Fprintf(stdout, "backend: %s\nrows: %d\nwrote %s\n", be.Name(), st.Rows, f.out)
	default:
		var names []string
		for _, e := range exprs {
			names = append(names, e.Name())
		}
		var lines []string
		total := int64(0)
		err := s.Each(ctx, func(rec arrow.Record) error {
			for r := 0; r < int(rec.NumRows()) && len(lines) < f.rows; r++ {
				lines = append(lines, formatRow(rec, r))
			}
			total += rec.NumRows()
			return nil
		}, exprs...)
		bar.finish()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backend: %s\n", be.Name())
		fmt.Fprintln(stdout, strings.Join(names, "\t"))
		for _, l := range lines {
			fmt.Fprintln(stdout, l)
		}
		if total > int64(len(lines)) {
			fmt.Fprintf(stdout, "... %d rows in all\n", total)
		}
	}
	if bar != nil {
		st := s.Stats()
		el := time.Since(start).Seconds()
		fmt.Fprintf(stderr, "%d rows, %d batches, %s read in %.2fs: %.3g rows/s\n", st.Rows, st.Batches, fexec.FormatBytes(st.Bytes), el, float64(st.Rows)/el)
	}
	return nil
}

// formatRow formats row r of rec, its cells separated by tabs.
func formatRow(rec arrow.Record, r int) string {
	cells := make([]string, rec.NumCols())
	for c := range cells {
		cells[c] = formatValue(rec.Column(c), r)
	}
	return strings.Join(cells, "\t")
}

// formatValue formats row r of a, "null" for a null.
func formatValue(a arrow.Array, r int) string {
	if a.IsNull(r) {
		return "null"
	}
	switch x := a.(type) {
	case *arrowarray.Float64:
		return strconv.FormatFloat(x.Value(r), 'g', -1, 64)
	case *arrowarray.Float32:
		return strconv.FormatFloat(float64(x.Value(r)), 'g', -1, 32)
	case *arrowarray.Int64:
		return strconv.FormatInt(x.Value(r), 10)
	case *arrowarray.Int32:
		return strconv.FormatInt(int64(x.Value(r)), 10)
	case *arrowarray.Boolean:
		return strconv.FormatBool(x.Value(r))
	}
	return a.ValueStr(r)
}

// explainFile prints the plan one batch of the file runs.
func explainFile(args []string, stdout, stderr io.Writer) error {
	f := newFileFlags("explain", stderr)
	file, exprs, filter, err := f.parse(args)
	if err != nil {
		return err
	}
	annotate, done, err := annotator(f.device)
	if err != nil {
		return err
	}
	defer done()
	s, err := f.scanOf(file, nil, filter)
	if err != nil {
		return err
	}
	outs, bound, rows, err := s.Graph(exprs...)
	if err != nil {
		return err
	}
	opts := planOptions(f.device)
	p, err := fuse.BuildWith(outs, bound, opts)
	if err != nil {
		return err
	}
	a, err := annotate(p)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: batches of %d rows (columns the schema marks nullable carry validity masks)\n", filepath.Base(file), rows)
	if _, err := io.WriteString(stdout, fuse.ExplainFor(p, a)); err != nil {
		return err
	}
	if f.dot != "" {
		if err := writeDOT(f.dot, p, stdout); err != nil {
			return err
		}
	}
	if f.ptx {
		gp := p
		if opts != (fuse.Options{}) { // the GPU's planning options
			if gp, err = fuse.BuildWith(outs, bound, fuse.Options{}); err != nil {
				return err
			}
		}
		t, err := ptxTarget(f.device)
		if err != nil {
			return err
		}
		m, err := codegen.Compile(gp, t, codegen.Options{})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "// PTX for %s\n%s", t.Name, m.PTX)
	}
	return nil
}

// ptxTarget returns the target of -device when it is a GPU, else the H100.
func ptxTarget(device string) (codegen.Target, error) {
	if strings.HasPrefix(device, "cuda") {
		be, done, err := openBackend(device)
		if err != nil {
			return codegen.Target{}, err
		}
		defer done()
		if b, ok := be.(interface{ Target() codegen.Target }); ok {
			return b.Target(), nil
		}
	}
	return codegen.H100(), nil
}

// writeDOT writes the plan's DOT to path and, where Graphviz's dot is on
// PATH, renders an SVG beside it (path with .svg for its extension).
func writeDOT(path string, p *fuse.Plan, stdout io.Writer) (err error) {
	fd, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fuse.WriteDOT(fd, p); err != nil {
		fd.Close()
		os.Remove(path)
		return err
	}
	if err := fd.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	dot, err := exec.LookPath("dot")
	if err != nil {
		fmt.Fprintf(stdout, "no SVG: Graphviz dot is not on PATH\n")
		return nil
	}
	svg := strings.TrimSuffix(path, filepath.Ext(path)) + ".svg"
	if out, err := exec.Command(dot, "-Tsvg", "-o", svg, path).CombinedOutput(); err != nil {
		os.Remove(svg)
		return fmt.Errorf("dot -Tsvg %s: %v: %s", path, err, out)
	}
	fmt.Fprintf(stdout, "wrote %s\n", svg)
	return nil
}
