// Command cpujoin joins the output of exec/cpu's Go benchmarks and of
// bench/cpu_peers.py (both read from standard input, in any order) into
// one table: workload | fuseflow | NumPy | NumExpr | fuseflow/NumPy
// speedup, ending with the smallest speedup over NumPy on the elementwise
// and softmax workloads.
//
//	(go test -run XXX -bench . ./exec/cpu/; /usr/bin/python3 bench/cpu_peers.py) | go run ./bench/cpujoin
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// goNames maps Go benchmark names (without the -N suffix) to workloads.
var goNames = map[string]string{
	"BenchmarkElementwise/chain/fused":   "chain",
	"BenchmarkElementwise/chain/unfused": "chain-unfused",
	"BenchmarkElementwise/expr/fused":    "expr",
	"BenchmarkElementwise/expr/unfused":  "expr-unfused",
	"BenchmarkSum":                       "sum",
	"BenchmarkSoftmax":                   "softmax",
	"BenchmarkMatMul/f32/1024":           "matmul1024",
	"BenchmarkMatMul/f32/512":            "matmul512",
}

var order = []string{"chain", "chain-unfused", "expr", "expr-unfused", "sum", "softmax", "matmul1024", "matmul512"}

// targets are the workloads the closing line summarizes.
var targets = []string{"chain", "expr", "softmax"}

func main() {
	ff := map[string]float64{}
	peers := map[string]map[string]float64{"numpy": {}, "numexpr": {}}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 4 && f[0] == "peer":
			if v, err := strconv.ParseFloat(f[3], 64); err == nil && peers[f[2]] != nil {
				peers[f[2]][f[1]] = v
			}
		case len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark") && f[3] == "ns/op":
			name := f[0]
			if i := strings.LastIndex(name, "-"); i > 0 {
				name = name[:i]
			}
			if w, ok := goNames[name]; ok {
				if v, err := strconv.ParseFloat(f[2], 64); err == nil {
					ff[w] = v
				}
			}
		}
	}
	ms := func(v float64, ok bool) string {
		if !ok {
			return "-"
		}
		return fmt.Sprintf("%.2f ms", v/1e6)
	}
	fmt.Println("| workload | fuseflow | NumPy | NumExpr | fuseflow/NumPy speedup |")
	fmt.Println("|---|---|---|---|---|")
	speed := map[string]float64{}
	for _, w := range order {
		f, okf := ff[w]
		base := strings.TrimSuffix(w, "-unfused")
		np, okn := peers["numpy"][base]
		nx, okx := peers["numexpr"][base]
		sp := "-"
		if okf && okn && f > 0 {
			speed[w] = np / f
			sp = fmt.Sprintf("%.2f", np/f)
		}
		fmt.Printf("| %s | %s | %s | %s | %s |\n", w, ms(f, okf), ms(np, okn), ms(nx, okx), sp)
	}
	lowest := math.Inf(1)
	for _, w := range targets {
		if s, ok := speed[w]; ok {
			lowest = min(lowest, s)
		}
	}
	if math.IsInf(lowest, 1) {
		fmt.Println("min speedup vs NumPy on elementwise and softmax: n/a")
		os.Exit(1)
	}
	fmt.Printf("min speedup vs NumPy on elementwise and softmax: %.2f\n", lowest)
}
