// Kernel launches: grid and block geometry and cuLaunchKernel.

package cuda

import "unsafe"

// Dim3 is a grid or block size in three dimensions. A zero dimension is
// taken as 1 by Launch.
type Dim3 struct{ X, Y, Z uint32 }

// norm returns d with zero dimensions replaced by 1.
func (d Dim3) norm() Dim3 { return Dim3{max(d.X, 1), max(d.Y, 1), max(d.Z, 1)} }

// Launch enqueues kernel f on stream s with the given grid, block, dynamic
// shared memory in bytes and parameters (cuLaunchKernel). args may be nil
// for a kernel without parameters; it may be refilled once Launch returns.
// It allocates nothing on success. Launch errors (bad geometry, too many
// resources) are returned here; faults inside the kernel surface at the
// next synchronization.
func (c *Context) Launch(f Function, grid, block Dim3, sharedMem uint32, s Stream, args *Args) error {
	grid, block = grid.norm(), block.norm()
	var params unsafe.Pointer
	if args != nil {
		params = args.pinParams()
	}
	// params points into memory pinned until unpin, so it may travel as a
	// uintptr through callCtx.
	r, at := c.callCtx(fnLaunchKernel, uintptr(f),
		uintptr(grid.X), uintptr(grid.Y), uintptr(grid.Z),
		uintptr(block.X), uintptr(block.Y), uintptr(block.Z),
		uintptr(sharedMem), uintptr(s), uintptr(params), 0)
	if args != nil {
		args.unpin()
	}
	if r != ResultSuccess {
		return c.failed(r, at, fnLaunchKernel, "function %#x, grid %v, block %v, shared %d, stream %#x",
			uintptr(f), grid, block, sharedMem, uintptr(s))
	}
	return nil
}
