package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPipeline runs the example on a small dataset of several row groups.
func TestPipeline(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-rows", "20000", "-rowgroup", "6000", "-budget", "8388608"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"wrote trades.parquet: 20000 rows", "trades             20000",
		"discounted trades  18750", "20000 rows in 1 batches", "rows/s", "GB/s", "by ticker: 100 tickers", "big buys:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
