// Fused gathers (fuse.InstrGather) in Map bodies and Reduce prologues:
// a chunk's element offsets of the gathered array come from its
// operand's strides, the index register displaces each by the
// normalized index times the gathered axis' stride, and a bad index is
// not loaded through: the worker's frame keeps the smallest bad
// (instruction, position), and the kernel fails with its error once
// every chunk has run.

package cpu

import (
	"fmt"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// gatherBad is the first bad index a worker met in the kernel running:
// the smallest (instruction, position) and the index value.
type gatherBad struct {
	set       bool
	step, pos int
	val       int64
	gat       *fuse.GatherAttr
	op        graph.Op
}

// gatherFn gathers one run of cnt points whose offsets in the gathered
// operand are off, off+step, ...: dst[k] is the element at off + k*step
// + i*stride of base, with i the k-th index of ip normalized against n;
// a bad index gives 0. It returns the number of bad indices.
type gatherFn func(dst, base, ip unsafe.Pointer, off, step, cnt, stride, n int) int

// fusedIndexFn reads index k of ip as an int64 (unsigned 64-bit indices
// wrap, as every backend reads them).
type fusedIndexFn func(ip unsafe.Pointer, k int) int64

// fusedGatherTab holds the gathers by element size (log2) and index dtype.
var (
	fusedGatherTab [4][]gatherFn
	fusedIndexTab  []fusedIndexFn
)

func init() {
	n := 0
	for _, d := range []graph.DType{graph.Int8, graph.Int16, graph.Int32, graph.Int64, graph.Uint8, graph.Uint16, graph.Uint32, graph.Uint64} {
		n = max(n, int(d)+1)
	}
	for k := range fusedGatherTab {
		fusedGatherTab[k] = make([]gatherFn, n)
	}
	fusedIndexTab = make([]fusedIndexFn, n)
	regFusedGather[int8](graph.Int8)
	regFusedGather[int16](graph.Int16)
	regFusedGather[int32](graph.Int32)
	regFusedGather[int64](graph.Int64)
	regFusedGather[uint8](graph.Uint8)
	regFusedGather[uint16](graph.Uint16)
	regFusedGather[uint32](graph.Uint32)
	regFusedGather[uint64](graph.Uint64)
}

type indexInt interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

func regFusedGather[I indexInt](d graph.DType) {
	fusedGatherTab[0][d] = fusedGatherT[uint8, I]
	fusedGatherTab[1][d] = fusedGatherT[uint16, I]
	fusedGatherTab[2][d] = fusedGatherT[uint32, I]
	fusedGatherTab[3][d] = fusedGatherT[uint64, I]
	fusedIndexTab[d] = func(ip unsafe.Pointer, k int) int64 { return int64(*(*I)(unsafe.Add(ip, k*int(unsafe.Sizeof(I(0)))))) }
}

func fusedGatherT[T uint8 | uint16 | uint32 | uint64, I indexInt](dst, base, ip unsafe.Pointer, off, step, cnt, stride, n int) int {
	d := view[T](dst, cnt)
	x := view[I](ip, cnt)
	es := int(unsafe.Sizeof(T(0)))
	p := unsafe.Add(base, off*es)
	bad := 0
	if step == 0 && stride == 1 { // a flat Take: one row of X for the run
		src := view[T](p, n)
		for k, v := range x {
			i, ok := normIndex(int64(v), n)
			if !ok {
				d[k] = 0
				bad++
				continue
			}
			d[k] = src[i]
		}
		return bad
	}
	if step == 1 && cnt >= 2*rowRunMin && x[0] == x[cnt-1] {
		return gatherRowRuns(d, p, x, stride, n)
	}
	for k, v := range x {
		i, ok := normIndex(int64(v), n)
		if !ok {
			d[k] = 0
			bad++
			continue
		}
		d[k] = *(*T)(unsafe.Add(p, (k*step+i*stride)*es))
	}
	return bad
}

// normIndex returns index v normalized against an axis of n (a negative
// one counts from the end), and whether it is in range.
func normIndex(v int64, n int) (int, bool) {
	i := int(v)
	if i < 0 {
		i += n
	}
	return i, uint(i) < uint(n)
}

// rowRunMin is the shortest stretch of equal indices gatherRowRuns copies as a
// block.
const rowRunMin = 16

// gatherRowRuns is fusedGatherT's loop for a run that is contiguous in X
// (step 1) and whose indices repeat (a Take of whole rows, where the
// index is the same along the run): each stretch of equal indices is
// checked once and copied as a block; short stretches go element by
// element.
func gatherRowRuns[T uint8 | uint16 | uint32 | uint64, I indexInt](d []T, p unsafe.Pointer, x []I, stride, n int) int {
	bad := 0
	es := int(unsafe.Sizeof(T(0)))
	for k := 0; k < len(x); {
		v := x[k]
		j := k + 1
		for j < len(x) && x[j] == v {
			j++
		}
		i, ok := normIndex(int64(v), n)
		switch {
		case !ok:
			clear(d[k:j])
			bad += j - k
		case j-k >= rowRunMin:
			copy(d[k:j], view[T](unsafe.Add(p, (k+i*stride)*es), j-k))
		default:
			for m := k; m < j; m++ {
				d[m] = *(*T)(unsafe.Add(p, (m+i*stride)*es))
			}
		}
		k = j
	}
	return bad
}

// log2Size returns log2 of an element size of 1, 2, 4 or 8 bytes.
func log2Size(es int) int {
	switch es {
	case 1:
		return 0
	case 2:
		return 1
	case 4:
		return 2
	}
	return 3
}

// lowerGather checks an InstrGather and resolves its loop.
func lowerGather(st step, in fuse.Instr, opds []access) (step, error) {
	g := in.Gather
	switch {
	case g == nil || len(in.Args) != 1:
		return st, fmt.Errorf("gather without attributes or with %d arguments", len(in.Args))
	case in.Operand < 0 || in.Operand >= len(opds) || g.Pos < 0 || g.Pos >= len(opds):
		return st, fmt.Errorf("gather operands %d, %d out of range", in.Operand, g.Pos)
	case opds[in.Operand].es != in.DType.Size() || g.Len < 1:
		return st, fmt.Errorf("gather of %v from an operand of %d-byte elements", in.DType, opds[in.Operand].es)
	case int(g.Index.DType) >= len(fusedIndexTab) || fusedIndexTab[g.Index.DType] == nil:
		return st, fmt.Errorf("gather indices of dtype %v", g.Index.DType)
	}
	st.gat = g
	st.gfn = fusedGatherTab[log2Size(in.DType.Size())][g.Index.DType]
	return st, nil
}

// runGather evaluates the gather step i over the flat points [lo,
// lo+n) into dst.
func (p *prog) runGather(f *frame, bases []unsafe.Pointer, dst unsafe.Pointer, i, lo, n int) {
	st := &p.steps[i]
	g := st.gat
	o := &p.opds[st.opd]
	ip := f.ptr[st.args[0]]
	base, es, is := bases[o.buf], st.dt.Size(), g.Index.DType.Size()
	bad := 0
	p.sp.walk(o.lay, lo, n, f.idx, func(pos, off, step, cnt int) {
		bad += st.gfn(unsafe.Add(dst, pos*es), base, unsafe.Add(ip, pos*is), off, step, cnt, g.Stride, g.Len)
	})
	if bad > 0 {
		p.badIndices(f, i, ip, lo, n)
	}
	if st.dt == graph.Bool {
		normLoop(dst, dst, n)
	}
}

// badIndices records in f the smallest position of a bad index of
// gather step i among the points [lo, lo+n).
func (p *prog) badIndices(f *frame, i int, ip unsafe.Pointer, lo, n int) {
	st := &p.steps[i]
	g := st.gat
	read := fusedIndexTab[g.Index.DType]
	pos := f.offs[:n]
	p.sp.walk(p.opds[g.Pos].lay, lo, n, f.idx, func(at, off, step, cnt int) {
		for k := range cnt {
			pos[at+k] = off + k*step
		}
	})
	for k := range n {
		v := read(ip, k)
		j := v
		if j < 0 {
			j += int64(g.Len)
		}
		if uint64(j) < uint64(g.Len) {
			continue
		}
		b := &f.gbad
		if !b.set || i < b.step || i == b.step && pos[k] < b.pos {
			*b = gatherBad{set: true, step: i, pos: pos[k], val: v, gat: g, op: st.op}
		}
	}
}

// clearBad forgets the bad indices the workers recorded.
func (ex *runState) clearBad() {
	for w := range ex.frames {
		ex.frames[w].gbad = gatherBad{}
	}
}

// badIndex returns the error of the first bad index the workers
// recorded (the smallest instruction, then position), or nil.
func (ex *runState) badIndex() error {
	var b *gatherBad
	for w := range ex.frames {
		c := &ex.frames[w].gbad
		if c.set && (b == nil || c.step < b.step || c.step == b.step && c.pos < b.pos) {
			b = c
		}
	}
	if b == nil {
		return nil
	}
	return graph.IndexError(b.op, b.val, b.gat.Axis, b.gat.Len)
}

// runChecked runs a kernel whose program p may hold gathers, and
// returns the first bad index they met.
func (ex *runState) runChecked(p *prog, run func() error) error {
	if p.gathers == 0 {
		return run()
	}
	ex.clearBad()
	if err := run(); err != nil {
		return err
	}
	return ex.badIndex()
}
