// Backend: construction on a device (driver, primary context, target,
// pool, pinned allocator, streams, caches), its accessors and Close, and
// Available for choosing a default backend.

package cuda

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/runner"
	"github.com/fuseflow/fuseflow/internal/config"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// ProfileEnv names the environment variable that turns on per-kernel GPU
// timing when set to 1 (see Options.Profile).
const ProfileEnv = config.Profile

// FastMathEnv names the environment variable that turns on fast math
// when set to 1 (see Options.FastMath).
const FastMathEnv = config.FastMath

// PTXISAEnv names the environment variable that forces the PTX ISA
// version of generated code, written major.minor (see Options.PTX).
const PTXISAEnv = config.PTXISA

// Options configure New. The zero value is a good default.
type Options struct {
	// Streams is the number of streams, hence of evaluations running at
	// once; more concurrent Evals wait. 0 means 4.
	Streams int
	// CacheSize is the number of plans kept (256 when 0), and of their
	// programs and modules: a module evicted from the cache is unloaded
	// once no evaluation uses it.
	CacheSize int
	// StagingChunk is the size of each of a stream's two pinned staging
	// chunks; 0 means DefaultStagingChunk.
	StagingChunk int
	// Profile times every kernel with events: On or Off, or FromEnv
	// (the zero value) for FUSEFLOW_PROFILE to decide.
	Profile exec.Switch
	// JIT tunes the driver's PTX compiler.
	JIT drv.JITOptions
	// FastMath generates float32 math with PTX approximations: On or
	// Off, or FromEnv (the zero value) for FUSEFLOW_FASTMATH to decide.
	FastMath exec.Switch
	// PTX, when set, is the PTX ISA version generated code declares
	// (.version) instead of the newest one the driver accepts; it must be
	// one the driver accepts and new enough for the device. FUSEFLOW_PTX_ISA
	// (such as 8.5) sets it when this is zero. It does not apply to a
	// Compile of the caller's.
	PTX ptx.Version
	// Compile generates PTX for a plan; nil means codegen.Compile for the
	// device's architecture and the driver's CUDA version.
	Compile CompileFunc
	// Driver is the driver to use; nil means the process-wide one
	// (libcuda.so.1 or FUSEFLOW_LIBCUDA).
	Driver *drv.Driver
}

// Backend runs fused plans on one CUDA device. Results stay in device
// memory (tensors with Dev set, holding a *Buffer); ToHost copies them
// to the host. Eval synchronizes its stream before returning, so results
// are complete and kernel faults are reported by the Eval that caused
// them. It is safe for concurrent use; Close must come last.
type Backend struct {
	ordinal int
	d       *drv.Driver
	ctx     *drv.Context
	dev     Device
	target  codegen.Target
	version int

	runner  *runner.Runner
	compile CompileFunc
	isa     ptx.Version // the forced PTX ISA, zero when none
	modules *moduleCache
	pool    *Pool
	pinned  *PinnedAllocator
	lanes   *lanes
	profile bool

	// fault is the fault that broke the device context, nil while it
	// works (see Fault).
	fault atomic.Pointer[FaultError]

	compiles, launches, evals atomic.Int64
	uploaded, downloaded      atomic.Int64
	genNanos, loadNanos       atomic.Int64

	runMu sync.Mutex
	last  *Run

	closeOnce sync.Once
	closeErr  error
}

// New opens CUDA device ordinal: it loads the driver, describes the
// device, retains its primary context and prepares the pool, the pinned
// allocator and the caches (streams are created on first use). Without a
// usable driver the error wraps drv.ErrNoDriver (see ErrNoDriver) and
// names the cause; a bad ordinal names the device count; a PTX ISA
// version (Options.PTX or FUSEFLOW_PTX_ISA) that is malformed, unknown,
// too old for the device or too new for the driver is named with the
// reason; a device whose context an earlier fault in this process broke
// gives a *FaultError. Nothing falls back to the CPU silently.
func New(ordinal int, opts ...Options) (*Backend, error) {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	d := o.Driver
	if d == nil {
		var err error
		if d, err = drv.Load(); err != nil {
			return nil, fmt.Errorf("cuda: device %d: %w", ordinal, err)
		}
	}
	n, err := d.DeviceCount()
	if err != nil {
		return nil, fmt.Errorf("cuda: device %d: %w", ordinal, err)
	}
	if ordinal < 0 || ordinal >= n {
		return nil, fmt.Errorf("cuda: no device %d: the driver reports %d device(s)", ordinal, n)
	}
	dev, err := d.Describe(ordinal)
	if err != nil {
		return nil, err
	}
	t, err := TargetOf(dev)
	if err != nil {
		return nil, err
	}
	version, err := d.Version()
	if err != nil {
		return nil, err
	}
	isa, err := forcedISA(o.PTX, dev, version)
	if err != nil {
		return nil, fmt.Errorf("cuda: device %d: %w", ordinal, err)
	}
	ctx, err := d.RetainPrimaryContext(dev.Handle)
	if err != nil {
		return nil, fmt.Errorf("cuda: device %d: %w", ordinal, err)
	}
	if e := ctx.Fault(); e != nil {
		_ = ctx.Release()
		return nil, &FaultError{Device: fmt.Sprintf("cuda:%d", ordinal), Err: e}
	}
	streams := o.Streams
	if streams <= 0 {
		streams = 4
	}
	chunk := o.StagingChunk
	if chunk <= 0 {
		chunk = DefaultStagingChunk
	}
	size := o.CacheSize
	if size <= 0 {
		size = 256
	}
	b := &Backend{
		ordinal: ordinal, d: d, ctx: ctx, dev: dev, target: t, version: version,
		compile: o.Compile,
		isa:     isa,
		modules: newModuleCache(ctx, o.JIT, size),
		pool:    NewPool(ctx),
		pinned:  NewPinnedAllocator(ctx),
		lanes:   newLanes(ctx, streams, chunk),
		profile: o.Profile.Resolve(ProfileEnv),
	}
	b.runner = runner.New(target{b}, size)
	b.pool.device = b.Name()
	if b.compile == nil {
		b.compile = defaultCompile(version, o.FastMath.Resolve(FastMathEnv), isa)
	}
	return b, nil
}

// forcedISA returns the PTX ISA version to force: opt when set, else the
// one FUSEFLOW_PTX_ISA names, else zero (none). A forced version must be
// one the driver of CUDA version v (1000*major + 10*minor) accepts and
// new enough for dev.
func forcedISA(opt ptx.Version, dev Device, v int) (ptx.Version, error) {
	isa, from := opt, "Options.PTX"
	if isa.IsZero() {
		s := config.Value(PTXISAEnv)
		if s == "" {
			return ptx.Version{}, nil
		}
		var err error
		if isa, err = ptx.ParseISA(s); err != nil {
			return ptx.Version{}, fmt.Errorf("%s=%q: %w", PTXISAEnv, s, err)
		}
		from = fmt.Sprintf("%s=%s", PTXISAEnv, s)
	}
	arch := ptx.Capability{Major: dev.Major, Minor: dev.Minor}
	if err := ptx.CheckISA(isa, arch, ptx.Version{Major: v / 1000, Minor: v % 1000 / 10}); err != nil {
		return ptx.Version{}, fmt.Errorf("%s: %w", from, err)
	}
	return isa, nil
}

// ErrNoDriver is wrapped by the errors of New and Available when the CUDA
// driver library is missing or unusable.
var ErrNoDriver = drv.ErrNoDriver

// Available reports whether a CUDA backend can be opened on device 0: the
// driver loads and reports at least one device. When it cannot, why says
// the cause (no driver library, no device, a failing cuInit). It does not
// retain a context. Safe for concurrent use.
func Available() (ok bool, why error) {
	n, err := DeviceCount()
	if err != nil {
		return false, err
	}
	if n == 0 {
		return false, errors.New("cuda: the driver reports no CUDA device")
	}
	return true, nil
}

// DeviceCount returns the number of CUDA devices, or an error when the
// driver cannot be loaded (wrapping ErrNoDriver) or initialized.
func DeviceCount() (int, error) {
	d, err := drv.Load()
	if err != nil {
		return 0, err
	}
	return d.DeviceCount()
}

// Devices describes every CUDA device, in ordinal order, with the driver
// version (1000*major + 10*minor). Errors are those of DeviceCount.
func Devices() ([]Device, int, error) {
	d, err := drv.Load()
	if err != nil {
		return nil, 0, err
	}
	v, err := d.Version()
	if err != nil {
		return nil, 0, err
	}
	devs, err := d.Devices()
	return devs, v, err
}

// Name returns "cuda:N" for device N.
func (b *Backend) Name() string { return fmt.Sprintf("cuda:%d", b.ordinal) }

// Device returns the device's properties.
func (b *Backend) Device() Device { return b.dev }

// Target returns the target plans are built for.
func (b *Backend) Target() codegen.Target { return b.target }

// DriverVersion returns the driver's CUDA version (12080 for 12.8).
func (b *Backend) DriverVersion() int { return b.version }

// Pool returns the device memory pool.
func (b *Backend) Pool() *Pool { return b.pool }

// HostAllocator returns the backend's pinned host allocator: arrow data
// built with it moves to and from the device by asynchronous DMA.
func (b *Backend) HostAllocator() *PinnedAllocator { return b.pinned }

// Context returns the driver context, for raw driver calls (benchmarks).
func (b *Backend) Context() *drv.Context { return b.ctx }

// Stats are the backend's counters.
type Stats struct {
	// Evals counts evaluations; Compiles the plans compiled to PTX;
	// ModuleLoads the modules loaded by the driver; ModuleHits the
	// compiled plans whose module was already loaded; ModuleUnloads the
	// modules unloaded after leaving the module cache (or at Close);
	// Launches the kernel launches.
	Evals, Compiles, ModuleLoads, ModuleHits, ModuleUnloads, Launches int64
	// Uploaded and Downloaded count bytes moved to and from the device.
	Uploaded, Downloaded int64
	// GenTime is the host time spent generating PTX, LoadTime the time
	// spent loading modules (the driver's JIT), over all plans.
	GenTime, LoadTime time.Duration
	Plans             exec.CacheStats
	Pool              PoolStats
	Pinned            PinnedStats
}

// Stats returns a snapshot of the counters.
func (b *Backend) Stats() Stats {
	return Stats{
		Evals: b.evals.Load(), Compiles: b.compiles.Load(),
		ModuleLoads: b.modules.loads.Load(), ModuleHits: b.modules.hits.Load(), ModuleUnloads: b.modules.unloads.Load(),
		Launches: b.launches.Load(),
		Uploaded: b.uploaded.Load(), Downloaded: b.downloaded.Load(),
		GenTime: time.Duration(b.genNanos.Load()), LoadTime: time.Duration(b.loadNanos.Load()),
		Plans: b.runner.Stats(), Pool: b.pool.Stats(), Pinned: b.pinned.Stats(),
	}
}

// Close synchronizes and destroys the streams, unloads the modules, frees
// the cached device and pinned memory and releases the context. Every
// tensor from Eval should be released first: device bytes still live are
// reported in the error (their memory goes with the context). Buffers of
// HostAllocator should be freed first too: when this was the last
// reference to the primary context, the driver reclaims page-locked
// memory with it. After a fault (see Fault) the driver fails those calls;
// Close makes them all the same, without waiting on anything, and leaves
// their errors out. Close is idempotent.
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		b.runner.Forget()
		kernelDevices.Delete(b)
		errs := []error{b.lanes.close(), b.modules.close()}
		if live := b.pool.close(); live > 0 {
			errs = append(errs, fmt.Errorf("cuda: %s closed with %d bytes of device memory still live", b.Name(), live))
		}
		b.pinned.Trim()
		if b.Fault() != nil {
			for i, err := range errs {
				if drv.IsSticky(err) {
					errs[i] = nil // the fault's consequence, already reported
				}
			}
		}
		errs = append(errs, b.ctx.Release())
		b.closeErr = errors.Join(errs...)
	})
	return b.closeErr
}
