// Package cuda is the CUDA executor: an exec.Backend that runs fused plans
// as generated PTX kernels on an NVIDIA GPU through the driver API (bound
// at run time by internal/cuda, without cgo or a CUDA toolkit).
//
// # Opening a device
//
// New(ordinal) loads the driver (libcuda.so.1, or FUSEFLOW_LIBCUDA),
// describes the device into a codegen.Target (TargetOf) and retains its
// primary context. Without a usable driver it returns an error wrapping
// ErrNoDriver that names the cause; it never falls back to the CPU.
// Available reports whether device 0 can be opened, for the choice of a
// default backend; Devices lists the devices with their properties.
//
// # Evaluation
//
// Eval is the shared runner (exec/runner) driving this target: it looks
// the plan up in the plan cache (a repeated evaluation of the same output
// nodes with inputs of the same layouts skips even the structural key),
// which holds the plan's program: PTX generated once per
// plan (codegen.Compile for the device's compute capability and the
// driver's CUDA version) and loaded once per distinct PTX text (the
// module cache, keyed by its SHA-256). A warm evaluation therefore
// generates and loads nothing: it binds inputs, takes buffers from the
// pool and launches, packing each kernel's parameters into a reused
// Args (no allocation per launch).
//
// Bound device tensors (from this backend) are used in place; bound host
// tensors are uploaded for the evaluation, a strided view as the range of
// elements it covers with its strides kept. Results are device tensors
// (exec.Tensor with Dev set, holding a *Buffer): arrays computed on the
// GPU stay there, and ToHost (exec.HostCopier) copies one to the host on
// demand. Eval runs on one of a few streams (Options.Streams) and waits
// for it before returning, so results are complete when it returns and a
// failing launch or a fault in a kernel is the error of the evaluation
// that caused it. Eval is safe for concurrent use.
//
// # Memory
//
// Device memory comes from a Pool: size classes (powers of two up to
// 1 MiB, multiples of 2 MiB above), reuse without driver calls, and
// stream-ordered reuse (a block freed while its stream may still use it
// serves only that stream until the stream is synchronized). On out of
// memory the pool frees its cache and retries once, then returns an error
// naming the bytes asked for and the free memory. Stats reports live,
// cached and peak bytes; Trim returns the cache to the driver.
//
// HostAllocator is an arrow memory.Allocator over page-locked host
// memory: arrow data built with it moves to and from the device by
// asynchronous DMA. Other host memory moves through each stream's pinned
// staging ring: two chunks used in turn, each guarded by an event, so the
// host copy of one chunk overlaps the DMA of the other.
//
// # Profiling
//
// With FUSEFLOW_PROFILE=1 (or Options.Profile: exec.On) every kernel is timed with
// events; LastRun returns the last evaluation's Run, whose Explain prints
// the plan with each kernel's geometry, GPU time and achieved bandwidth.
// # Fast math
//
// FUSEFLOW_FASTMATH=1 (or Options.FastMath: exec.On; exec.Off keeps the
// accurate math whatever the environment says) generates float32 math with
// PTX approximations (float64 math stays accurate). The tests hold fast
// math to these bounds, against the exact value of the float32 argument:
// exp, exp2, sigmoid and tanh within a relative error of 2^-10, and tan
// on [-1.4, 1.4] too; sqrt, rsqrt and division within 2^-18; log and
// log2 of positive arguments within an absolute error of 2^-16, and sin
// and cos on [-pi, pi] too (beyond it they are not checked).
//
// # PTX versions
//
// Generated modules declare the newest PTX ISA version the driver's JIT
// accepts (9.0 for a CUDA 13 driver). FUSEFLOW_PTX_ISA=8.5 (or
// Options.PTX) forces another, which must exist, be new enough for the
// device and not newer than the driver accepts; New names what is wrong
// with any other value. A module the JIT rejects is an error carrying the
// JIT's error log and the ISA and target the module declared.
//
// # Faults
//
// A kernel fault such as an illegal or misaligned address, an illegal
// instruction or an unspecified launch failure breaks the device context
// for the rest of the process: the driver fails every later call. The
// evaluation that meets it returns the driver's error; from then on every
// call of the backend (and New on that device) fails at once with a
// *FaultError naming the first fault and the kernels that were running,
// wrapping ErrDeviceFault. Close still releases what the driver lets it.
//
// # Explicit kernels
//
// KernelDevice returns the backend as a kernel.Device: kernels written in
// Go (package kernel, compiled to PTX by kernelgen) launch on the GPU
// through it, with device arrays or host slices (kernels.go).
//
// # Tests and benchmarks on a GPU
//
// Without a GPU the tests run against a fake driver built from
// internal/cuda/testdata/fakecuda.c with gcc, which records launches and
// hands those of generated kernels to the IR interpreter (the emulated
// device). With FUSEFLOW_DEVICE=cuda (or cuda:N) the tests and benchmarks
// whose names contain GPU run on the real device:
//
//	FUSEFLOW_DEVICE=cuda go test -run GPU -bench GPU ./exec/cuda
//
// or, on a machine without Go, from the test binaries make bench-gpu
// builds, by bench/run-gpu.sh in short steps (README, "On a GPU").
package cuda
