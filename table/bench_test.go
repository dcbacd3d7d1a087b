package table_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fuseflow/fuseflow/internal/trades"
	"github.com/fuseflow/fuseflow/table"
)

var parquetFile = flag.String("parquet", "", "BenchmarkParquetAggregate: also run over this trades file (bench/parquet_suite.sh)")

// BenchmarkParquetAggregate reads price, qty and discount of a trades
// file and sums price*qty*(1-discount) in one fused pass per batch (the
// workload bench/parquet_peers.py runs with NumPy and pyarrow). It
// reports rows/s; SetBytes is the column bytes read per run.
func BenchmarkParquetAggregate(b *testing.B) {
	for _, rows := range []int64{1 << 20, 8 << 20} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "trades.parquet")
			if _, err := trades.Write(path, trades.Options{Rows: rows, RowGroup: 1 << 20, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			benchAggregate(b, path)
		})
	}
	if *parquetFile != "" {
		b.Run("file", func(b *testing.B) { benchAggregate(b, *parquetFile) })
	}
}

// BenchmarkParquetGroupBy sums price*qty per sym (100 keys) of a trades
// file, and per ticker (the same 100 groups by a string key): the kernels
// compute the row values, the host adds them up by key code.
func BenchmarkParquetGroupBy(b *testing.B) {
	rows := int64(1 << 20)
	b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "trades.parquet")
		if _, err := trades.Write(path, trades.Options{Rows: rows, RowGroup: 1 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		benchScan(b, table.ScanParquet(path, table.Options{}).GroupBy("sym"), "sum(price*qty)")
	})
	// The same groups by the string column ticker (utf8 in Arrow,
	// dictionary-encoded in the file): the host hashes each row's string.
	b.Run(fmt.Sprintf("ticker/rows=%d", rows), func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "trades.parquet")
		if _, err := trades.Write(path, trades.Options{Rows: rows, RowGroup: 1 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		benchScan(b, table.ScanParquet(path, table.Options{}).GroupBy("ticker"), "sum(price*qty)")
	})
	if *parquetFile != "" {
		b.Run("file", func(b *testing.B) {
			benchScan(b, table.ScanParquet(*parquetFile, table.Options{}).GroupBy("sym"), "sum(price*qty)")
		})
	}
}

func benchAggregate(b *testing.B, path string) {
	benchScan(b, table.ScanParquet(path, table.Options{}), "sum(price*qty*(1-discount))")
}

func benchScan(b *testing.B, s *table.Scan, src string) {
	e, err := table.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run := func() {
		rec, err := s.Aggregate(ctx, e)
		if err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	run()
	rows := s.Stats().Rows
	b.SetBytes(s.Stats().Bytes)
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
