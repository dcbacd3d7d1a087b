// MatMul kernels: float32 and float64 products through gonum's
// blas32/blas64 Gemm directly on the buffers (transposed operands through
// the transpose flags; an operand whose strides no BLAS layout expresses
// is copied first), integer products by a cache-blocked loop, batched,
// then the fused epilogue in chunks (in place when the result is stored
// densely in the accumulator's dtype).

package cpu

import (
	"context"
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

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
	if k.MatMul == nil || len(k.Space) < 2 {
		return nil, fmt.Errorf("cpu: matmul kernel %s without a spec or with space %v", k.Name, k.Space)
	}
	s := k.MatMul
	r := len(k.Space)
	empty := s.M == 0 || s.N == 0 || s.K == 0 // operands may be left unset
	if k.Space[r-2] != s.M || k.Space[r-1] != s.N ||
		(!empty && (s.A.DType != s.B.DType || len(s.A.Strides) != r || len(s.B.Strides) != r)) {
		return nil, fmt.Errorf("cpu: matmul kernel %s: inconsistent spec for space %v", k.Name, k.Space)
	}
	m := &mmKernel{spec: *s, dt: s.A.DType, batch: newSpace(k.Space[:r-2]), direct: -1}
	if empty && len(k.Epilogue) > 0 {
		m.dt = k.Epilogue[0].DType
		for _, in := range k.Epilogue {
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
		if len(k.Stores) == 1 || k.Epilogue[st.Value].Kind == fuse.InstrAcc {
			m.direct = i
			break
		}
	}
	var err error
	if m.epi, err = compile(sp, k.Operands, k.Epilogue, k.Stores, nil, nil); err != nil {
		return nil, err
	}
	if m.direct >= 0 && len(k.Stores) == 1 && k.Epilogue[k.Stores[0].Value].Kind == fuse.InstrAcc {
		m.trivial = true
	}
	switch m.dt {
	case graph.Float32, graph.Float64, graph.Int32, graph.Int64:
	default:
		return nil, fmt.Errorf("cpu: matmul kernel %s: unsupported dtype %v", k.Name, m.dt)
	}
	return m, nil
}

// matrix is one operand matrix of one batch point.
type matrix struct {
	base     unsafe.Pointer
	off      int
	rs, cs   int // row and column strides
	rows, cl int
}

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
	mat := func(o *fuse.MatOperand, b, rows, cols int) matrix {
		r := len(o.Strides)
		off := o.Offset
		idx := b
		for k := r - 3; k >= 0; k-- {
			e := m.batch.shape[k]
			off += (idx % e) * o.Strides[k]
			idx /= e
		}
		return matrix{base: ex.bases[o.Buffer], off: off, rs: o.Strides[r-2], cs: o.Strides[r-1], rows: rows, cl: cols}
	}
	one := func(b int) {
		a := mat(&s.A, b, s.M, s.K)
		bb := mat(&s.B, b, s.K, s.N)
		c := at(acc, b*s.M*s.N, es)
		switch m.dt {
		case graph.Float32:
			gemm32(a, bb, c, s.M, s.N, s.K)
		case graph.Float64:
			gemm64(a, bb, c, s.M, s.N, s.K)
		}
	}
	var err error
	switch {
	case s.M == 0 || s.N == 0 || nb == 0:
	case s.K == 0:
		clear(view[byte](acc, nb*s.M*s.N*es))
	case m.dt.IsInt():
		err = m.intMatMul(ctx, ex, mat, acc, workers)
	case nb > 1 && s.M*s.N*s.K < 1<<18:
		err = parallel(ctx, workers, nb, func(_, b int) { one(b) })
	default:
		done := ctx.Done()
		for b := range nb {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
			one(b)
		}
	}
	if err != nil || m.trivial {
		return err
	}
	return runProg(ctx, m.epi, ex, []unsafe.Pointer{acc}, chunk, workers)
}

// blasLayout returns the Gemm view of x: trans, stride, and whether x's
// strides can be expressed at all.
func blasLayout(x matrix) (t blas.Transpose, stride int, ok bool) {
	switch {
	case (x.cs == 1 || x.cl == 1) && x.rs >= max(1, x.cl):
		return blas.NoTrans, x.rs, true
	case x.rows == 1 && (x.cs == 1 || x.cl == 1):
		return blas.NoTrans, max(1, x.cl), true
	case (x.rs == 1 || x.rows == 1) && x.cs >= max(1, x.rows):
		return blas.Trans, x.cs, true
	case x.cl == 1 && (x.rs == 1 || x.rows == 1):
		return blas.Trans, max(1, x.rows), true
	}
	return blas.NoTrans, 0, false
}

// dense returns x's elements as a slice in a BLAS layout, copying them
// into a row-major matrix when its strides allow none.
func dense[T float32 | float64](x matrix) ([]T, blas.Transpose, int) {
	t, stride, ok := blasLayout(x)
	if ok {
		r, c := x.rows, x.cl
		if t == blas.Trans {
			r, c = c, r
		}
		n := 0
		if r > 0 && c > 0 {
			n = (r-1)*stride + c
		}
		return view[T](at(x.base, x.off, int(unsafe.Sizeof(T(0)))), n), t, stride
	}
	out := make([]T, x.rows*x.cl)
	src := (*T)(x.base)
	for i := range x.rows {
		for j := range x.cl {
			out[i*x.cl+j] = *(*T)(at(unsafe.Pointer(src), x.off+i*x.rs+j*x.cs, int(unsafe.Sizeof(T(0)))))
		}
	}
	return out, blas.NoTrans, max(1, x.cl)
}

func gemm32(a, b matrix, c unsafe.Pointer, M, N, K int) {
	cv := view[float32](c, M*N)
	if K == 0 {
		clear(cv)
		return
	}
	if nonFinite[float32](a) || nonFinite[float32](b) {
		naiveGemm[float32](a, b, cv, N)
		return
	}
	ad, ta, sa := dense[float32](a)
	bd, tb, sb := dense[float32](b)
	ga := blas32.General{Rows: a.rows, Cols: a.cl, Stride: sa, Data: ad}
	gb := blas32.General{Rows: b.rows, Cols: b.cl, Stride: sb, Data: bd}
	if ta == blas.Trans {
		ga.Rows, ga.Cols = a.cl, a.rows
	}
	if tb == blas.Trans {
		gb.Rows, gb.Cols = b.cl, b.rows
	}
	blas32.Gemm(ta, tb, 1, ga, gb, 0, blas32.General{Rows: M, Cols: N, Stride: max(1, N), Data: cv})
}

func gemm64(a, b matrix, c unsafe.Pointer, M, N, K int) {
	cv := view[float64](c, M*N)
	if K == 0 {
		clear(cv)
		return
	}
	if nonFinite[float64](a) || nonFinite[float64](b) {
		naiveGemm[float64](a, b, cv, N)
		return
	}
	ad, ta, sa := dense[float64](a)
	bd, tb, sb := dense[float64](b)
	ga := blas64.General{Rows: a.rows, Cols: a.cl, Stride: sa, Data: ad}
	gb := blas64.General{Rows: b.rows, Cols: b.cl, Stride: sb, Data: bd}
	if ta == blas.Trans {
		ga.Rows, ga.Cols = a.cl, a.rows
	}
	if tb == blas.Trans {
		gb.Rows, gb.Cols = b.cl, b.rows
	}
	blas64.Gemm(ta, tb, 1, ga, gb, 0, blas64.General{Rows: M, Cols: N, Stride: max(1, N), Data: cv})
}

// nonFinite reports whether x holds a NaN or an infinity. BLAS kernels
// skip zero multiplicands, which drops the NaN that 0*NaN and 0*Inf give;
// such products go through naiveGemm instead.
func nonFinite[T float32 | float64](x matrix) bool {
	es := int(unsafe.Sizeof(T(0)))
	for i := range x.rows {
		for j := range x.cl {
			v := float64(*(*T)(at(x.base, x.off+i*x.rs+j*x.cs, es)))
			if v-v != 0 {
				return true
			}
		}
	}
	return false
}

// naiveGemm computes C = A·B (C dense with N columns) by the definition,
// accumulating in T, so NaN and infinities propagate as in the reference.
func naiveGemm[T float32 | float64](a, b matrix, c []T, N int) {
	es := int(unsafe.Sizeof(T(0)))
	for i := range a.rows {
		for j := range N {
			var sum T
			for k := range a.cl {
				x := *(*T)(at(a.base, a.off+i*a.rs+k*a.cs, es))
				y := *(*T)(at(b.base, b.off+k*b.rs+j*b.cs, es))
				sum += x * y
			}
			c[i*N+j] = sum
		}
	}
}

// Blocking of the integer product: rows of A per task and the depth of a
// block of B kept in cache.
const (
	intRowBlock = 32
	intKBlock   = 256
)

// intMatMul computes integer products with wraparound, parallel over
// blocks of rows of every batch point.
func (m *mmKernel) intMatMul(ctx context.Context, ex *runState, mat func(*fuse.MatOperand, int, int, int) matrix, acc unsafe.Pointer, workers int) error {
	s := &m.spec
	per := (s.M + intRowBlock - 1) / intRowBlock
	return parallel(ctx, workers, m.batch.size*per, func(_, t int) {
		b, blk := t/per, t%per
		a := mat(&s.A, b, s.M, s.K)
		bb := mat(&s.B, b, s.K, s.N)
		i0, i1 := blk*intRowBlock, min(s.M, (blk+1)*intRowBlock)
		if m.dt == graph.Int32 {
			imm[int32](a, bb, view[int32](at(acc, b*s.M*s.N, 4), s.M*s.N), i0, i1, s.N, s.K)
		} else {
			imm[int64](a, bb, view[int64](at(acc, b*s.M*s.N, 8), s.M*s.N), i0, i1, s.N, s.K)
		}
	})
}

// imm computes rows [i0, i1) of C = A·B (C dense with N columns).
func imm[T int32 | int64](a, b matrix, c []T, i0, i1, N, K int) {
	es := int(unsafe.Sizeof(T(0)))
	clear(c[i0*N : i1*N])
	for k0 := 0; k0 < K; k0 += intKBlock {
		k1 := min(K, k0+intKBlock)
		for i := i0; i < i1; i++ {
			row := c[i*N : (i+1)*N]
			for k := k0; k < k1; k++ {
				x := *(*T)(at(a.base, a.off+i*a.rs+k*a.cs, es))
				if x == 0 {
					continue
				}
				bo := b.off + k*b.rs
				if b.cs == 1 {
					brow := view[T](at(b.base, bo, es), N)
					for j, y := range brow {
						row[j] += x * y
					}
					continue
				}
				for j := range row {
					row[j] += x * *(*T)(at(b.base, bo+j*b.cs, es))
				}
			}
		}
	}
}
