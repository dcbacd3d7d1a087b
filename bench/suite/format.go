// The text form of the workload list: one workload per line,
// "name | inputs | expression", read back by Parse and Load.

package suite

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
)

// Input is one operand of a workload: random values uniform in [Lo, Hi)
// (integers: drawn from [Lo, Hi) and floored; bool: true where the draw
// is >= 0.5) of dtype DType and shape Shape.
type Input struct {
	Name   string
	DType  graph.DType
	Shape  []int
	Lo, Hi float64
}

// Workload is one benchmark: a name unique in the list, its inputs and
// the expression over them (see the package doc for the syntax).
type Workload struct {
	Name   string
	Inputs []Input
	Expr   string
}

// dtypeNames are the short dtype names of the text form.
var dtypeNames = map[graph.DType]string{
	graph.Bool: "bool", graph.Int32: "i32", graph.Int64: "i64",
	graph.Float32: "f32", graph.Float64: "f64",
}

// String returns the input as the text form writes it:
// "x=f32[4096,4096](-1,1)".
func (in Input) String() string {
	dims := make([]string, len(in.Shape))
	for i, d := range in.Shape {
		dims[i] = strconv.Itoa(d)
	}
	return fmt.Sprintf("%s=%s[%s](%s,%s)", in.Name, dtypeNames[in.DType], strings.Join(dims, ","),
		strconv.FormatFloat(in.Lo, 'g', -1, 64), strconv.FormatFloat(in.Hi, 'g', -1, 64))
}

// Bytes returns the size of the input's data in bytes.
func (in Input) Bytes() int64 {
	n := int64(in.DType.Size())
	for _, d := range in.Shape {
		n *= int64(d)
	}
	return n
}

// ListHeader is the header comment Format writes above the suite's list.
const ListHeader = `The CPU benchmark suite, one workload per line: name | inputs | expression.
Read by exec/cpu's BenchmarkSuite and bench/cpu_peers.py. Generated from
bench/suite/workloads.go by ` + "`go test ./bench/suite -update`" + `; do not edit.`

// Format writes ws in the text form, after ListHeader as a comment.
func Format(w io.Writer, ws []Workload) error { return FormatWith(w, ListHeader, ws) }

// FormatWith writes ws in the text form after header, each of its
// lines as a comment.
func FormatWith(w io.Writer, header string, ws []Workload) error {
	bw := bufio.NewWriter(w)
	for _, line := range strings.Split(header, "\n") {
		fmt.Fprintln(bw, "# "+line)
	}
	for _, wl := range ws {
		ins := make([]string, len(wl.Inputs))
		for i, in := range wl.Inputs {
			ins[i] = in.String()
		}
		fmt.Fprintf(bw, "%s | %s | %s\n", wl.Name, strings.Join(ins, " "), wl.Expr)
	}
	return bw.Flush()
}

// Parse reads the text form: blank lines and lines starting with "#" are
// skipped. It returns an error naming the line for a malformed line, an
// unknown dtype, a repeated workload name or an expression that does not
// parse.
func Parse(r io.Reader) ([]Workload, error) {
	var ws []Workload
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		wl, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("suite: line %d: %w", line, err)
		}
		if seen[wl.Name] {
			return nil, fmt.Errorf("suite: line %d: workload %q listed twice", line, wl.Name)
		}
		seen[wl.Name] = true
		ws = append(ws, wl)
	}
	return ws, sc.Err()
}

// Load parses the workload file at path.
func Load(path string) ([]Workload, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f)
}

func parseLine(text string) (Workload, error) {
	parts := strings.Split(text, " | ")
	if len(parts) != 3 {
		return Workload{}, fmt.Errorf("want \"name | inputs | expression\", got %q", text)
	}
	wl := Workload{Name: strings.TrimSpace(parts[0]), Expr: strings.TrimSpace(parts[2])}
	if wl.Name == "" || strings.ContainsAny(wl.Name, " \t/") {
		return Workload{}, fmt.Errorf("bad workload name %q (no blanks or slashes)", wl.Name)
	}
	for _, f := range strings.Fields(parts[1]) {
		in, err := parseInput(f)
		if err != nil {
			return Workload{}, fmt.Errorf("%s: %w", wl.Name, err)
		}
		wl.Inputs = append(wl.Inputs, in)
	}
	if _, err := ParseExpr(wl.Expr); err != nil {
		return Workload{}, fmt.Errorf("%s: %w", wl.Name, err)
	}
	return wl, nil
}

// parseInput reads "x=f32[4096,4096](-1,1)".
func parseInput(s string) (Input, error) {
	bad := fmt.Errorf("bad input %q (want name=dtype[d0,d1,...](lo,hi))", s)
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return Input{}, bad
	}
	dt, rest, ok := strings.Cut(rest, "[")
	if !ok {
		return Input{}, bad
	}
	dims, rest, ok := strings.Cut(rest, "](")
	if !ok || !strings.HasSuffix(rest, ")") {
		return Input{}, bad
	}
	in := Input{Name: name, DType: graph.Invalid}
	for d, n := range dtypeNames {
		if n == dt {
			in.DType = d
		}
	}
	if in.DType == graph.Invalid {
		return Input{}, fmt.Errorf("input %q: unknown dtype %q", s, dt)
	}
	for _, d := range strings.Split(dims, ",") {
		v, err := strconv.Atoi(d)
		if err != nil || v <= 0 {
			return Input{}, bad
		}
		in.Shape = append(in.Shape, v)
	}
	lo, hi, ok := strings.Cut(strings.TrimSuffix(rest, ")"), ",")
	var err1, err2 error
	in.Lo, err1 = strconv.ParseFloat(lo, 64)
	in.Hi, err2 = strconv.ParseFloat(hi, 64)
	if !ok || err1 != nil || err2 != nil {
		return Input{}, bad
	}
	return in, nil
}
