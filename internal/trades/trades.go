// Package trades writes a synthetic trades dataset as Parquet, the same
// rows for the same seed, for the pipeline example, the command's tests
// and the Parquet benchmarks.
//
// Columns: id (int64), sym (int32, 0..99), price (float64, 10..110),
// qty (int32, 1..1000), discount (float32, 0..0.2, null in one row of 16),
// buy (bool), ticker (utf8, sym's name: Ticker(sym), dictionary-encoded
// in the file).
package trades

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Schema is the dataset's schema.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "sym", Type: arrow.PrimitiveTypes.Int32},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64},
	{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	{Name: "discount", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "buy", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "ticker", Type: arrow.BinaryTypes.String},
}, nil)

// Ticker returns the name of symbol sym (0..99): three capital letters,
// distinct for distinct symbols.
func Ticker(sym int32) string {
	n := int(sym) * 7919 % (26 * 26 * 26) // 7919 is prime to 26^3: a bijection
	return string([]byte{byte('A' + n/676), byte('A' + n/26%26), byte('A' + n%26)})
}

// Options shape the file.
type Options struct {
	Rows     int64 // rows in all
	RowGroup int64 // rows per row group (<= 0: 1 Mi)
	Seed     uint64
	// Compress with Snappy (default: uncompressed, which reads fastest).
	Snappy bool
}

// Write writes the dataset to path (through a temporary file beside it,
// renamed once complete) and returns its size in bytes.
func Write(path string, o Options) (int64, error) {
	if o.Rows < 0 {
		return 0, fmt.Errorf("trades: negative row count %d", o.Rows)
	}
	if o.RowGroup <= 0 {
		o.RowGroup = 1 << 20
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	codec := compress.Codecs.Uncompressed
	if o.Snappy {
		codec = compress.Codecs.Snappy
	}
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(o.RowGroup), parquet.WithCompression(codec),
		parquet.WithDictionaryDefault(false), parquet.WithDictionaryFor("ticker", true))
	w, err := pqarrow.NewFileWriter(Schema, f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x7ade5))
	b := arrowarray.NewRecordBuilder(memory.DefaultAllocator, Schema)
	defer b.Release()
	var names [100]string
	for i := range names {
		names[i] = Ticker(int32(i))
	}
	const chunk = 1 << 16
	for done := int64(0); done < o.Rows; {
		n := min(chunk, o.Rows-done)
		ids, syms := b.Field(0).(*arrowarray.Int64Builder), b.Field(1).(*arrowarray.Int32Builder)
		prices, qtys := b.Field(2).(*arrowarray.Float64Builder), b.Field(3).(*arrowarray.Int32Builder)
		discs, buys := b.Field(4).(*arrowarray.Float32Builder), b.Field(5).(*arrowarray.BooleanBuilder)
		tickers := b.Field(6).(*arrowarray.StringBuilder)
		for i := range n {
			id := done + i
			ids.Append(id)
			sym := int32(rng.IntN(100))
			syms.Append(sym)
			tickers.Append(names[sym])
			prices.Append(10 + rng.Float64()*100)
			qtys.Append(int32(1 + rng.IntN(1000)))
			if id%16 == 5 {
				discs.AppendNull()
			} else {
				discs.Append(float32(rng.Float64() * 0.2))
			}
			buys.Append(rng.IntN(2) == 0)
		}
		rec := b.NewRecord()
		err := w.WriteBuffered(rec)
		rec.Release()
		if err != nil {
			return 0, err
		}
		done += n
	}
	if err := w.Close(); err != nil { // closes f too
		return 0, err
	}
	st, err := os.Stat(f.Name())
	if err != nil {
		return 0, err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return 0, err
	}
	ok = true
	return st.Size(), nil
}
