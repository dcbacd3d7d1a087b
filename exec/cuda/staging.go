// The staging ring: ordinary (pageable) host memory moves to and from the
// device through two page-locked chunks used in turn, each guarded by an
// event, so copying one chunk on the host overlaps the DMA of the other.

package cuda

import (
	"unsafe"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// DefaultStagingChunk is the size of each of the two staging chunks.
const DefaultStagingChunk = 4 << 20

// stagingRing is a lane's pair of pinned chunks. It belongs to one lane
// and is used by one goroutine at a time.
type stagingRing struct {
	ctx   *drv.Context
	chunk int
	slot  [2]unsafe.Pointer
	ev    [2]drv.Event
	busy  [2]bool // an event recorded after the slot's last DMA
}

// newStagingRing allocates the two chunks and their events.
func newStagingRing(ctx *drv.Context, chunk int) (*stagingRing, error) {
	r := &stagingRing{ctx: ctx, chunk: chunk}
	for i := range r.slot {
		p, err := ctx.MemHostAlloc(uint64(chunk), drv.HostAllocPortable)
		if err != nil {
			r.close()
			return nil, err
		}
		r.slot[i] = p
		registerPinned(uintptr(p), chunk)
		if r.ev[i], err = ctx.EventCreate(drv.EventDisableTiming); err != nil {
			r.close()
			return nil, err
		}
	}
	return r, nil
}

// bytes returns slot i as a byte slice.
func (r *stagingRing) bytes(i int) []byte { return unsafe.Slice((*byte)(r.slot[i]), r.chunk) }

// wait blocks until slot i's last DMA has finished.
func (r *stagingRing) wait(i int) error {
	if !r.busy[i] {
		return nil
	}
	r.busy[i] = false
	return r.ctx.EventSynchronize(r.ev[i])
}

// mark records slot i's event after the DMA just queued on s.
func (r *stagingRing) mark(i int, s drv.Stream) error {
	if err := r.ctx.EventRecord(r.ev[i], s); err != nil {
		return err
	}
	r.busy[i] = true
	return nil
}

// upload copies src to the device at dst on stream s through the ring.
// When it returns, src may be reused: every byte is in a pinned chunk or
// already on the device.
func (r *stagingRing) upload(dst drv.DevicePtr, src []byte, s drv.Stream) error {
	for k, off := 0, 0; off < len(src); k, off = k+1, off+r.chunk {
		i := k % 2
		if err := r.wait(i); err != nil {
			return err
		}
		n := copy(r.bytes(i), src[off:])
		if err := r.ctx.MemcpyHtoDAsync(dst+drv.DevicePtr(off), r.slot[i], uint64(n), s); err != nil {
			return err
		}
		if err := r.mark(i, s); err != nil {
			return err
		}
	}
	return nil
}

// download copies len(dst) bytes from the device at src into dst on
// stream s through the ring, and returns when dst holds them. The DMA of
// the next chunk runs while the host copies the current one out.
func (r *stagingRing) download(dst []byte, src drv.DevicePtr, s drv.Stream) error {
	n := len(dst)
	chunks := (n + r.chunk - 1) / r.chunk
	enqueue := func(k int) error {
		i, off := k%2, k*r.chunk
		if err := r.wait(i); err != nil {
			return err
		}
		m := min(r.chunk, n-off)
		if err := r.ctx.MemcpyDtoHAsync(r.slot[i], src+drv.DevicePtr(off), uint64(m), s); err != nil {
			return err
		}
		return r.mark(i, s)
	}
	for k := 0; k < min(2, chunks); k++ {
		if err := enqueue(k); err != nil {
			return err
		}
	}
	for k := range chunks {
		i, off := k%2, k*r.chunk
		if err := r.wait(i); err != nil {
			return err
		}
		copy(dst[off:], r.bytes(i)[:min(r.chunk, n-off)])
		if k+2 < chunks {
			if err := enqueue(k + 2); err != nil {
				return err
			}
		}
	}
	return nil
}

// close frees the chunks and events; pending DMA must be finished.
func (r *stagingRing) close() {
	for i := range r.slot {
		if r.slot[i] != nil {
			unregisterPinned(uintptr(r.slot[i]))
			_ = r.ctx.MemFreeHost(r.slot[i])
			r.slot[i] = nil
		}
		if r.ev[i] != 0 {
			_ = r.ctx.EventDestroy(r.ev[i])
			r.ev[i] = 0
		}
	}
}
