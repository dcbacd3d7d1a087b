// Index kernels on every core (Take and TakeAlong are not among them:
// they are fused gathers, see fusedgather.go): Put moves elements by
// size, so it serves every dtype; Nonzero counts the non-zero elements of each chunk, then each chunk
// writes its indices at its prefix offset; scatters run without races:
// Put and ScatterMax by ownership (a worker applies, in order, only the
// updates that land in its part of the result, so a repeated index keeps
// the last update exactly), ScatterAdd with many updates into a small
// result (Bincount, Histogram) into per-worker partial sums merged in
// worker order, and otherwise by ownership as well. Every index is checked
// against its axis; the first bad one in row-major order is the error.

package cpu

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// indexTask is the number of elements a gather or compaction task
// handles.
const indexTask = 1 << 15

// indexKernel is an Index kernel ready to run.
type indexKernel struct {
	s    fuse.IndexSpec
	name string
}

// lowerIndex checks an Index kernel's spec against what this backend
// runs.
func lowerIndex(k *fuse.Kernel) (*indexKernel, error) {
	s := k.Index()
	if s == nil {
		return nil, fmt.Errorf("cpu: index kernel %s without an IndexSpec", k.Name)
	}
	bad := func(what string, d graph.DType) error {
		return fmt.Errorf("cpu: %v: %s of dtype %v is not supported", s.Op, what, d)
	}
	if s.Op != graph.OpNonzero && s.Op != graph.OpCompress && s.Index.Len > 0 && !s.Index.DType.IsInt() {
		return nil, bad("indices", s.Index.DType)
	}
	switch s.Op {
	case graph.OpScatter:
		if sz := s.Out.DType.Size(); sz != 1 && sz != 2 && sz != 4 && sz != 8 {
			return nil, bad("an array", s.Out.DType)
		}
	case graph.OpNonzero:
		if _, ok := nonzeroFns[s.X.DType]; !ok && s.X.Len > 0 {
			return nil, bad("a condition", s.X.DType)
		}
	case graph.OpCompress:
		if _, ok := compressFns[s.Index.DType]; !ok && s.Index.Len > 0 {
			return nil, bad("a condition", s.Index.DType)
		}
		if sz := s.Out.DType.Size(); sz != 1 && sz != 2 && sz != 4 && sz != 8 {
			return nil, bad("an array", s.Out.DType)
		}
	case graph.OpScatterAdd, graph.OpScatterMax:
		if _, ok := scatterFns[s.Out.DType]; !ok {
			return nil, bad("an array", s.Out.DType)
		}
	default:
		return nil, fmt.Errorf("cpu: index kernel %s: op %v", k.Name, s.Op)
	}
	return &indexKernel{s: *s, name: k.Name}, nil
}

// ptr is the address of argument a's first element (nil when empty).
func ptr(bases []unsafe.Pointer, a fuse.IndexArg) unsafe.Pointer {
	if a.Len == 0 || a.Buffer < 0 {
		return nil
	}
	return unsafe.Add(bases[a.Buffer], a.Offset*a.DType.Size())
}

// run runs the kernel on up to workers goroutines.
func (ik *indexKernel) run(ctx context.Context, bases []unsafe.Pointer, workers int) error {
	s := &ik.s
	if s.Op != graph.OpNonzero && s.Op != graph.OpCompress && s.Index.Len > 0 && s.Index.DType != graph.Int32 && s.Index.DType != graph.Int64 {
		// Indices of the other integer dtypes are widened to int64 once
		// (uint64 by its bits, as every backend reads it), so the loops
		// below serve two index types.
		wide := widenIndex(bases, s.Index)
		ws := *s
		ws.Index = fuse.IndexArg{Buffer: len(bases), DType: graph.Int64, Len: len(wide)}
		err := ik.runWith(ctx, &ws, append(bases[:len(bases):len(bases)], unsafe.Pointer(&wide[0])), workers)
		runtime.KeepAlive(wide)
		return err
	}
	return ik.runWith(ctx, s, bases, workers)
}

// widenIndex returns the indices of a as int64.
func widenIndex(bases []unsafe.Pointer, a fuse.IndexArg) []int64 {
	out := make([]int64, a.Len)
	switch a.DType {
	case graph.Int8:
		widenInto(out, slice[int8](bases, a))
	case graph.Int16:
		widenInto(out, slice[int16](bases, a))
	case graph.Uint8:
		widenInto(out, slice[uint8](bases, a))
	case graph.Uint16:
		widenInto(out, slice[uint16](bases, a))
	case graph.Uint32:
		widenInto(out, slice[uint32](bases, a))
	default:
		widenInto(out, slice[uint64](bases, a))
	}
	return out
}

// widenInto converts src into dst (int64 bits for uint64).
func widenInto[I int8 | int16 | uint8 | uint16 | uint32 | uint64](dst []int64, src []I) {
	for k, v := range src {
		dst[k] = int64(v)
	}
}

// runWith runs the kernel of spec s (int32 or int64 indices).
func (ik *indexKernel) runWith(ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
	switch s.Op {
	case graph.OpNonzero:
		return nonzeroFns[s.X.DType](ctx, s, bases, workers)
	case graph.OpCompress:
		if s.Index.Len == 0 {
			return nil
		}
		return compressFns[s.Index.DType](ctx, s, bases, workers)
	case graph.OpScatterAdd, graph.OpScatterMax:
		f := scatterFns[s.Out.DType]
		return f(ctx, s, bases, workers)
	}
	// Put moves elements by size.
	wide := s.Index.DType == graph.Int64
	switch s.Out.DType.Size() {
	case 1:
		return moveBy[uint8](ctx, s, bases, workers, wide)
	case 2:
		return moveBy[uint16](ctx, s, bases, workers, wide)
	case 4:
		return moveBy[uint32](ctx, s, bases, workers, wide)
	}
	return moveBy[uint64](ctx, s, bases, workers, wide)
}

// moveBy runs Put over elements of E's size with int32 or
// (wide) int64 indices.
func moveBy[E any](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int, wide bool) error {
	if wide {
		return move[E, int64](ctx, s, bases, workers)
	}
	return move[E, int32](ctx, s, bases, workers)
}

// slice is the Go slice of a's elements as T.
func slice[T any](bases []unsafe.Pointer, a fuse.IndexArg) []T {
	return goSlice[T](ptr(bases, a), a.Len)
}

// move runs Put.
func move[E any, I int32 | int64](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
	out := slice[E](bases, s.Out)
	idx := slice[I](bases, s.Index)
	upd, step := updates(bases, s, func() E { return bitsAs[E](s.Const) })
	return owned(ctx, s, idx, workers, func(o, j, i int) {
		d, u := (o*s.Len+i)*s.Inner, (o*s.Count+j)*s.Inner*step
		copy(out[d:d+s.Inner], upd[u:u+s.Inner])
	})
}

// owned applies fn(o, j, i) for every update (o, j) whose normalized
// index i is valid, in row-major order for each destination, on up to
// workers goroutines that each own a part of the result: whole outer
// rows when there are enough of them, else a range of positions along
// the axis (every worker then reads every index). The first index out
// of range (in position order) is the error, and then nothing is
// guaranteed about the result, which the caller discards.
func owned[I int32 | int64](ctx context.Context, s *fuse.IndexSpec, idx []I, workers int, fn func(o, j, i int)) error {
	if s.Count == 0 || s.Outer == 0 || s.Inner == 0 {
		return nil
	}
	work := s.Outer * s.Count * s.Inner
	workers = max(1, min(workers, work/indexTask))
	byOuter := s.Outer >= workers
	parts := workers
	if byOuter {
		parts = min(s.Outer, workers*4)
	} else {
		parts = min(parts, s.Len)
	}
	bad := make([]int, parts)
	err := parallel(ctx, workers, parts, func(_, t int) {
		olo, ohi, ilo, ihi := 0, s.Outer, 0, s.Len
		if byOuter {
			olo, ohi = t*s.Outer/parts, (t+1)*s.Outer/parts
		} else {
			ilo, ihi = t*s.Len/parts, (t+1)*s.Len/parts
		}
		for o := olo; o < ohi; o++ {
			for j := range s.Count {
				i := int(idx[j])
				if i < 0 {
					i += s.Len
				}
				if uint(i) >= uint(s.Len) {
					bad[t] = j + 1
					return
				}
				if i >= ilo && i < ihi {
					fn(o, j, i)
				}
			}
		}
	})
	if err != nil {
		return err
	}
	first := 0
	for _, b := range bad {
		if b > 0 && (first == 0 || b < first) {
			first = b
		}
	}
	if first > 0 {
		return graph.IndexError(s.Op, int64(idx[first-1]), s.Axis, s.Len)
	}
	return nil
}

// number is what ScatterAdd and ScatterMax compute on.
type number interface {
	~uint8 | ~int32 | ~int64 | ~float32 | ~float64
}

// scatterFns run ScatterAdd and ScatterMax per result dtype (bool only
// for Max: the maximum of 0 and 1 bytes is their or).
var scatterFns = map[graph.DType]func(context.Context, *fuse.IndexSpec, []unsafe.Pointer, int) error{
	graph.Bool:    scatterBy[uint8],
	graph.Int32:   scatterBy[int32],
	graph.Int64:   scatterBy[int64],
	graph.Float32: scatterBy[float32],
	graph.Float64: scatterBy[float64],
}

func scatterBy[E number](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
	if s.Index.DType == graph.Int64 {
		return scatterNum[E, int64](ctx, s, bases, workers)
	}
	return scatterNum[E, int32](ctx, s, bases, workers)
}

// maxNaN is the maximum of a and b, NaN when either is NaN.
func maxNaN[E number](a, b E) E {
	if b > a || b != b {
		return b
	}
	return a
}

// scatterNum runs ScatterAdd or ScatterMax.
func scatterNum[E number, I int32 | int64](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
	out := slice[E](bases, s.Out)
	idx := slice[I](bases, s.Index)
	upd, step := updates(bases, s, func() E { return valueAs[E](s.Const) })
	if s.Op == graph.OpScatterMax {
		return owned(ctx, s, idx, workers, func(o, j, i int) {
			d, u := (o*s.Len+i)*s.Inner, (o*s.Count+j)*s.Inner*step
			for k := range s.Inner {
				out[d+k] = maxNaN(out[d+k], upd[u+k])
			}
		})
	}
	if step == 0 {
		if done, err := countScatter(ctx, s, out, idx, upd[0], workers); done {
			return err
		}
	}
	size := s.Outer * s.Len * s.Inner
	updates := s.Outer * s.Count * s.Inner
	workers = max(1, min(workers, updates/indexTask))
	if workers == 1 || size*workers > updates/2 || s.Outer != 1 {
		return owned(ctx, s, idx, workers, func(o, j, i int) {
			d, u := (o*s.Len+i)*s.Inner, (o*s.Count+j)*s.Inner*step
			for k := range s.Inner {
				out[d+k] += upd[u+k]
			}
		})
	}
	// Many updates into a small result: per-worker partial sums over
	// contiguous ranges of the indices, merged in worker order.
	part := make([]E, (workers-1)*size)
	bad := make([]int, workers)
	err := parallel(ctx, workers, workers, func(_, t int) {
		dst := out
		if t > 0 {
			dst = part[(t-1)*size : t*size]
		}
		lo, hi := t*s.Count/workers, (t+1)*s.Count/workers
		bad[t] = addRange(dst, upd, step, idx, s, lo, hi)
	})
	if err != nil {
		return err
	}
	for _, b := range bad {
		if b > 0 {
			return graph.IndexError(s.Op, int64(idx[b-1]), s.Axis, s.Len)
		}
	}
	per := max(1, indexTask)
	tasks := (size + per - 1) / per
	return parallel(ctx, workers, tasks, func(_, t int) {
		lo, hi := t*per, min((t+1)*per, size)
		for w := 1; w < workers; w++ {
			p := part[(w-1)*size:]
			for k := lo; k < hi; k++ {
				out[k] += p[k]
			}
		}
	})
}

// addRange adds the updates j in [lo, hi) of a scatter with one outer
// row into dst (update j at j*Inner*step of upd), returning 1 + the
// position of the first bad index.
func addRange[E number, I int32 | int64](dst, upd []E, step int, idx []I, s *fuse.IndexSpec, lo, hi int) int {
	n, in := s.Len, s.Inner
	if step == 0 && in == 1 {
		c := upd[0]
		for j := lo; j < hi; j++ {
			i := int(idx[j])
			if i < 0 {
				i += n
			}
			if uint(i) >= uint(n) {
				return j + 1
			}
			dst[i] += c
		}
		return 0
	}
	for j := lo; j < hi; j++ {
		i := int(idx[j])
		if i < 0 {
			i += n
		}
		if uint(i) >= uint(n) {
			return j + 1
		}
		if in == 1 {
			dst[i] += upd[j*step]
			continue
		}
		d, u := i*in, j*in*step
		for k := range in {
			dst[d+k] += upd[u+k]
		}
	}
	return 0
}

// nonzeroFns run Nonzero per condition dtype, on the elements' bits: an
// element is non-zero when its bits under the dtype's mask are (the
// sign bit is left out for floats, so -0 is zero and NaN is not).
var nonzeroFns = map[graph.DType]func(context.Context, *fuse.IndexSpec, []unsafe.Pointer, int) error{}

func init() {
	for _, d := range graph.DTypes() {
		float := d.IsFloat()
		switch d.Size() {
		case 1:
			nonzeroFns[d] = nonzeroBits[uint8](math.MaxUint8)
		case 2:
			nonzeroFns[d] = nonzeroBits(pick[uint16](float, math.MaxInt16, math.MaxUint16))
		case 4:
			nonzeroFns[d] = nonzeroBits(pick[uint32](float, math.MaxInt32, math.MaxUint32))
		case 8:
			nonzeroFns[d] = nonzeroBits(pick[uint64](float, math.MaxInt64, math.MaxUint64))
		}
	}
}

// pick returns a when c holds, else b.
func pick[E any](c bool, a, b E) E {
	if c {
		return a
	}
	return b
}

// nonzeroBits returns Nonzero over elements of E's size with mask m.
func nonzeroBits[E uint8 | uint16 | uint32 | uint64](m E) func(context.Context, *fuse.IndexSpec, []unsafe.Pointer, int) error {
	return func(ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
		return compactNonzero(ctx, s, bases, workers, m)
	}
}

// compactNonzero writes the flat indices of x's non-zero elements (bits
// under m not zero): each task counts its chunk, then writes its indices
// after the counts of the chunks before it.
func compactNonzero[E uint8 | uint16 | uint32 | uint64](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int, m E) error {
	x := slice[E](bases, s.X)
	out := slice[int64](bases, s.Out)
	tasks := (len(x) + indexTask - 1) / indexTask
	counts, err := taskOffsets(ctx, s, workers, tasks, "non-zero elements", func(t int) int {
		c := 0
		for _, v := range x[t*indexTask : min((t+1)*indexTask, len(x))] {
			if v&m != 0 {
				c++
			}
		}
		return c
	})
	if err != nil {
		return err
	}
	return parallel(ctx, workers, tasks, func(_, t int) {
		k := counts[t]
		lo := t * indexTask
		for j, v := range x[lo:min(lo+indexTask, len(x))] {
			if v&m != 0 {
				out[k] = int64(lo + j)
				k++
			}
		}
	})
}

// taskOffsets runs count on each of tasks tasks in parallel and returns
// where each task writes: offsets[t] is the sum of the counts of the
// tasks before t, offsets[tasks] the total, which must be s.Count (the
// error names s's op and what was counted otherwise).
func taskOffsets(ctx context.Context, s *fuse.IndexSpec, workers, tasks int, what string, count func(t int) int) ([]int, error) {
	offsets := make([]int, tasks+1)
	if err := parallel(ctx, workers, tasks, func(_, t int) { offsets[t+1] = count(t) }); err != nil {
		return nil, err
	}
	for t := range tasks {
		offsets[t+1] += offsets[t]
	}
	if offsets[tasks] != s.Count {
		return nil, fmt.Errorf("%v: %d %s where %d were counted", s.Op, offsets[tasks], what, s.Count)
	}
	return offsets, nil
}

// updates returns a scatter's updates and the step between consecutive
// updates' elements: the Updates buffer and 1, or, for constant updates,
// Inner copies of the constant c() and 0.
func updates[E any](bases []unsafe.Pointer, s *fuse.IndexSpec, c func() E) ([]E, int) {
	if s.Const == nil {
		return slice[E](bases, s.Updates), 1
	}
	u := make([]E, max(s.Inner, 1))
	v := c()
	for k := range u {
		u[k] = v
	}
	return u, 0
}

// valueAs converts the constant c to E (of c's dtype).
func valueAs[E number](c *graph.Scalar) E {
	if c.DType.IsFloat() {
		return E(c.F)
	}
	return E(c.I)
}

// bitsAs returns the bits of the constant c as the unsigned E of its
// size (little-endian memory form; bool as 0 or 1).
func bitsAs[E any](c *graph.Scalar) E {
	var b uint64
	switch c.DType {
	case graph.Float32:
		b = uint64(math.Float32bits(float32(c.F)))
	case graph.Float64:
		b = math.Float64bits(c.F)
	case graph.Bool:
		if c.I != 0 {
			b = 1
		}
	default:
		b = uint64(c.I)
	}
	var e E
	switch p := any(&e).(type) {
	case *uint8:
		*p = uint8(b)
	case *uint16:
		*p = uint16(b)
	case *uint32:
		*p = uint32(b)
	case *uint64:
		*p = b
	}
	return e
}

// compressFns run Compress per condition dtype.
var compressFns = map[graph.DType]func(context.Context, *fuse.IndexSpec, []unsafe.Pointer, int) error{
	graph.Bool:    compressBy[uint8],
	graph.Int32:   compressBy[int32],
	graph.Int64:   compressBy[int64],
	graph.Float32: compressBy[float32],
	graph.Float64: compressBy[float64],
}

// compressBy runs Compress with a condition of C, moving elements by
// size.
func compressBy[C number](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
	switch s.Out.DType.Size() {
	case 1:
		return compress[C, uint8](ctx, s, bases, workers)
	case 2:
		return compress[C, uint16](ctx, s, bases, workers)
	case 4:
		return compress[C, uint32](ctx, s, bases, workers)
	}
	return compress[C, uint64](ctx, s, bases, workers)
}

// compress copies the rows of X whose condition is not zero: each task
// counts its chunk of the condition, then copies its rows after the
// rows of the chunks before it.
func compress[C number, E any](ctx context.Context, s *fuse.IndexSpec, bases []unsafe.Pointer, workers int) error {
	cond := slice[C](bases, s.Index)
	x := slice[E](bases, s.X)
	out := slice[E](bases, s.Out)
	in := s.Inner
	per := max(1, indexTask/max(in, 1))
	tasks := (len(cond) + per - 1) / per
	counts, err := taskOffsets(ctx, s, workers, tasks, "selected rows", func(t int) int {
		c := 0
		for _, v := range cond[t*per : min((t+1)*per, len(cond))] {
			if v != 0 {
				c++
			}
		}
		return c
	})
	if err != nil {
		return err
	}
	if in == 0 {
		return nil
	}
	return parallel(ctx, workers, tasks, func(_, t int) {
		k := counts[t]
		lo := t * per
		if in == 1 {
			// Every element is written at the next free slot and kept
			// when selected (no branch to mispredict), up to the last
			// slot of this chunk: the next one is the next task's.
			end := counts[t+1]
			for j, v := range cond[lo:min(lo+per, len(cond))] {
				if k == end {
					break
				}
				out[k] = x[lo+j]
				if v != 0 {
					k++
				}
			}
			return
		}
		for j, v := range cond[lo:min(lo+per, len(cond))] {
			if v != 0 {
				r := lo + j
				copy(out[k*in:(k+1)*in], x[r*in:(r+1)*in])
				k++
			}
		}
	})
}
