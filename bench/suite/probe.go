// Probe: random workloads beyond the committed list, drawn from the same
// op tables, so that the suite also measures shapes, axes, layouts, dtypes
// and compositions nobody chose by hand.

package suite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
)

// ProbeKinds are the kinds of workload Probe draws, in the order their
// names carry them.
var ProbeKinds = []string{"unary", "binary", "int", "cast", "reduce", "scan", "sort", "fused", "small"}

// Probe returns n workloads drawn from seed (the same seed, the same
// list): single elementwise ops of every table on random shapes with
// random operand layouts (transposed, reversed, stepped, broadcast rows
// and columns, scalars), integer ops, casts, reductions over random axes
// of random 2-D and 3-D shapes (skinny and wide), scans, sorts, random
// fused expression trees (some closed by a reduction) and small arrays.
// Arrays other than the small ones hold 2^18 to 2^23 elements, in and
// beyond the last-level cache. Names are p<seed>.<index>.<kind>.<op>.<dtype>
// with the shape and layouts after them.
func Probe(seed uint64, n int) []Workload {
	p := &prober{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	ws := make([]Workload, 0, n)
	for i := range n {
		kind := ProbeKinds[p.r.IntN(len(ProbeKinds))]
		w := p.draw(kind)
		w.Name = fmt.Sprintf("p%d.%03d.%s.%s", seed, i, kind, w.Name)
		ws = append(ws, w)
	}
	return ws
}

// prober draws the parts of probe workloads; ins collects the inputs of
// the one being drawn and leaves the expressions of its tree's leaves.
type prober struct {
	r      *rand.Rand
	ins    []Input
	leaves []string
}

func (p *prober) pick(n int) int { return p.r.IntN(n) }

// elems returns a log-uniform element count in [2^18, 2^23]: from
// arrays that stay in the last-level cache (where the compute speed of
// a loop shows, and NumPy's outputs reuse freed memory) to arrays well
// beyond it (where NumPy's fresh outputs fault their pages in).
func (p *prober) elems() int { return int(math.Exp2(18 + 5*p.r.Float64())) }

// shape returns a random shape of rank 1 to 3 with about elems()
// elements; rank 2 and 3 shapes are as often skinny as square.
func (p *prober) shape(minRank int) []int {
	t := p.elems()
	rank := minRank + p.pick(4-minRank)
	small := []int{2, 3, 5, 8, 16, 17, 64, 100, 255, 1000}
	switch rank {
	case 1:
		return []int{t}
	case 2:
		var m int
		switch p.pick(3) {
		case 0:
			m = small[p.pick(len(small))]
		case 1:
			m = int(math.Sqrt(float64(t)))
		default:
			m = t / small[p.pick(len(small))]
		}
		return []int{m, max(1, t/m)}
	}
	a := []int{small[p.pick(len(small))], int(math.Cbrt(float64(t)))}[p.pick(2)]
	b := []int{small[p.pick(len(small))], int(math.Cbrt(float64(t)))}[p.pick(2)]
	return []int{a, b, max(1, t/(a*b))}
}

// operand adds an input of dtype d drawn from [lo, hi) that reads as
// shape s through a random layout, and returns its expression and the
// layout's name.
func (p *prober) operand(d graph.DType, s []int, lo, hi float64) (string, string) {
	name := string(rune('a' + len(p.ins)))
	in := Input{Name: name, DType: d, Shape: slices.Clone(s), Lo: lo, Hi: hi}
	expr, lay := name, "c"
	switch k := p.pick(6); {
	case k == 3 && len(s) >= 2:
		slices.Reverse(in.Shape)
		expr, lay = "T("+name+")", "T"
	case k == 4:
		ax := p.pick(len(s))
		expr, lay = fmt.Sprintf("rev(%s, %d)", name, ax), "rev"+strconv.Itoa(ax)
	case k == 5:
		ax := p.pick(len(s))
		in.Shape[ax] *= 2
		expr, lay = fmt.Sprintf("step(%s, %d, 2)", name, ax), "step"+strconv.Itoa(ax)
	}
	p.ins = append(p.ins, in)
	return expr, lay
}

// second returns the second operand of a binary op on shape s: an array
// of the same shape, a broadcast row (the last axes) or column (ones in
// the last axis), or a number.
func (p *prober) second(d graph.DType, s []int, lo, hi float64) (string, string) {
	switch p.pick(5) {
	case 0:
		if len(s) >= 2 {
			e, _ := p.operand(d, s[1:], lo, hi)
			return e, "row"
		}
	case 1:
		if len(s) >= 2 {
			col := slices.Clone(s)
			col[len(col)-1] = 1
			name := string(rune('a' + len(p.ins)))
			p.ins = append(p.ins, Input{Name: name, DType: d, Shape: col, Lo: lo, Hi: hi})
			return name, "col"
		}
	case 2:
		v := lo + (hi-lo)*p.r.Float64()
		if d == graph.Int32 || d == graph.Int64 {
			return strconv.Itoa(int(math.Floor(v))), "num"
		}
		return strconv.FormatFloat(v, 'g', 4, 64), "num"
	}
	return p.operand(d, s, lo, hi)
}

func dims(s []int) string {
	t := make([]string, len(s))
	for i, d := range s {
		t[i] = strconv.Itoa(d)
	}
	return strings.Join(t, "x")
}

// floatType returns float32 or float64.
func (p *prober) floatType() graph.DType { return floats[p.pick(2)] }

// draw returns a workload of kind (its name without the prefix Probe
// adds).
func (p *prober) draw(kind string) Workload {
	p.ins, p.leaves = nil, nil
	var name, expr string
	switch kind {
	case "unary":
		op, d, s := unaryOps[p.pick(len(unaryOps))], p.floatType(), p.shape(1)
		x, lay := p.operand(d, s, op.lo, op.hi)
		name, expr = fmt.Sprintf("%s.%s.%s.%s", op.f, dtypeNames[d], dims(s), lay), op.f+"("+x+")"
	case "binary":
		op, d, s := binaryOps[p.pick(len(binaryOps))], p.floatType(), p.shape(1)
		a, la := p.operand(d, s, op.lo, op.hi)
		b, lb := p.second(d, s, op.blo, op.bhi)
		name, expr = fmt.Sprintf("%s.%s.%s.%s_%s", op.f, dtypeNames[d], dims(s), la, lb), op.f+"("+a+", "+b+")"
	case "int":
		ops := append(slices.Clone(intOps), intOps[0], intOps[1]) // arithmetic twice as often
		ops = append(ops, struct {
			f                string
			lo, hi, blo, bhi float64
		}{"sub", -1000, 1000, -1000, 1000}, struct {
			f                string
			lo, hi, blo, bhi float64
		}{"lt", -1000, 1000, -1000, 1000})
		op, d, s := ops[p.pick(len(ops))], intTypes[p.pick(2)], p.shape(1)
		a, la := p.operand(d, s, op.lo, op.hi)
		b, lb := p.second(d, s, op.blo, op.bhi)
		name, expr = fmt.Sprintf("%s.%s.%s.%s_%s", op.f, dtypeNames[d], dims(s), la, lb), op.f+"("+a+", "+b+")"
	case "cast":
		c, s := casts[p.pick(len(casts))], p.shape(1)
		x, lay := p.operand(c.from, s, -1000, 1000)
		name = fmt.Sprintf("%s_%s.%s.%s", dtypeNames[c.from], dtypeNames[c.to], dims(s), lay)
		expr = dtypeNames[c.to] + "(" + x + ")"
	case "reduce":
		name, expr = p.reduce()
	case "scan":
		d, s := []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64}[p.pick(4)], p.shape(1)
		x, lay := p.operand(d, s, -100, 100)
		ax := p.pick(len(s))
		name, expr = fmt.Sprintf("cumsum.%s.%s.%s.ax%d", dtypeNames[d], dims(s), lay, ax), fmt.Sprintf("cumsum(%s, %d)", x, ax)
	case "sort":
		d, s := []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64}[p.pick(4)], p.shape(1)
		x, _ := p.operand(d, s, -1e6, 1e6)
		f, ax := []string{"sort", "argsort"}[p.pick(2)], p.pick(len(s))
		name, expr = fmt.Sprintf("%s.%s.%s.ax%d", f, dtypeNames[d], dims(s), ax), fmt.Sprintf("%s(%s, %d)", f, x, ax)
	case "fused":
		d, s := p.floatType(), p.shape(1)
		expr = p.tree(d, s, 2+p.pick(3), true)
		name = fmt.Sprintf("%s.%s.n%d", dtypeNames[d], dims(s), len(p.ins))
		if p.pick(3) == 0 {
			f, ax := []string{"sum", "max", "mean"}[p.pick(3)], p.pick(len(s))
			expr = fmt.Sprintf("%s(%s, %d)", f, expr, ax)
			name += fmt.Sprintf(".%s%d", f, ax)
		}
	case "small":
		d, s := p.floatType(), []int{[]int{1, 16, 300, 3000, 30000}[p.pick(5)]}
		switch p.pick(3) {
		case 0:
			op := unaryOps[p.pick(len(unaryOps))]
			x, _ := p.operand(d, s, op.lo, op.hi)
			name, expr = op.f, op.f+"("+x+")"
		case 1:
			op := binaryOps[p.pick(len(binaryOps))]
			a, _ := p.operand(d, s, op.lo, op.hi)
			b, _ := p.operand(d, s, op.blo, op.bhi)
			name, expr = op.f, op.f+"("+a+", "+b+")"
		default:
			f := reductions[p.pick(len(reductions))]
			x, _ := p.operand(d, s, 0.95, 1.05)
			name, expr = f, f+"("+x+")"
		}
		name += fmt.Sprintf(".%s.%d", dtypeNames[d], s[0])
	}
	return Workload{Name: name, Inputs: p.ins, Expr: expr}
}

// reduce draws a reduction: any op of the table over one axis, two axes
// or all of a random 2-D or 3-D array (integers for the ops that take
// them, bool for any and all).
func (p *prober) reduce() (name, expr string) {
	s := p.shape(2)
	ops := append(slices.Clone(reductions), "any", "all")
	f := ops[p.pick(len(ops))]
	d := p.floatType()
	lo, hi := 0.95, 1.05
	switch {
	case f == "any" || f == "all":
		d = graph.Bool
		lo, hi = 0, 0.4 // all false: no early exit for any
		if f == "all" {
			lo, hi = 0.6, 1
		}
	case f != "var" && f != "std" && p.pick(3) == 0:
		d = intTypes[p.pick(2)]
		lo, hi = -100, 100
		if f == "prod" {
			lo, hi = 1, 2
		}
	}
	x, lay := p.operand(d, s, lo, hi)
	var axes []string
	switch k := p.pick(5); {
	case k == 0 && f != "argmax" && f != "argmin":
		// all axes
	case k == 1 && len(s) == 3 && f != "argmax" && f != "argmin":
		a := p.pick(3)
		axes = []string{strconv.Itoa(a), strconv.Itoa((a + 1 + p.pick(2)) % 3)}
		slices.Sort(axes)
	default:
		axes = []string{strconv.Itoa(p.pick(len(s)))}
	}
	args := append([]string{x}, axes...)
	ax := "all"
	if len(axes) > 0 {
		ax = "ax" + strings.Join(axes, "")
	}
	return fmt.Sprintf("%s.%s.%s.%s.%s", f, dtypeNames[d], dims(s), lay, ax), f + "(" + strings.Join(args, ", ") + ")"
}

// maxProbeInputs bounds the inputs of a fused tree (each up to 64 MiB):
// leaves past it read one of the tree's inputs again.
const maxProbeInputs = 6

// tree returns a random float expression of shape s and the given depth
// over new inputs: unary ops, binary ops with broadcast or scalar second
// operands, and where; the top of the tree (top) is an op, never an
// input alone.
func (p *prober) tree(d graph.DType, s []int, depth int, top bool) string {
	if !top && len(p.ins) >= maxProbeInputs {
		return p.leaves[p.pick(len(p.leaves))] // an input read again
	}
	if !top && (depth == 0 || (depth < 3 && p.pick(4) == 0)) {
		e, _ := p.operand(d, s, 0.5, 2)
		p.leaves = append(p.leaves, e)
		return e
	}
	safe := []string{"exp", "tanh", "sigmoid", "sin", "abs", "neg", "square", "sqrt", "log1p", "erf"}
	switch p.pick(5) {
	case 0:
		f := safe[p.pick(len(safe))]
		if f == "sqrt" || f == "log1p" {
			return f + "(abs(" + p.tree(d, s, depth-1, false) + "))"
		}
		return f + "(" + p.tree(d, s, depth-1, false) + ")"
	case 1:
		b, _ := p.second(d, s, 0.5, 2)
		return []string{"add", "mul", "sub", "maximum"}[p.pick(4)] + "(" + p.tree(d, s, depth-1, false) + ", " + b + ")"
	case 2:
		return "where(gt(" + p.tree(d, s, depth-1, false) + ", 1), " + p.tree(d, s, depth-1, false) + ", 0.5)"
	}
	f := []string{"add", "mul", "sub", "div", "maximum", "minimum"}[p.pick(6)]
	return f + "(" + p.tree(d, s, depth-1, false) + ", " + p.tree(d, s, depth-1, false) + ")"
}
