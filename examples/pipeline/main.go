// Command pipeline is fuseflow's analytics example: it writes a synthetic
// trades dataset as Parquet (10 million rows in row groups of 1 Mi rows
// by default), streams it through fused kernels batch by batch within a
// memory budget, and prints the aggregates with the throughput (rows/s,
// GB/s of Parquet read) on whichever backend is present (a GPU where
// there is one; FUSEFLOW_DEVICE=cpu forces the CPU).
//
//	go run ./examples/pipeline                 # 10M rows
//	go run ./examples/pipeline -rows 100000000 -budget 1GiB -file /data/trades.parquet
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fuseflow/fuseflow/exec"
	_ "github.com/fuseflow/fuseflow/exec/all"
	"github.com/fuseflow/fuseflow/internal/trades"
	"github.com/fuseflow/fuseflow/table"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}

// aggregates are what the pipeline computes, in one pass over the file.
func aggregates() []*table.Expr {
	price, qty := table.Col("price"), table.Col("qty")
	disc := table.Col("discount").FillNull(0)
	notional := price.Mul(qty)
	return []*table.Expr{
		table.Count(table.Col("id")).As("trades"),
		table.Sum(notional.Mul(table.Lit(1).Sub(disc))).As("net notional"),
		table.Sum(notional).Div(table.Sum(qty)).As("vwap"),
		table.Sum(table.Where(table.Col("buy"), qty, table.Col("qty").Neg())).As("net quantity"),
		table.Mean(table.Col("discount")).As("mean discount"),
		table.Count(table.Col("discount")).As("discounted trades"),
		table.Var(price, 1).Sqrt().As("price stddev"),
		table.Max(price).Sub(table.Min(price)).As("price range"),
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	rows := fs.Int64("rows", 10_000_000, "rows of the dataset")
	group := fs.Int64("rowgroup", 1<<20, "rows per Parquet row group")
	file := fs.String("file", "", "the dataset's path (default: a temporary file, removed at the end)")
	keep := fs.Bool("reuse", false, "reuse -file when it exists instead of writing it again")
	budget := fs.Int64("budget", 256<<20, "memory budget of the scan in bytes")
	writeOnly := fs.Bool("write-only", false, "write the dataset (at -file) and stop")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path := *file
	if path == "" {
		dir, err := os.MkdirTemp("", "fuseflow-pipeline")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "trades.parquet")
	}
	if st, err := os.Stat(path); !*keep || err != nil {
		start := time.Now()
		size, err := trades.Write(path, trades.Options{Rows: *rows, RowGroup: *group, Seed: 1})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %s: %d rows, %s in %v\n", filepath.Base(path), *rows, exec.FormatBytes(size), time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(out, "reusing %s (%s)\n", path, exec.FormatBytes(st.Size()))
	}
	if *writeOnly {
		return nil
	}

	be, err := exec.OpenDefault()
	if err != nil {
		return err
	}
	if c, ok := be.(io.Closer); ok {
		defer c.Close()
	}
	ctx := context.Background()
	s := table.ScanParquet(path, table.Options{Backend: be, Budget: *budget})
	// A first pass warms the plan cache and the page cache; the second
	// is timed.
	for pass := range 2 {
		rec, err := s.Aggregate(ctx, aggregates()...)
		if err != nil {
			return err
		}
		if pass == 1 {
			report(out, be.Name(), rec, s.Stats())
		}
		rec.Release()
	}

	// A grouped aggregate by the string column ticker: its strings get
	// dense codes on the host, the kernels reduce per code.
	byTicker := s.GroupBy("ticker")
	price, qty := table.Col("price"), table.Col("qty")
	rec, err := byTicker.Aggregate(ctx, table.Count(table.Col("id")).As("trades"),
		table.Sum(price.Mul(qty)).Div(table.Sum(qty)).As("vwap"))
	if err != nil {
		return err
	}
	gst := byTicker.Stats()
	fmt.Fprintf(out, "by ticker: %d tickers in %v (%.3g rows/s)\n", rec.NumRows(), gst.Elapsed.Round(time.Millisecond),
		float64(gst.Rows)/gst.Elapsed.Seconds())
	for r := range min(int(rec.NumRows()), 3) {
		fmt.Fprintf(out, "  %s  trades %s  vwap %s\n", rec.Column(0).ValueStr(r), rec.Column(1).ValueStr(r),
			strconv.FormatFloat(rec.Column(2).(*array.Float64).Value(r), 'f', 4, 64))
	}
	rec.Release()

	// Row results: the big buys' net notional, filtered by a mask in the
	// same kernels, written back as Parquet.
	big := s.Filter(table.Col("buy").And(table.Col("qty").Ge(900)))
	outPath := filepath.Join(filepath.Dir(path), "big_buys.parquet")
	if *file != "" {
		defer os.Remove(outPath)
	}
	net := table.Col("price").Mul(table.Col("qty")).Mul(table.Lit(1).Sub(table.Col("discount").FillNull(0)))
	if err := big.WriteParquet(ctx, outPath, table.Col("id"), net.As("net")); err != nil {
		return err
	}
	st := big.Stats()
	kept, err := table.ScanParquet(outPath, table.Options{Backend: be}).Aggregate(ctx, table.Count(table.Col("id")), table.Sum(table.Col("net")))
	if err != nil {
		return err
	}
	defer kept.Release()
	fmt.Fprintf(out, "big buys: %s rows, net %s, written in %v (%.3g rows/s)\n", value(kept.Column(0)), value(kept.Column(1)),
		st.Elapsed.Round(time.Millisecond), float64(st.Rows)/st.Elapsed.Seconds())
	return nil
}

// report prints the aggregates and the throughput of a run.
func report(out io.Writer, backend string, rec arrow.Record, st table.Stats) {
	fmt.Fprintf(out, "backend %s, batches of %d rows, peak memory %s\n", backend, st.BatchRows, exec.FormatBytes(st.Peak))
	for i, f := range rec.Schema().Fields() {
		fmt.Fprintf(out, "  %-18s %s\n", f.Name, value(rec.Column(i)))
	}
	secs := st.Elapsed.Seconds()
	fmt.Fprintf(out, "%d rows in %d batches, %v: %.3g rows/s, %.3g GB/s of Parquet read (%s)\n",
		st.Rows, st.Batches, st.Elapsed.Round(time.Microsecond), float64(st.Rows)/secs, float64(st.Bytes)/secs/1e9, exec.FormatBytes(st.Bytes))
}

// value formats the one value of a, "null" for a null.
func value(a arrow.Array) string {
	if a.IsNull(0) {
		return "null"
	}
	s := a.ValueStr(0)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f != float64(int64(f)) {
		return strconv.FormatFloat(f, 'f', 4, 64)
	}
	return s
}
