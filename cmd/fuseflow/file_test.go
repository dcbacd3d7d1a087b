package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/trades"
)

var update = flag.Bool("update", false, "rewrite testdata/file.golden")

// tradesDir writes a small trades file (1000 rows in row groups of 300)
// and a corrupt and a truncated copy into a temporary folder.
func tradesDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "trades.parquet")
	if _, err := trades.Write(path, trades.Options{Rows: 1000, RowGroup: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "truncated.parquet"), data[:len(data)-50], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.arrow"), []byte("not arrow at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFileGolden runs eval and explain over a generated file and compares
// stdout, stderr and the exit status of each with testdata/file.golden
// (the temporary folder written as $DIR).
func TestFileGolden(t *testing.T) {
	dir := tradesDir(t)
	f := filepath.Join(dir, "trades.parquet")
	out := filepath.Join(dir, "out.parquet")
	cmds := [][]string{
		{"eval", "-e", "count(discount)", "-e", "sum(qty)", "-e", "min(price)", "-e", "max(qty) - min(qty)", "-e", "mean(qty)", f},
		{"eval", "-e", "sum(where(buy, 1, 0))", "-e", "count(id)", "-filter", "qty > 500", f},
		{"eval", "-e", "id", "-e", "qty * 2", "-e", "fill_null(discount, -1)", "-e", "is_null(discount)", "-rows", "6", "-batch", "400", f},
		{"eval", "-e", "id", "-e", "q2s = qty*2 + sym", "-filter", "sym == 7", "-o", out, f},
		{"eval", "-e", "count(id)", "-e", "sum(q2s)", "-e", "max(id)", "-e", "total = sum(q2s) - 7*count(id)", out},
		{"eval", "-e", "sum(qty*2 + sym)", "-e", "total=sum(qty*2)", "-filter", "sym == 7", f},
		{"eval", "-device", "ref", "-e", "sum(sym)", f, "-budget", "64MiB"},
		{"eval", "-e", "n=count(id)", "-e", "sum(qty)", "-e", "max(id)", "-e", "min(discount) >= 0", "-filter", "sym < 4", "-by", "sym", f},
		{"eval", "-e", "n=count(id)", "-e", "sum(qty)", "-filter", "sym < 4", "-by", "ticker", f},
		{"eval", "-e", "n=count(id)", "-by", "price", f},
		{"explain", "-device", "h100", "-e", "sum(price*qty*(1-discount))", f},
		{"eval", "-e", "frob(price)", f},
		{"eval", "-e", "sum(prise)", f},
		{"eval", "-e", "sum(price", f},
		{"eval", "-e", "sum(price) + ", f},
		{"eval", "-e", "sqrt(buy)", f},
		{"eval", "-e", "sum(price)", "-filter", "price", f},
		{"eval", "-e", "sum(price)", filepath.Join(dir, "missing.parquet")},
		{"eval", "-e", "sum(price)", filepath.Join(dir, "truncated.parquet")},
		{"eval", "-e", "sum(price)", filepath.Join(dir, "notes.arrow")},
		{"eval", "-e", "sum(price)", "-budget", "lots", f},
		{"eval", "-e", "sum(price)", "-budget", "1MiB", f},
		{"eval", "-e", "sum(price)", "-e", "price", f},
		{"eval", "-e", "sum(price)"},
	}
	var got bytes.Buffer
	for _, c := range cmds {
		var o, e bytes.Buffer
		code := run(c, &o, &e)
		got.WriteString("$ fuseflow " + strings.Join(quoteArgs(c), " ") + "\n")
		got.WriteString(o.String())
		if e.Len() > 0 {
			got.WriteString("stderr: " + e.String())
		}
		got.WriteString("exit " + strconv.Itoa(code) + "\n\n")
	}
	text := strings.ReplaceAll(got.String(), dir, "$DIR")
	golden := filepath.Join("testdata", "file.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if text != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", golden, lineDiff(string(want), text))
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("-o %s: %v", out, err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file was left behind: %s", e.Name())
		}
	}
}

// quoteArgs quotes the arguments that hold spaces or shell characters.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " *()<>=&|!,") {
			a = "'" + a + "'"
		}
		out[i] = a
	}
	return out
}

// lineDiff lists the lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
		}
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestProgressSilentOffTerminal checks that the progress bar writes
// nothing when stderr is a buffer or a regular file, and draws when asked.
func TestProgressSilentOffTerminal(t *testing.T) {
	dir := tradesDir(t)
	f := filepath.Join(dir, "trades.parquet")
	args := []string{"eval", "-e", "sum(qty)", "-batch", "100", f}
	var o, e bytes.Buffer
	if code := run(args, &o, &e); code != 0 || e.Len() != 0 {
		t.Errorf("stderr a buffer: got exit %d, stderr %q want 0 and nothing", code, e.String())
	}
	ef, err := os.Create(filepath.Join(dir, "stderr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	if code := run(args, &o, ef); code != 0 {
		t.Errorf("stderr a file: exit %d", code)
	}
	if st, _ := ef.Stat(); st.Size() != 0 {
		b, _ := os.ReadFile(ef.Name())
		t.Errorf("stderr a file: got %q want nothing", b)
	}
	e.Reset()
	if code := run(append([]string{"eval", "-progress", "always"}, args[1:]...), &o, &e); code != 0 ||
		!strings.Contains(e.String(), "100%") || !strings.Contains(e.String(), "10 batches") || !strings.Contains(e.String(), "rows/s") {
		t.Errorf("-progress always: got exit %d, stderr %q want a bar at 100%% after 10 batches", code, e.String())
	}
}

func TestExplainFileDOTAndPTX(t *testing.T) {
	dir := tradesDir(t)
	f := filepath.Join(dir, "trades.parquet")
	dot := filepath.Join(dir, "plan.dot")
	var o, e bytes.Buffer
	if code := run([]string{"explain", "-e", "mean(price*qty)", "-filter", "buy", "-dot", dot, "-ptx", f}, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	b, err := os.ReadFile(dot)
	if err != nil || !strings.HasPrefix(string(b), "digraph") {
		t.Errorf("DOT file got:%q %v want a digraph", b, err)
	}
	for _, w := range []string{"wrote " + dot, "// PTX for H100", ".visible .entry k0_reduce"} {
		if !strings.Contains(o.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, o.String())
		}
	}
	svg := strings.TrimSuffix(dot, ".dot") + ".svg"
	_, serr := os.Stat(svg)
	if _, lerr := exec.LookPath("dot"); (lerr == nil) != (serr == nil) {
		t.Errorf("SVG %s: dot on PATH: %v, SVG written: %v", svg, lerr == nil, serr == nil)
	}
}
