// MatMul kernels: lowering and the run of one kernel. float32 and
// float64 products go to internal/gemm (matmul_float.go), which applies
// the fused epilogue to each tile of the product as it is finished;
// integer products run a blocked loop (matmul_int.go), then the epilogue
// in chunks. The accumulator is the destination's buffer when the result
// is stored densely in its dtype (the epilogue then runs in place).

package cpu

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// mmKernel is a lowered MatMul kernel.
type mmKernel struct {
	spec    fuse.MatMulSpec
	dt      graph.DType
	batch   space
	epi     *prog
	direct  int  // store used as the accumulator, or -1
	trivial bool // the epilogue only stores the accumulator (into direct)
}

func lowerMatMul(k *fuse.Kernel) (*mmKernel, error) {
	if k.MatMul() == nil || len(k.Space) < 2 {
		return nil, fmt.Errorf("cpu: matmul kernel %s without a spec or with space %v", k.Name, k.Space)
	}
	s := k.MatMul()
	r := len(k.Space)
	empty := s.M == 0 || s.N == 0 || s.K == 0 // operands may be left unset
	if k.Space[r-2] != s.M || k.Space[r-1] != s.N ||
		(!empty && (s.A.DType != s.B.DType || len(s.A.Strides) != r || len(s.B.Strides) != r)) {
		return nil, fmt.Errorf("cpu: matmul kernel %s: inconsistent spec for space %v", k.Name, k.Space)
	}
	m := &mmKernel{spec: *s, dt: s.A.DType, batch: newSpace(k.Space[:r-2]), direct: -1}
	if empty && len(s.Epilogue) > 0 {
		m.dt = s.Epilogue[0].DType
		for _, in := range s.Epilogue {
			if in.Kind == fuse.InstrAcc {
				m.dt = in.DType
			}
		}
	}
	// The accumulator goes straight into a store's buffer when that store
	// holds the product itself (its epilogue value is the accumulator), or
	// when it is the only store (the epilogue then runs in place, each
	// point reading its accumulator before writing it). Any other store
	// must not hold the accumulator: the epilogue would overwrite it.
	sp := newSpace(k.Space)
	for i, st := range k.Stores {
		if st.DType != m.dt || !(graph.Layout{Shape: sp.shape, Strides: st.Strides}).Contiguous() {
			continue
		}
		if len(k.Stores) == 1 || s.Epilogue[st.Value].Kind == fuse.InstrAcc {
			m.direct = i
			break
		}
	}
	var err error
	if m.epi, err = compile(sp, k.Operands, s.Epilogue, k.Stores, nil, nil); err != nil {
		return nil, err
	}
	if m.direct >= 0 && len(k.Stores) == 1 && s.Epilogue[k.Stores[0].Value].Kind == fuse.InstrAcc {
		m.trivial = true
	}
	switch m.dt {
	case graph.Float32, graph.Float64, graph.Int32, graph.Int64:
	default:
		return nil, fmt.Errorf("cpu: matmul kernel %s: unsupported dtype %v", k.Name, m.dt)
	}
	return m, nil
}

// run computes the kernel's products and epilogue on up to workers
// goroutines, the epilogue in chunks of chunk points.
func (m *mmKernel) run(ctx context.Context, ex *runState, chunk, workers int) error {
	s := &m.spec
	es := m.dt.Size()
	nb := m.batch.size
	var acc unsafe.Pointer
	var tmp []uint64
	if m.direct >= 0 {
		st := &m.epi.stores[m.direct]
		acc = at(ex.bases[st.buf], st.lay.Offset, es)
	} else {
		tmp = make([]uint64, max(1, (nb*s.M*s.N*es+7)/8))
		acc = unsafe.Pointer(&tmp[0])
	}
	var err error
	switch {
	case s.M == 0 || s.N == 0 || nb == 0:
	case s.K == 0:
		clear(view[byte](acc, nb*s.M*s.N*es))
	case m.dt == graph.Float32:
		return mulFloat[float32](ctx, m, ex, acc, chunk, workers)
	case m.dt == graph.Float64:
		return mulFloat[float64](ctx, m, ex, acc, chunk, workers)
	default:
		err = m.intMatMul(ctx, ex, acc, workers)
	}
	if err != nil || m.trivial {
		return err
	}
	return runProg(ctx, m.epi, ex, []unsafe.Pointer{acc}, chunk, workers)
}

// matrix is one operand matrix of one batch point.
type matrix struct {
	base     unsafe.Pointer
	off      int
	rs, cs   int // row and column strides
	rows, cl int
}

// mat returns operand o (rows×cols) of batch point b.
func (m *mmKernel) mat(ex *runState, o *fuse.MatOperand, b, rows, cols int) matrix {
	r := len(o.Strides)
	return matrix{base: ex.bases[o.Buffer], off: o.Offset + m.batchOffset(o, b),
		rs: o.Strides[r-2], cs: o.Strides[r-1], rows: rows, cl: cols}
}

// batchOffset returns the element offset of batch point b in operand o,
// relative to o.Offset.
func (m *mmKernel) batchOffset(o *fuse.MatOperand, b int) int {
	off := 0
	for k := len(o.Strides) - 3; k >= 0; k-- {
		e := m.batch.shape[k]
		off += (b % e) * o.Strides[k]
		b /= e
	}
	return off
}
