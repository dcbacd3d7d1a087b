// Output tensors: the tensors of one evaluation's results, their layouts
// and the slice that lists them: the request's own tensors when it offers
// them, else made in one allocation for the common case of one output of
// rank four or less.

package runner

import (
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
)

// maxInlineRank is the largest rank whose shape and strides fit in a
// oneOutput.
const maxInlineRank = 4

// oneOutput is a result list of one tensor with room for its layout.
type oneOutput struct {
	list [1]*exec.Tensor
	t    exec.Tensor
	dims [2 * maxInlineRank]int
}

// newOutputs returns a tensor for each of outs, with its layout (a copy
// of the plan's: the caller owns it) and no buffer yet: the tensors of
// offer (exec.Request.Results) when it has one per output, their shapes
// and strides in the capacity they come with where it suffices, else new
// ones. Each shape and stride slice is capped at its length, so that
// appending to one never writes over another.
func newOutputs(outs []fuse.Output, offer []*exec.Tensor) []*exec.Tensor {
	if len(offer) == len(outs) && len(outs) > 0 {
		for i, t := range offer {
			reuseLayout(t, &outs[i])
		}
		return offer
	}
	if len(outs) == 1 && len(outs[0].Layout.Shape) <= maxInlineRank {
		o := &oneOutput{}
		setLayout(&o.t, &outs[0], o.dims[:])
		o.list[0] = &o.t
		return o.list[:]
	}
	rank := 0
	for i := range outs {
		rank += len(outs[i].Layout.Shape)
	}
	ts := make([]exec.Tensor, len(outs))
	list := make([]*exec.Tensor, len(outs))
	dims := make([]int, 2*rank)
	for i := range outs {
		dims = setLayout(&ts[i], &outs[i], dims)
		list[i] = &ts[i]
	}
	return list
}

// setLayout gives t a copy of o's layout, its shape and strides in dims,
// and returns what is left of dims.
func setLayout(t *exec.Tensor, o *fuse.Output, dims []int) []int {
	l := &o.Layout
	r := len(l.Shape)
	t.DType, t.Offset = l.DType, l.Offset
	t.Shape = dims[:r:r]
	copy(t.Shape, l.Shape)
	if l.Strides != nil {
		t.Strides = dims[r : 2*r : 2*r]
		copy(t.Strides, l.Strides)
	}
	return dims[2*r:]
}

// reuseLayout gives t, an offered result tensor, a copy of o's layout in
// the capacity of its Shape and Strides (new slices beyond it), and no
// buffer.
func reuseLayout(t *exec.Tensor, o *fuse.Output) {
	l := &o.Layout
	r := len(l.Shape)
	t.Buf, t.Dev = nil, nil
	t.DType, t.Offset = l.DType, l.Offset
	t.Shape = append(t.Shape[:0], l.Shape...)[:r:r]
	if l.Strides == nil {
		t.Strides = nil
	} else {
		t.Strides = append(t.Strides[:0], l.Strides...)[:r:r]
	}
}
