// A test-only float64 interpreter of plans and a naive evaluator of
// graphs, to check that plans compute what the graph says.

package fuse

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

var unaryF = map[graph.Op]func(float64) float64{
	graph.OpNeg: func(x float64) float64 { return -x }, graph.OpExp: math.Exp, graph.OpLog: math.Log,
	graph.OpSqrt: math.Sqrt, graph.OpAbs: math.Abs, graph.OpTanh: math.Tanh, graph.OpSin: math.Sin,
	graph.OpSquare: func(x float64) float64 { return x * x },
}

var binaryF = map[graph.Op]func(a, b float64) float64{
	graph.OpAdd: func(a, b float64) float64 { return a + b }, graph.OpSub: func(a, b float64) float64 { return a - b },
	graph.OpMul: func(a, b float64) float64 { return a * b }, graph.OpDiv: func(a, b float64) float64 { return a / b },
	graph.OpMax: math.Max, graph.OpMin: math.Min,
	graph.OpGt: func(a, b float64) float64 { return b2f(a > b) }, graph.OpLt: func(a, b float64) float64 { return b2f(a < b) },
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func castTo(d graph.DType, v float64) float64 {
	switch d {
	case graph.Float32:
		return float64(float32(v))
	case graph.Int32, graph.Int64:
		return math.Trunc(v)
	case graph.Bool:
		return b2f(v != 0)
	}
	return v
}

func applyOp(op graph.Op, d graph.DType, args []float64) float64 {
	switch {
	case op == graph.OpCast:
		return castTo(d, args[0])
	case op == graph.OpWhere:
		if args[0] != 0 {
			return args[1]
		}
		return args[2]
	case unaryF[op] != nil:
		return castTo(d, unaryF[op](args[0]))
	case binaryF[op] != nil:
		return castTo(d, binaryF[op](args[0], args[1]))
	}
	panic(fmt.Sprintf("test interpreter: no op %v", op))
}

func genValue(in *Instr, i int) float64 {
	g := in.Gen
	switch in.Op {
	case graph.OpIota:
		return castTo(in.DType, g.Start+float64(i)*g.Step)
	case graph.OpEye:
		return b2f(i%g.Cols-i/g.Cols == g.K)
	}
	panic("test interpreter: no generator " + in.Op.String())
}

func at(off int, st, p []int) int {
	for k, s := range st {
		off += p[k] * s
	}
	return off
}

// forEach calls f for every point of space in row-major order.
func forEach(space []int, f func(p []int)) {
	for _, e := range space {
		if e == 0 {
			return
		}
	}
	p := make([]int, len(space))
	for {
		f(p)
		k := len(space) - 1
		for k >= 0 {
			p[k]++
			if p[k] < space[k] {
				break
			}
			p[k] = 0
			k--
		}
		if k < 0 {
			return
		}
	}
}

func evalBody(body []Instr, k *Kernel, bufs [][]float64, p []int, acc []float64) []float64 {
	v := make([]float64, len(body))
	for i := range body {
		in := &body[i]
		switch in.Kind {
		case InstrLoad:
			o := k.Operands[in.Operand]
			v[i] = bufs[o.Buffer][at(o.Offset, o.Strides, p)]
		case InstrConst:
			v[i] = in.Value.F
		case InstrGen:
			o := k.Operands[in.Operand]
			v[i] = genValue(in, at(o.Offset, o.Strides, p))
		case InstrAcc:
			v[i] = acc[in.Acc]
		default:
			args := make([]float64, len(in.Args))
			for j, a := range in.Args {
				args[j] = v[a]
			}
			v[i] = applyOp(in.Op, in.DType, args)
		}
	}
	return v
}

// runPlan evaluates p with inputs given as raw buffers per slot.
func runPlan(p *Plan, inputs [][]float64) [][]float64 {
	bufs := make([][]float64, len(p.Buffers))
	for i, b := range p.Buffers {
		if b.Kind == BufInput {
			bufs[i] = inputs[b.Slot]
		} else {
			bufs[i] = make([]float64, b.Elems)
			for j := range bufs[i] {
				bufs[i][j] = math.NaN() // catch reads of unwritten elements
			}
		}
	}
	for ki := range p.Kernels {
		k := &p.Kernels[ki]
		switch k.Kind {
		case KindMap:
			forEach(k.Space, func(pt []int) {
				v := evalBody(k.Body, k, bufs, pt, nil)
				for _, s := range k.Stores {
					bufs[s.Buffer][at(s.Offset, s.Strides, pt)] = v[s.Value]
				}
			})
		case KindReduce:
			red := map[int]bool{}
			for _, a := range k.ReduceAxes {
				red[a] = true
			}
			outSpace := make([]int, len(k.Space))
			var redSpace []int
			for i, e := range k.Space {
				outSpace[i] = e
				if red[i] {
					outSpace[i] = 1
					redSpace = append(redSpace, e)
				}
			}
			forEach(outSpace, func(op []int) {
				acc := make([]float64, len(k.Reductions))
				best := make([]float64, len(k.Reductions))
				for j, r := range k.Reductions {
					switch r.Op {
					case graph.OpProd:
						acc[j] = 1
					case graph.OpReduceMax, graph.OpArgMax:
						best[j] = math.Inf(-1)
						acc[j] = math.Inf(-1)
					case graph.OpReduceMin, graph.OpArgMin:
						best[j] = math.Inf(1)
						acc[j] = math.Inf(1)
					}
				}
				pt := append([]int(nil), op...)
				lin := 0
				forEach(redSpace, func(rp []int) {
					n := 0
					for i := range pt {
						if red[i] {
							pt[i] = rp[n]
							n++
						}
					}
					v := evalBody(k.Body, k, bufs, pt, nil)
					for j, r := range k.Reductions {
						x := v[r.Value]
						switch r.Op {
						case graph.OpSum:
							acc[j] += x
						case graph.OpProd:
							acc[j] *= x
						case graph.OpReduceMax:
							acc[j] = math.Max(acc[j], x)
						case graph.OpReduceMin:
							acc[j] = math.Min(acc[j], x)
						case graph.OpArgMax:
							if x > best[j] {
								best[j], acc[j] = x, float64(lin)
							}
						case graph.OpArgMin:
							if x < best[j] {
								best[j], acc[j] = x, float64(lin)
							}
						}
					}
					lin++
				})
				for j, r := range k.Reductions {
					acc[j] = castTo(r.DType, acc[j])
				}
				v := evalBody(k.Epilogue, k, bufs, op, acc)
				for _, s := range k.Stores {
					bufs[s.Buffer][at(s.Offset, s.Strides, op)] = v[s.Value]
				}
			})
		case KindMatMul:
			m := k.MatMul
			r := len(k.Space)
			forEach(k.Space, func(pt []int) {
				sum := 0.0
				for kk := 0; kk < m.K; kk++ {
					pa := append(append([]int(nil), pt[:r-2]...), pt[r-2], kk)
					pb := append(append([]int(nil), pt[:r-2]...), kk, pt[r-1])
					sum += bufs[m.A.Buffer][at(m.A.Offset, m.A.Strides, pa)] * bufs[m.B.Buffer][at(m.B.Offset, m.B.Strides, pb)]
				}
				v := evalBody(k.Epilogue, k, bufs, pt, []float64{castTo(m.A.DType, sum)})
				for _, s := range k.Stores {
					bufs[s.Buffer][at(s.Offset, s.Strides, pt)] = v[s.Value]
				}
			})
		}
	}
	outs := make([][]float64, len(p.Outputs))
	for i, o := range p.Outputs {
		var vals []float64
		forEach(o.Layout.Shape, func(pt []int) {
			vals = append(vals, bufs[o.Buffer][at(o.Layout.Offset, o.Layout.Strides, pt)])
		})
		outs[i] = vals
	}
	return outs
}

// evalGraph evaluates n naively into a dense row-major array.
func evalGraph(n *graph.Node, vals map[*graph.Node][]float64) []float64 {
	if v, ok := vals[n]; ok {
		return v
	}
	s := n.Shape()
	out := make([]float64, s.Size())
	idx := func(x *graph.Node, pt []int) int { // broadcast read
		xs := x.Shape()
		st := xs.ContiguousStrides()
		d := len(s) - len(xs)
		o := 0
		for i := range xs {
			if xs[i] != 1 {
				o += pt[i+d] * st[i]
			}
		}
		return o
	}
	a := n.Attr()
	switch c := n.Op().Class(); {
	case n.Op() == graph.OpConst:
		out[0] = a.Value.F
	case n.Op() == graph.OpIota || n.Op() == graph.OpEye:
		in := &Instr{Op: n.Op(), DType: n.DType(), Gen: &GenAttr{Start: a.Start, Step: a.Step, K: a.K}}
		if n.Op() == graph.OpEye {
			in.Gen.Cols = s[1]
		}
		for i := range out {
			out[i] = genValue(in, i)
		}
	case n.Op().IsElementwise() || c == graph.ClassCopy || n.Op() == graph.OpBroadcast:
		ins := make([][]float64, len(n.Inputs()))
		for i, x := range n.Inputs() {
			ins[i] = evalGraph(x, vals)
		}
		j := 0
		forEach(s, func(pt []int) {
			args := make([]float64, len(ins))
			for i, x := range n.Inputs() {
				args[i] = ins[i][idx(x, pt)]
			}
			if c == graph.ClassCopy || n.Op() == graph.OpBroadcast {
				out[j] = args[0]
			} else {
				out[j] = applyOp(n.Op(), n.DType(), args)
			}
			j++
		})
	case n.Op() == graph.OpReshape:
		copy(out, evalGraph(n.Input(0), vals))
	case n.Op() == graph.OpPermute || n.Op() == graph.OpSlice:
		x := evalGraph(n.Input(0), vals)
		xs := n.Input(0).Shape()
		st := xs.ContiguousStrides()
		j := 0
		forEach(s, func(pt []int) {
			o := 0
			for i := range pt {
				if n.Op() == graph.OpPermute {
					o += pt[i] * st[a.Perm[i]]
				} else {
					o += (a.Slices[i].Start + pt[i]*a.Slices[i].Step) * st[i]
				}
			}
			out[j] = x[o]
			j++
		})
	case n.Op() == graph.OpConcat:
		j := 0
		outer := 1
		for _, e := range s[:a.Axis] {
			outer *= e
		}
		ins := make([][]float64, len(n.Inputs()))
		for i, x := range n.Inputs() {
			ins[i] = evalGraph(x, vals)
		}
		for o := 0; o < outer; o++ {
			for i, x := range n.Inputs() {
				blk := x.Size() / max(outer, 1)
				j += copy(out[j:], ins[i][o*blk:(o+1)*blk])
			}
		}
	case c == graph.ClassReduce:
		x := evalGraph(n.Input(0), vals)
		xs := n.Input(0).Shape()
		red := map[int]bool{}
		for _, ax := range a.Axes {
			red[ax] = true
		}
		groups := map[int][]float64{}
		var order []int
		i := 0
		forEach(xs, func(pt []int) {
			key := 0
			for k, e := range xs {
				if !red[k] {
					key = key*e + pt[k]
				}
			}
			if _, ok := groups[key]; !ok {
				order = append(order, key)
			}
			groups[key] = append(groups[key], x[i])
			i++
		})
		for g := range out {
			vs := groups[g]
			var r float64
			switch n.Op() {
			case graph.OpSum:
				for _, v := range vs {
					r += v
				}
			case graph.OpReduceMax:
				r = math.Inf(-1)
				for _, v := range vs {
					r = math.Max(r, v)
				}
			case graph.OpArgMax:
				best := math.Inf(-1)
				for k, v := range vs {
					if v > best {
						best, r = v, float64(k)
					}
				}
			}
			out[g] = castTo(n.DType(), r)
		}
	case n.Op() == graph.OpMatMul:
		A, B := evalGraph(n.Input(0), vals), evalGraph(n.Input(1), vals)
		as, bs := n.Input(0).Shape(), n.Input(1).Shape()
		M, K, N := as[len(as)-2], as[len(as)-1], bs[len(bs)-1]
		batch := s.Size() / max(M*N, 1)
		for b := 0; b < batch; b++ {
			ab := b % max(1, n.Input(0).Size()/(M*K))
			bb := b % max(1, n.Input(1).Size()/(K*N))
			for i := 0; i < M; i++ {
				for j := 0; j < N; j++ {
					sum := 0.0
					for k := 0; k < K; k++ {
						sum += A[ab*M*K+i*K+k] * B[bb*K*N+k*N+j]
					}
					out[b*M*N+i*N+j] = castTo(n.DType(), sum)
				}
			}
		}
	default:
		panic("evalGraph: no op " + n.Op().String())
	}
	vals[n] = out
	return out
}
