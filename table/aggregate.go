// Aggregates across batches: each batch's partial state (count, sum or
// extreme, squared deviations) combined on the host, in float64 for
// floats and int64 for integers (Var by Chan et al.'s pairwise update),
// then the aggregate query's expressions evaluated over the combined
// values as one-row columns, so that arithmetic between aggregates
// follows the same rules (and null propagation) as row expressions.

package table

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// aggState is one aggregate's combined state.
type aggState struct {
	e      *Expr
	in     graph.DType // the dtype the aggregate reads
	count  int64
	i      int64   // integer sum, min or max
	f      float64 // float sum, min or max
	mean   float64 // AggMean: the sum; AggVar: the running mean
	m2     float64
	extSet bool
}

func newAggState(p *partial) *aggState { return &aggState{e: p.e, in: p.in} }

// outDType returns the dtype of the aggregate's result.
func (s *aggState) outDType() graph.DType {
	switch s.e.agg {
	case AggCount:
		return graph.Int64
	case AggSum:
		return graph.ReduceDType(graph.OpSum, s.in)
	case AggMean, AggVar:
		return meanDType(s.in)
	}
	return s.in
}

// scalarF and scalarI read element 0 of a host tensor.
func scalarF(t *exec.Tensor) float64 {
	switch t.DType {
	case graph.Float32:
		return float64(exec.Elems[float32](t)[t.Offset])
	case graph.Float64:
		return exec.Elems[float64](t)[t.Offset]
	}
	return float64(scalarI(t))
}

func scalarI(t *exec.Tensor) int64 {
	switch t.DType {
	case graph.Int32:
		return int64(exec.Elems[int32](t)[t.Offset])
	case graph.Int64:
		return exec.Elems[int64](t)[t.Offset]
	case graph.Bool:
		return int64(exec.Elems[uint8](t)[t.Offset])
	}
	return int64(scalarF(t))
}

// add combines a batch of n rows whose partial outputs are at idx
// (count, acc, m2) of res.
func (s *aggState) add(res []*exec.Tensor, idx [3]int, n int) {
	c := int64(n)
	if idx[0] >= 0 {
		c = scalarI(res[idx[0]])
	}
	if c == 0 {
		return
	}
	total := s.count + c
	isInt := !s.in.IsFloat()
	switch s.e.agg {
	case AggSum:
		if isInt {
			s.i += scalarI(res[idx[1]])
		} else {
			s.f += scalarF(res[idx[1]])
		}
	case AggMin, AggMax:
		isMax := s.e.agg == AggMax
		if isInt {
			v := scalarI(res[idx[1]])
			if !s.extSet || (isMax && v > s.i) || (!isMax && v < s.i) {
				s.i = v
			}
		} else {
			v := scalarF(res[idx[1]])
			switch {
			case !s.extSet || math.IsNaN(v):
				s.f = v
			case math.IsNaN(s.f):
			case isMax:
				s.f = math.Max(s.f, v)
			default:
				s.f = math.Min(s.f, v)
			}
		}
		s.extSet = true
	case AggMean:
		s.mean += scalarF(res[idx[1]])
	case AggVar:
		mb := scalarF(res[idx[1]]) / float64(c)
		delta := mb - s.mean
		s.mean += delta * float64(c) / float64(total)
		s.m2 += scalarF(res[idx[2]]) + delta*delta*float64(s.count)*float64(c)/float64(total)
	}
	s.count = total
}

// result returns the aggregate's value as a float64 and int64 (for its
// dtype) and whether it is valid (not null).
func (s *aggState) result() (float64, int64, bool) {
	switch s.e.agg {
	case AggCount:
		return float64(s.count), s.count, true
	case AggSum, AggMin, AggMax:
		return s.f, s.i, s.count > 0
	case AggMean:
		return s.mean / float64(max(s.count, 1)), 0, s.count > 0
	case AggVar:
		dof := s.count - int64(s.e.ddof)
		return s.m2 / float64(max(dof, 1)), 0, dof > 0
	}
	return 0, 0, false
}

// tensor returns the aggregate's value as a 1-element tensor of its
// dtype from alloc, with its validity as a 1-element bool tensor.
func (s *aggState) tensors(alloc memory.Allocator) (v, ok *exec.Tensor, err error) {
	d := s.outDType()
	f, i, valid := s.result()
	if v, err = exec.NewTensor(alloc, d, graph.Shape{1}); err != nil {
		return nil, nil, err
	}
	switch d {
	case graph.Float32:
		exec.Elems[float32](v)[0] = float32(f)
	case graph.Float64:
		exec.Elems[float64](v)[0] = f
	case graph.Int32:
		exec.Elems[int32](v)[0] = int32(i)
	case graph.Int64:
		exec.Elems[int64](v)[0] = i
	case graph.Bool:
		exec.Elems[uint8](v)[0] = uint8(i)
	}
	if ok, err = exec.NewTensor(alloc, graph.Bool, graph.Shape{1}); err != nil {
		v.Release()
		return nil, nil, err
	}
	if valid {
		exec.Elems[uint8](ok)[0] = 1
	}
	return v, ok, nil
}

// finish evaluates the aggregate query's expressions over the combined
// aggregates: a record of one row.
func (r *runner) finish(ctx context.Context) (arrow.Record, error) {
	c := newCompiler(1, r.si, nil)
	c.final = map[*Expr]val{}
	bound := map[*graph.Node]*exec.Tensor{}
	defer func() {
		for _, t := range bound {
			t.Release()
		}
	}()
	for _, s := range r.aggs {
		v, ok, err := s.tensors(r.alloc)
		if err != nil {
			return nil, err
		}
		vn := graph.Input(v.DType, graph.Shape{1}, s.e.String())
		on := graph.Input(graph.Bool, graph.Shape{1}, s.e.String()+".valid")
		bound[vn], bound[on] = v, ok
		c.final[s.e] = val{vn, on}
	}
	p := &program{mask: -1}
	for _, e := range r.q.exprs {
		v, err := c.build(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		p.outputs = append(p.outputs, v.v, orTrue(v.ok))
		p.vals = append(p.vals, len(p.outputs)-2)
		p.oks = append(p.oks, len(p.outputs)-1)
		p.types = append(p.types, v.v.DType())
	}
	res, err := r.be.Eval(ctx, &exec.Request{Outputs: p.outputs, Bound: bound, Alloc: r.alloc})
	if err != nil {
		return nil, err
	}
	hosts := make([]*exec.Tensor, len(res))
	defer func() {
		for i, t := range res {
			t.Release()
			if hosts[i] != nil {
				hosts[i].Release()
			}
		}
	}()
	for i, t := range res {
		if hosts[i], err = hostTensor(ctx, r.be, t, r.alloc); err != nil {
			return nil, err
		}
	}
	return r.rows(p, hosts)
}
