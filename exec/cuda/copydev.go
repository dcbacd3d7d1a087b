// CopyDevice: a device tensor copied into new device memory of this
// backend without a trip through the host.

package cuda

import (
	"context"
	"fmt"

	"github.com/fuseflow/fuseflow/exec"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

var _ exec.DeviceCopier = (*Backend)(nil)

// CopyDevice copies device tensor t into a new device buffer of this
// backend and returns a tensor with t's dtype, shape and strides over it
// (a strided view is copied as the range of elements it covers, as
// ToDevice copies). t must be in this backend's device memory: a tensor
// of another device is an error naming both devices (copies between
// devices are not supported yet), and so is a host tensor. The copy is
// complete when CopyDevice returns; t is not released and the caller
// owns the result. Safe for concurrent use.
func (b *Backend) CopyDevice(ctx context.Context, t *exec.Tensor) (*exec.Tensor, error) {
	if t == nil || !t.OnDevice() {
		return nil, fmt.Errorf("cuda: CopyDevice of a tensor not in device memory")
	}
	if err := b.usable(); err != nil {
		return nil, err
	}
	src, ok := t.Dev.(*Buffer)
	if !ok || src.pool != b.pool {
		return nil, fmt.Errorf("cuda: %s cannot copy from %s: the %v %v tensor is in another device's memory",
			b.Name(), t.Dev.Device(), t.Shape, t.DType)
	}
	lo, hi := t.Span()
	if hi < lo { // empty
		lo, hi = 0, -1
	}
	es := t.DType.Size()
	if lo < 0 || (hi+1)*es > src.Len() {
		return nil, fmt.Errorf("cuda: device tensor %v %v (offset %d, strides %v) reaches outside its %d-byte buffer",
			t.Shape, t.DType, t.Offset, t.Strides, src.Len())
	}
	n := int64(hi-lo+1) * int64(es)
	ln, err := b.lanes.acquire(ctx)
	if err != nil {
		return nil, b.faulted(err, "creating a stream", "")
	}
	defer b.lanes.release(ln)
	dst, err := b.pool.Alloc(max(n, 16), ln.stream)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		err = b.ctx.MemcpyDtoDAsync(dst.Ptr(), src.Ptr()+drv.DevicePtr(lo*es), uint64(n), ln.stream)
	}
	return b.landed(ln, dst, t, lo, err, "copying on the device")
}
