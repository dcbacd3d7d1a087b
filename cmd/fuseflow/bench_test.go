package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBench(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "b.svg")
	var o, e bytes.Buffer
	args := []string{"bench", "-rows", "3000", "-runs", "1", "-python", "", "-file", filepath.Join(dir, "t.parquet"), "-svg", svg}
	if code := run(args, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	for _, w := range []string{"sum(price*qty*(1-discount))", "sum(price*qty) by sym", "fuseflow (cpu)", "wrote " + svg} {
		if !strings.Contains(o.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, o.String())
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name   `xml:"svg"`
		Rects   []struct{} `xml:"rect"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Rects) != 2 {
		t.Errorf("SVG got:%d bars, %v want 2 bars of well-formed XML", len(doc.Rects), err)
	}
}

func TestParsePeers(t *testing.T) {
	in := "peer duckdb 3.5e7 280.1 2.5e11\nnoise\npeer polars/groupby 2.2e7 446.6 3e9\npeer bad x y z\n"
	got := parsePeers(strings.NewReader(in))
	if len(got) != 2 || got[0] != (benchResult{0, "duckdb", 3.5e7, 280.1}) || got[1] != (benchResult{1, "polars", 2.2e7, 446.6}) {
		t.Errorf("got:%+v", got)
	}
}
