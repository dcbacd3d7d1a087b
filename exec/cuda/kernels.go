// Explicit kernels on the GPU: the backend as a kernel.Device, so that a
// kernel written in Go (package kernel, compiled to PTX by kernelgen) is
// launched here. Its module goes through the backend's module cache; a
// launch packs the PTX parameters the compiler documents (a scalar of its
// type, a bool as a .u32 0 or 1, a slice as a .u64 pointer then a .s64
// length, and a last .u64 pointer to the check word when the kernel has
// bounds checks); host slices are copied in, and those the kernel writes
// copied back, with a notice the first time a kernel is given one. The
// check word lives in mapped pinned host memory, so the site of a failed
// check can still be read after the trap has broken the device context.

package cuda

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
	"github.com/fuseflow/fuseflow/kernel"
)

// hostSliceNotice is where the one-time notice about host slice
// arguments goes; tests replace it.
var hostSliceNotice = func(msg string) { fmt.Fprintln(os.Stderr, msg) }

// kernelDevice is a Backend seen as a kernel.Device.
type kernelDevice struct {
	b *Backend

	mu  sync.Mutex
	fns map[*kernel.Kernel]*kernelFunc
	// noticed records the kernels already given a host slice.
	noticed sync.Map // *kernel.Kernel -> struct{}
}

// kernelFunc is a kernel's loaded function and parameter layout.
type kernelFunc struct {
	mod   *loadedModule
	fn    drv.Function
	kinds []drv.ArgKind
	// dynMax is the dynamic shared memory the function was last allowed.
	dynMax int
}

// kernelDevices holds each open backend's kernel device (Close drops it).
var kernelDevices sync.Map // *Backend -> *kernelDevice

// KernelDevice returns the backend as a device for explicit kernels
// (package kernel): give it in a kernel.Config, or register it with
// kernel.Register to make it the default device of launches. Launches
// are synchronous and may run from many goroutines. The functions of the
// kernels it loads stay loaded until the backend is closed.
func (b *Backend) KernelDevice() kernel.Device {
	if d, ok := kernelDevices.Load(b); ok {
		return d.(*kernelDevice)
	}
	d, _ := kernelDevices.LoadOrStore(b, &kernelDevice{b: b, fns: map[*kernel.Kernel]*kernelFunc{}})
	return d.(*kernelDevice)
}

// Name returns the backend's name ("cuda:0").
func (d *kernelDevice) Name() string { return d.b.Name() }

// kernelParamKinds returns the PTX parameters of k as argument kinds.
func kernelParamKinds(k *kernel.Kernel) ([]drv.ArgKind, error) {
	s := k.Spec()
	var kinds []drv.ArgKind
	for _, p := range s.Params {
		if p.Slice {
			kinds = append(kinds, drv.ArgPtr, drv.ArgI64)
			continue
		}
		switch p.Type {
		case kernel.Bool, kernel.Uint32:
			kinds = append(kinds, drv.ArgU32)
		case kernel.Int, kernel.Int64:
			kinds = append(kinds, drv.ArgI64)
		case kernel.Int32:
			kinds = append(kinds, drv.ArgI32)
		case kernel.Uint64:
			kinds = append(kinds, drv.ArgU64)
		case kernel.Float32:
			kinds = append(kinds, drv.ArgF32)
		case kernel.Float64:
			kinds = append(kinds, drv.ArgF64)
		default:
			return nil, fmt.Errorf("kernel %s: parameter %s has type %s, which no PTX parameter holds", s.Name, p.Name, p.Type)
		}
	}
	if len(s.Checks) > 0 && !s.NoBounds {
		kinds = append(kinds, drv.ArgPtr)
	}
	return kinds, nil
}

// function returns k's loaded function, loading its module on first use.
func (d *kernelDevice) function(k *kernel.Kernel) (*kernelFunc, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f := d.fns[k]; f != nil {
		return f, nil
	}
	s := k.Spec()
	if s.PTX == "" {
		return nil, fmt.Errorf("kernel %s has no PTX: run go generate (kernelgen) for its package, or launch it on the CPU", s.Name)
	}
	kinds, err := kernelParamKinds(k)
	if err != nil {
		return nil, err
	}
	if err := d.b.usable(); err != nil {
		return nil, err
	}
	m, _, err := d.b.modules.get(s.PTX)
	if err != nil {
		return nil, d.b.faulted(fmt.Errorf("cuda: kernel %s: loading its module (PTX ISA %s for %s): %w", s.Name, s.PTXVersion, s.Target, err), "loading kernel "+s.Name, s.PTX)
	}
	fn, err := d.b.ctx.ModuleFunction(m.mod, s.Entry)
	if err != nil {
		d.b.modules.put(m)
		return nil, fmt.Errorf("cuda: kernel %s: entry %s: %w", s.Name, s.Entry, err)
	}
	f := &kernelFunc{mod: m, fn: fn, kinds: kinds}
	d.fns[k] = f
	return f, nil
}

// BlockSize returns the block size of the best occupancy for k with
// sharedBytes of dynamic shared memory: the largest multiple of the warp
// size whose resident threads per SM are the most (as
// cuOccupancyMaxPotentialBlockSize chooses), or 256 when the function
// cannot be loaded (the launch will then report why).
func (d *kernelDevice) BlockSize(k *kernel.Kernel, sharedBytes int) int {
	f, err := d.function(k)
	if err != nil {
		return 256
	}
	limit := kernel.MaxThreadsPerBlock
	if n, err := d.b.ctx.FuncAttribute(f.fn, drv.FuncMaxThreadsPerBlock); err == nil && n > 0 {
		limit = min(limit, n)
	}
	best, bestThreads := 0, 0
	for bs := limit - limit%32; bs >= 32; bs -= 32 {
		n, err := d.b.ctx.MaxActiveBlocksPerSM(f.fn, bs, uint64(sharedBytes))
		if err != nil {
			continue
		}
		if n*bs > bestThreads {
			best, bestThreads = bs, n*bs
		}
	}
	if best == 0 {
		return min(256, max(limit, 1))
	}
	return best
}

// kernelBuffer is device memory holding a kernel.Array's elements.
type kernelBuffer struct {
	d   *kernelDevice
	typ kernel.Type
	n   int

	mu  sync.Mutex
	buf *Buffer // nil once freed
}

func (kb *kernelBuffer) Device() kernel.Device { return kb.d }
func (kb *kernelBuffer) Type() kernel.Type     { return kb.typ }
func (kb *kernelBuffer) Len() int              { return kb.n }

// Free gives the memory back to the backend's pool.
func (kb *kernelBuffer) Free() error {
	kb.mu.Lock()
	defer kb.mu.Unlock()
	if kb.buf == nil {
		return fmt.Errorf("cuda: a %s buffer of %d elements freed twice", kb.typ, kb.n)
	}
	kb.buf.Release()
	kb.buf = nil
	return nil
}

// ptr returns the buffer's device address, or an error once freed.
func (kb *kernelBuffer) ptr() (drv.DevicePtr, error) {
	kb.mu.Lock()
	defer kb.mu.Unlock()
	if kb.buf == nil {
		return 0, fmt.Errorf("cuda: the %s buffer of %d elements was freed", kb.typ, kb.n)
	}
	return kb.buf.Ptr(), nil
}

// Alloc returns zeroed device memory for n elements of t.
func (d *kernelDevice) Alloc(t kernel.Type, n int) (kernel.Buffer, error) {
	if n < 0 || t.Size() == 0 {
		return nil, fmt.Errorf("cuda: Alloc of %d elements of %s", n, t)
	}
	var buf *Buffer
	err := d.withLane(context.Background(), "allocating a kernel buffer", func(ln *lane) error {
		var err error
		if buf, err = d.alloc(ln, int64(n)*int64(t.Size())); err != nil {
			return err
		}
		return d.b.ctx.StreamSynchronize(ln.stream)
	})
	if err != nil {
		if buf != nil {
			buf.Release()
		}
		return nil, fmt.Errorf("cuda: Alloc of %d elements of %s: %w", n, t, err)
	}
	return &kernelBuffer{d: d, typ: t, n: n, buf: buf}, nil
}

// alloc returns n bytes of device memory (at least one, so that every
// buffer has an address), cleared in order on ln's stream.
func (d *kernelDevice) alloc(ln *lane, n int64) (*Buffer, error) {
	n = max(n, 1)
	buf, err := d.b.pool.Alloc(n, ln.stream)
	if err != nil {
		return nil, err
	}
	if err := d.b.ctx.MemsetD8Async(buf.Ptr(), 0, uint64(n), ln.stream); err != nil {
		buf.Release()
		return nil, err
	}
	return buf, nil
}

// hostBytes returns the bytes of host slice s ([]T of t's Go type).
func hostBytes(s any, t kernel.Type, n int) ([]byte, error) {
	rv := reflect.ValueOf(s)
	if rv.Kind() != reflect.Slice || rv.Len() != n || rv.Type().Elem().Kind() != goKinds[t] {
		return nil, fmt.Errorf("got %T of length %d, want []%s of length %d", s, lenOf(rv), t, n)
	}
	if n == 0 {
		return nil, nil
	}
	return unsafe.Slice((*byte)(rv.UnsafePointer()), n*t.Size()), nil
}

// goKinds are the reflect kinds of the kernel types' Go types.
var goKinds = map[kernel.Type]reflect.Kind{
	kernel.Bool: reflect.Bool, kernel.Int: reflect.Int, kernel.Int32: reflect.Int32, kernel.Int64: reflect.Int64,
	kernel.Uint32: reflect.Uint32, kernel.Uint64: reflect.Uint64, kernel.Float32: reflect.Float32, kernel.Float64: reflect.Float64,
}

func lenOf(rv reflect.Value) int {
	if rv.Kind() == reflect.Slice {
		return rv.Len()
	}
	return -1
}

// CopyIn copies host slice src into dst.
func (d *kernelDevice) CopyIn(dst kernel.Buffer, src any) error {
	return d.hostCopy("CopyIn", "copying to a kernel buffer", dst, src, func(ln *lane, p drv.DevicePtr, b []byte) error {
		if err := d.b.copyIn(ln, p, b); err != nil {
			return err
		}
		return d.b.ctx.StreamSynchronize(ln.stream)
	})
}

// CopyOut copies src into host slice dst.
func (d *kernelDevice) CopyOut(dst any, src kernel.Buffer) error {
	return d.hostCopy("CopyOut", "copying from a kernel buffer", src, dst, func(ln *lane, p drv.DevicePtr, b []byte) error {
		return d.b.copyOut(ln, b, p)
	})
}

// hostCopy checks that buf is this device's and host a slice of its type
// and length, then runs move on a lane with buf's address and host's
// bytes; op names the method in errors, during the copy in driver errors.
func (d *kernelDevice) hostCopy(op, during string, buf kernel.Buffer, host any, move func(ln *lane, p drv.DevicePtr, b []byte) error) error {
	kb, p, err := d.own(buf)
	if err != nil {
		return err
	}
	b, err := hostBytes(host, kb.typ, kb.n)
	if err != nil {
		return fmt.Errorf("cuda: %s: %w", op, err)
	}
	return d.withLane(context.Background(), during, func(ln *lane) error { return move(ln, p, b) })
}

// own returns buf as this device's buffer with its address.
func (d *kernelDevice) own(buf kernel.Buffer) (*kernelBuffer, drv.DevicePtr, error) {
	kb, ok := buf.(*kernelBuffer)
	if !ok || kb.d != d {
		return nil, 0, fmt.Errorf("cuda: a buffer of %s used on %s", buf.Device().Name(), d.Name())
	}
	p, err := kb.ptr()
	return kb, p, err
}

// withLane runs f on an idle stream of the backend, recording a fault f
// meets as the backend's.
func (d *kernelDevice) withLane(ctx context.Context, during string, f func(*lane) error) error {
	if err := d.b.usable(); err != nil {
		return err
	}
	ln, err := d.b.lanes.acquire(ctx)
	if err != nil {
		return err
	}
	defer d.b.lanes.release(ln)
	return d.b.faulted(f(ln), during, "")
}

// hostArg is a host slice argument's device copy.
type hostArg struct {
	param int // the index of its pointer parameter
	buf   *Buffer
	host  []byte
	back  bool // the kernel writes it: copy it back
}

// Launch runs k with cfg over args and waits for it. A failed bounds
// check is a *kernel.LaunchError naming the check's source position; it
// leaves the device context broken (a GPU trap does), so that every later
// call on the backend reports the fault.
func (d *kernelDevice) Launch(ctx context.Context, k *kernel.Kernel, cfg kernel.Config, args []kernel.Arg) error {
	s := k.Spec()
	f, err := d.function(k)
	if err != nil {
		return err
	}
	if err := d.allowShared(f, s, cfg.SharedBytes); err != nil {
		return err
	}
	var hosts []hostArg
	defer func() {
		for _, h := range hosts {
			if h.buf != nil {
				h.buf.Release()
			}
		}
	}()
	ptrs := make([]drv.DevicePtr, len(args))
	for i, arg := range args {
		p := arg.Param
		if !p.Slice {
			continue
		}
		if arg.Buffer != nil {
			if _, ptrs[i], err = d.own(arg.Buffer); err != nil {
				return fmt.Errorf("kernel %s: parameter %s: %w", s.Name, p.Name, err)
			}
			continue
		}
		b, err := hostBytes(arg.Value, p.Type, arg.Len)
		if err != nil {
			return fmt.Errorf("kernel %s: parameter %s: %w", s.Name, p.Name, err)
		}
		hosts = append(hosts, hostArg{param: i, host: b, back: p.Written})
		if _, seen := d.noticed.LoadOrStore(k, struct{}{}); !seen {
			hostSliceNotice(fmt.Sprintf("fuseflow: kernel %s: host slice %s is copied to %s and back at every launch; "+
				"kernel.ToDevice keeps it on the device", s.Name, p.Name, d.Name()))
		}
	}
	a, first := packKernelArgs(f, s.Params, func(i int) (any, drv.DevicePtr, int) { return args[i].Value, ptrs[i], args[i].Len })
	word, err := d.checkWordFor(s, f, a)
	if err != nil {
		return err
	}
	if word != nil {
		defer word.free()
	}
	return d.withLane(ctx, "running kernel "+s.Name, func(ln *lane) error {
		for i := range hosts {
			h := &hosts[i]
			var err error
			if h.buf, err = d.alloc(ln, int64(len(h.host))); err != nil {
				return fmt.Errorf("kernel %s: a device copy of a host slice: %w", s.Name, err)
			}
			a.SetPtr(first[h.param], h.buf.Ptr())
			if err := d.b.copyIn(ln, h.buf.Ptr(), h.host); err != nil {
				return err
			}
		}
		if err := d.launchPacked(ln, s, f, cfg, a, word, true); err != nil {
			return err
		}
		for _, h := range hosts {
			if h.back {
				if err := d.b.copyOut(ln, h.host, h.buf.Ptr()); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// packKernelArgs packs the PTX parameters of f for params: argument i
// as arg(i) gives it, a scalar (of its parameter's Go type) or a slice at
// a device address with its length. It returns the arguments and, per
// parameter, the index of its first PTX parameter.
func packKernelArgs(f *kernelFunc, params []kernel.Param, arg func(i int) (value any, ptr drv.DevicePtr, n int)) (*drv.Args, []int) {
	a := drv.NewArgs(f.kinds...)
	first := make([]int, len(params))
	j := 0
	for i := range params {
		p := &params[i]
		first[i] = j
		v, ptr, n := arg(i)
		if !p.Slice {
			setKernelScalar(a, j, p.Type, v)
			j++
			continue
		}
		a.SetPtr(j, ptr)
		a.SetI64(j+1, int64(n))
		j += 2
	}
	return a, first
}

// checkWordFor returns a new check word set as the last argument of a
// when the kernel has bounds checks (f has a parameter after those of
// its Params), nil otherwise.
func (d *kernelDevice) checkWordFor(s kernel.Spec, f *kernelFunc, a *drv.Args) (*checkWord, error) {
	n := len(s.Params)
	for _, p := range s.Params {
		if p.Slice {
			n++
		}
	}
	if n >= len(f.kinds) {
		return nil, nil
	}
	word, err := d.b.newCheckWord()
	if err != nil {
		return nil, fmt.Errorf("kernel %s: the check word: %w", s.Name, err)
	}
	a.SetPtr(n, word.dev)
	return word, nil
}

// launchPacked launches f with a and cfg on ln's stream and, with wait,
// waits for it: a failure with a site in the check word is the
// *kernel.LaunchError naming it.
func (d *kernelDevice) launchPacked(ln *lane, s kernel.Spec, f *kernelFunc, cfg kernel.Config, a *drv.Args, word *checkWord, wait bool) error {
	g, bl := cfg.Grid, cfg.Block
	err := d.b.ctx.Launch(f.fn, drv.Dim3{X: uint32(g.X), Y: uint32(g.Y), Z: uint32(g.Z)},
		drv.Dim3{X: uint32(bl.X), Y: uint32(bl.Y), Z: uint32(bl.Z)}, uint32(cfg.SharedBytes), ln.stream, a)
	if err != nil {
		return fmt.Errorf("cuda: launching kernel %s (grid %v, block %v, %d bytes of dynamic shared memory): %w", s.Name, g, bl, cfg.SharedBytes, err)
	}
	d.b.launches.Add(1)
	if !wait {
		return nil
	}
	if err := d.b.ctx.StreamSynchronize(ln.stream); err != nil {
		if site := word.site(s.Checks); site != "" {
			pos, what, _ := strings.Cut(site, ": ")
			d.b.faulted(err, "running kernel "+s.Name, s.PTX)
			return &kernel.LaunchError{Kernel: s.Name, Pos: pos, Msg: what + " (the device context is now unusable: a GPU trap ends it)"}
		}
		return fmt.Errorf("cuda: kernel %s: %w", s.Name, err)
	}
	return nil
}

// allowShared raises the function's dynamic shared memory limit when a
// launch asks for more than the default 48 KiB.
func (d *kernelDevice) allowShared(f *kernelFunc, s kernel.Spec, n int) error {
	const defaultLimit = 48 << 10
	if n+s.SharedBytes <= defaultLimit {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if n <= f.dynMax {
		return nil
	}
	if err := d.b.ctx.SetFuncAttribute(f.fn, drv.FuncMaxDynamicSharedSizeBytes, n); err != nil {
		return fmt.Errorf("kernel %s: %d bytes of dynamic shared memory (with %d static): %w", s.Name, n, s.SharedBytes, err)
	}
	f.dynMax = n
	return nil
}

// setKernelScalar stores scalar v of type t in parameter i.
func setKernelScalar(a *drv.Args, i int, t kernel.Type, v any) {
	switch x := v.(type) {
	case bool:
		u := uint32(0)
		if x {
			u = 1
		}
		a.SetU32(i, u)
	case int:
		a.SetI64(i, int64(x))
	case int64:
		a.SetI64(i, x)
	case int32:
		a.SetI32(i, x)
	case uint32:
		a.SetU32(i, x)
	case uint64:
		a.SetU64(i, x)
	case float32:
		a.SetF32(i, x)
	case float64:
		a.SetF64(i, x)
	default:
		panic(fmt.Sprintf("cuda: a %s parameter given %T after checking", t, v))
	}
}

// checkWord is the u32 a failing bounds check writes its site into, in
// mapped pinned host memory: it stays readable after a trap.
type checkWord struct {
	ctx  *drv.Context
	host unsafe.Pointer
	dev  drv.DevicePtr
}

// newCheckWord returns a zeroed check word. With unified addressing (every
// 64-bit platform CUDA supports) the host address of mapped pinned memory
// is also its device address.
func (b *Backend) newCheckWord() (*checkWord, error) {
	p, err := b.ctx.MemHostAlloc(4, drv.HostAllocPortable|drv.HostAllocDeviceMap)
	if err != nil {
		return nil, err
	}
	*(*uint32)(p) = 0
	return &checkWord{ctx: b.ctx, host: p, dev: drv.DevicePtr(uintptr(p))}, nil
}

// site returns the check site the word names, or "".
func (w *checkWord) site(checks []string) string {
	if w == nil {
		return ""
	}
	code := *(*uint32)(w.host)
	if code == 0 || int(code) > len(checks) {
		return ""
	}
	return checks[code-1]
}

func (w *checkWord) free() { _ = w.ctx.MemFreeHost(w.host) }
