// Transfers between host tensors and device memory: uploads of host
// views (their covering range, keeping the view's strides), ToDevice, and
// ToHost (exec.HostCopier), by direct DMA from pinned memory and through
// the staging ring otherwise.

package cuda

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

var _ exec.HostCopier = (*Backend)(nil)

// alignDown rounds element index i down so that i*es is a multiple of 16
// bytes, keeping device pointers derived from it 16-byte aligned.
func alignDown(i, es int) int {
	if es <= 0 || 16%es != 0 {
		return i
	}
	per := 16 / es
	return i - i%per
}

// upload copies the covering range of host tensor t to a new device
// buffer on ln's stream and returns it with the device address of the
// host buffer's element 0 (which may lie before the allocation: only the
// view's elements are read through it).
func (b *Backend) upload(ln *lane, t *exec.Tensor) (*Buffer, drv.DevicePtr, int, error) {
	es := t.DType.Size()
	lo, hi := t.Span()
	if hi < lo { // empty: a valid pointer, nothing to copy
		buf, err := b.pool.Alloc(16, ln.stream)
		if err != nil {
			return nil, 0, 0, err
		}
		return buf, buf.Ptr(), 0, nil
	}
	lo = alignDown(lo, es)
	src := t.Buf.Bytes()
	if lo < 0 || (hi+1)*es > len(src) {
		return nil, 0, 0, fmt.Errorf("cuda: host tensor %v %v (offset %d, strides %v) reaches outside its %d-byte buffer",
			t.Shape, t.DType, t.Offset, t.Strides, len(src))
	}
	src = src[lo*es : (hi+1)*es]
	buf, err := b.pool.Alloc(int64(len(src)), ln.stream)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := b.copyIn(ln, buf.Ptr(), src); err != nil {
		buf.stream.Store(uintptr(ln.stream))
		buf.Release()
		return nil, 0, 0, err
	}
	return buf, buf.Ptr() - drv.DevicePtr(lo*es), lo, nil
}

// copyIn queues the copy of src to dst on ln's stream: by DMA when src is
// pinned (src must then stay valid until the stream is synchronized),
// else through the staging ring (src may be reused on return).
func (b *Backend) copyIn(ln *lane, dst drv.DevicePtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	b.uploaded.Add(int64(len(src)))
	p := unsafe.Pointer(unsafe.SliceData(src))
	if IsPinned(p, len(src)) {
		return b.ctx.MemcpyHtoDAsync(dst, p, uint64(len(src)), ln.stream)
	}
	r, err := b.lanes.staging(ln)
	if err != nil {
		return err
	}
	return r.upload(dst, src, ln.stream)
}

// copyOut copies len(dst) bytes at src into dst and returns when they
// are there.
func (b *Backend) copyOut(ln *lane, dst []byte, src drv.DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	b.downloaded.Add(int64(len(dst)))
	p := unsafe.Pointer(unsafe.SliceData(dst))
	if IsPinned(p, len(dst)) {
		if err := b.ctx.MemcpyDtoHAsync(p, src, uint64(len(dst)), ln.stream); err != nil {
			return err
		}
		return b.ctx.StreamSynchronize(ln.stream)
	}
	r, err := b.lanes.staging(ln)
	if err != nil {
		return err
	}
	return r.download(dst, src, ln.stream)
}

// ToDevice copies host tensor t to device memory and returns a device
// tensor with t's dtype, shape and strides (a strided view is copied as
// the range of elements it covers). For a device tensor of this backend
// it returns a retained view. The caller owns the result.
func (b *Backend) ToDevice(ctx context.Context, t *exec.Tensor) (*exec.Tensor, error) {
	if t == nil {
		return nil, fmt.Errorf("cuda: ToDevice of a nil tensor")
	}
	if err := b.usable(); err != nil {
		return nil, err
	}
	if t.OnDevice() {
		if _, err := b.deviceBuffer(t); err != nil {
			return nil, err
		}
		return t.View(t.Shape, t.Strides, t.Offset), nil
	}
	if t.Buf == nil {
		return nil, fmt.Errorf("cuda: ToDevice of a %v %v tensor without a buffer", t.Shape, t.DType)
	}
	ln, err := b.lanes.acquire(ctx)
	if err != nil {
		return nil, b.faulted(err, "creating a stream", "")
	}
	defer b.lanes.release(ln)
	buf, _, lo, err := b.upload(ln, t)
	if err != nil {
		return nil, b.faulted(err, "copying to the device", "")
	}
	return b.landed(ln, buf, t, lo, nil, "copying to the device")
}

// landed waits for the copy into dst queued on ln's stream, unless err
// (queueing it failed) is not nil, and returns dst as a device tensor
// with t's layout less lo elements of offset (dst holds t's elements from
// lo on). On an error it releases dst and returns the error of what.
func (b *Backend) landed(ln *lane, dst *Buffer, t *exec.Tensor, lo int, err error, what string) (*exec.Tensor, error) {
	if err == nil {
		err = b.ctx.StreamSynchronize(ln.stream)
	}
	if err != nil {
		dst.Release()
		return nil, b.faulted(err, what, "")
	}
	b.pool.StreamDone(ln.stream)
	l := t.Layout.Clone()
	l.Offset -= lo
	return &exec.Tensor{Dev: dst, Layout: l}, nil
}

// deviceBuffer returns t's device buffer, checking that it belongs to
// this backend.
func (b *Backend) deviceBuffer(t *exec.Tensor) (*Buffer, error) {
	buf, ok := t.Dev.(*Buffer)
	if !ok || buf.pool != b.pool {
		return nil, fmt.Errorf("cuda: %s cannot use a %v %v tensor held in another backend's device memory (%T)",
			b.Name(), t.Shape, t.DType, t.Dev)
	}
	return buf, nil
}

// ToHost copies t to a new contiguous host tensor allocated from alloc
// (pinned memory from HostAllocator is copied by DMA, other memory
// through the staging ring). For a host tensor it returns a retained
// view. t is not released; the caller owns the result. Safe for
// concurrent use.
func (b *Backend) ToHost(ctx context.Context, t *exec.Tensor, alloc memory.Allocator) (*exec.Tensor, error) {
	if t == nil {
		return nil, fmt.Errorf("cuda: ToHost of a nil tensor")
	}
	if !t.OnDevice() {
		return t.View(t.Shape, t.Strides, t.Offset), nil
	}
	if err := b.usable(); err != nil {
		return nil, err
	}
	if alloc == nil {
		alloc = memory.DefaultAllocator
	}
	buf, err := b.deviceBuffer(t)
	if err != nil {
		return nil, err
	}
	es := t.DType.Size()
	n := t.Shape.Size() * es
	host := memory.NewResizableBuffer(alloc)
	host.Resize(n)
	out := &exec.Tensor{Buf: host, Layout: graph.ContiguousLayout(t.DType, t.Shape)}
	if n == 0 {
		return out, nil
	}
	lo, hi := t.Span()
	if lo < 0 || (hi+1)*es > buf.Len() {
		out.Release()
		return nil, fmt.Errorf("cuda: device tensor %v %v (offset %d, strides %v) reaches outside its %d-byte buffer",
			t.Shape, t.DType, t.Offset, t.Strides, buf.Len())
	}
	ln, err := b.lanes.acquire(ctx)
	if err != nil {
		out.Release()
		return nil, b.faulted(err, "creating a stream", "")
	}
	defer b.lanes.release(ln)
	if t.Contiguous() {
		err = b.copyOut(ln, host.Bytes(), buf.Ptr()+drv.DevicePtr(t.Offset*es))
	} else {
		tmp := make([]byte, (hi-lo+1)*es)
		if err = b.copyOut(ln, tmp, buf.Ptr()+drv.DevicePtr(lo*es)); err == nil {
			gather(host.Bytes(), tmp, es, t.Shape, t.Strides, t.Offset-lo)
		}
	}
	if err != nil {
		out.Release()
		return nil, b.faulted(fmt.Errorf("cuda: copying %v %v to the host: %w", t.Shape, t.DType, err), "copying to the host", "")
	}
	return out, nil
}

// gather copies the strided view (shape, strides, offset; in elements of
// es bytes) of src into dst, densely in row-major order.
func gather(dst, src []byte, es int, shape, strides []int, offset int) {
	rank := len(shape)
	if rank == 0 {
		copy(dst[:es], src[offset*es:])
		return
	}
	idx := make([]int, rank)
	inner, istride := shape[rank-1], strides[rank-1]
	o, pos := offset, 0
	for {
		e := o
		for range inner {
			copy(dst[pos:pos+es], src[e*es:e*es+es])
			pos += es
			e += istride
		}
		k := rank - 2
		for ; k >= 0; k-- {
			idx[k]++
			o += strides[k]
			if idx[k] < shape[k] {
				break
			}
			o -= idx[k] * strides[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}
