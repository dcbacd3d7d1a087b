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

// aggState is one aggregate's combined state, per group (one group
// without GroupBy).
type aggState struct {
	e      *Expr
	in     graph.DType // the dtype the aggregate reads
	count  []int64
	i      []int64   // integer sum, min or max
	f      []float64 // float sum, min or max
	mean   []float64 // AggMean: the sum; AggVar: the running mean
	m2     []float64
	extSet []bool
}

func newAggState(p *partial) *aggState { return &aggState{e: p.e, in: p.in} }

// grow makes room for k groups.
func (s *aggState) grow(k int) {
	for len(s.count) < k {
		s.count = append(s.count, 0)
		s.i = append(s.i, 0)
		s.f = append(s.f, 0)
		s.mean = append(s.mean, 0)
		s.m2 = append(s.m2, 0)
		s.extSet = append(s.extSet, false)
	}
}

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

// elemOff returns the offset of element j of a host tensor (0-d or 1-d).
func elemOff(t *exec.Tensor, j int) int {
	if len(t.Strides) > 0 {
		return t.Offset + j*t.Strides[0]
	}
	return t.Offset
}

// elemF and elemI read element j of a host tensor (0-d or 1-d), of any
// dtype.
func elemF(t *exec.Tensor, j int) float64 {
	v := exec.ScalarAt(t, elemOff(t, j))
	switch {
	case v.DType.IsFloat():
		return v.F
	case v.DType == graph.Uint64:
		return float64(uint64(v.I))
	}
	return float64(v.I)
}

func elemI(t *exec.Tensor, j int) int64 {
	if v := exec.ScalarAt(t, elemOff(t, j)); !v.DType.IsFloat() {
		return v.I // uint64: the same bits
	}
	return int64(elemF(t, j))
}

// add combines a batch of n rows whose partial outputs are at idx
// (count, acc, m2) of res, for groups 0..k-1 (k is 1 without GroupBy).
func (s *aggState) add(res []*exec.Tensor, idx [3]int, n, k int) {
	s.grow(k)
	for g := range k {
		c := int64(n)
		if idx[0] >= 0 {
			c = elemI(res[idx[0]], g)
		}
		if c == 0 {
			continue
		}
		total := s.count[g] + c
		isInt := !s.in.IsFloat()
		switch s.e.agg {
		case AggSum:
			if isInt {
				s.i[g] += elemI(res[idx[1]], g)
			} else {
				s.f[g] += elemF(res[idx[1]], g)
			}
		case AggMin, AggMax:
			isMax := s.e.agg == AggMax
			if isInt {
				v := elemI(res[idx[1]], g)
				if !s.extSet[g] || (isMax && v > s.i[g]) || (!isMax && v < s.i[g]) {
					s.i[g] = v
				}
			} else {
				v := elemF(res[idx[1]], g)
				switch {
				case !s.extSet[g] || math.IsNaN(v):
					s.f[g] = v
				case math.IsNaN(s.f[g]):
				case isMax:
					s.f[g] = math.Max(s.f[g], v)
				default:
					s.f[g] = math.Min(s.f[g], v)
				}
			}
			s.extSet[g] = true
		case AggMean:
			s.mean[g] += elemF(res[idx[1]], g)
		case AggVar:
			mb := elemF(res[idx[1]], g) / float64(c)
			delta := mb - s.mean[g]
			s.mean[g] += delta * float64(c) / float64(total)
			s.m2[g] += elemF(res[idx[2]], g) + delta*delta*float64(s.count[g])*float64(c)/float64(total)
		}
		s.count[g] = total
	}
}

// result returns the aggregate's value for group g as a float64 and an
// int64 (for its dtype) and whether it is valid (not null).
func (s *aggState) result(g int) (float64, int64, bool) {
	cnt := s.count[g]
	switch s.e.agg {
	case AggCount:
		return float64(cnt), cnt, true
	case AggSum, AggMin, AggMax:
		return s.f[g], s.i[g], cnt > 0
	case AggMean:
		return s.mean[g] / float64(max(cnt, 1)), 0, cnt > 0
	case AggVar:
		dof := cnt - int64(s.e.ddof)
		return s.m2[g] / float64(max(dof, 1)), 0, dof > 0
	}
	return 0, 0, false
}

// tensors returns the aggregate's values for groups order (indices of
// groups) as a tensor of its dtype from alloc, with their validity as a
// bool tensor.
func (s *aggState) tensors(alloc memory.Allocator, order []int) (v, ok *exec.Tensor, err error) {
	s.grow(len(order))
	d := s.outDType()
	k := len(order)
	if v, err = exec.NewTensor(alloc, d, graph.Shape{k}); err != nil {
		return nil, nil, err
	}
	if ok, err = exec.NewTensor(alloc, graph.Bool, graph.Shape{k}); err != nil {
		v.Release()
		return nil, nil, err
	}
	for j, g := range order {
		f, i, valid := s.result(g)
		if d.IsFloat() {
			exec.PutScalar(v, j, graph.ScalarOf(d, f))
		} else {
			exec.PutScalar(v, j, graph.ScalarInt(d, i))
		}
		if valid {
			exec.Elems[uint8](ok)[j] = 1
		}
	}
	return v, ok, nil
}

// finish evaluates the aggregate query's expressions over the combined
// aggregates: a record of one row.
func (r *runner) finish(ctx context.Context) (arrow.Record, error) {
	order := []int{0}
	if r.grp != nil {
		rows := r.aggs[len(r.aggs)-1] // groupRows
		order = order[:0]
		for _, g := range r.grp.order() {
			if g < len(rows.count) && rows.count[g] > 0 {
				order = append(order, g)
			}
		}
	}
	k := len(order)
	c := newCompiler(k, r.si, nil)
	c.final = map[*Expr]val{}
	bound := map[*graph.Node]*exec.Tensor{}
	defer func() {
		for _, t := range bound {
			t.Release()
		}
	}()
	for _, s := range r.aggs {
		if s.e == groupRows {
			continue
		}
		v, ok, err := s.tensors(r.alloc, order)
		if err != nil {
			return nil, err
		}
		vn := graph.Input(v.DType, graph.Shape{k}, s.e.String())
		on := graph.Input(graph.Bool, graph.Shape{k}, s.e.String()+".valid")
		bound[vn], bound[on] = v, ok
		c.final[s.e] = val{vn, on}
	}
	p := &program{mask: -1}
	for _, e := range r.q.exprs {
		v, err := c.build(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		p.outputs = append(p.outputs, v.v, graph.BroadcastTo(orTrue(v.ok), graph.Shape{k}))
		p.vals = append(p.vals, len(p.outputs)-2)
		p.oks = append(p.oks, len(p.outputs)-1)
		p.types = append(p.types, v.v.DType())
	}
	res, err := r.be.Eval(ctx, &exec.Request{Outputs: p.outputs, Bound: bound, Alloc: r.alloc})
	if err != nil {
		return nil, err
	}
	hosts, done, err := hostTensors(ctx, r.be, res, r.alloc)
	defer done()
	if err != nil {
		return nil, err
	}
	rec, err := r.rows(p, hosts)
	if err != nil || r.grp == nil {
		return rec, err
	}
	defer rec.Release()
	keys := r.grp.keyArray(order, r.alloc)
	defer keys.Release()
	fields := append([]arrow.Field{{Name: r.grp.key, Type: keys.DataType(), Nullable: true}}, rec.Schema().Fields()...)
	cols := append([]arrow.Array{keys}, rec.Columns()...)
	return arrayRecord(arrow.NewSchema(fields, nil), cols), nil
}
