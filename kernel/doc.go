// Package kernel is what explicit kernels import: a GPU kernel is a Go
// function with a comment. The Go compiler type-checks it, the CPU runs
// it as the Go function it is, and kernelgen (cmd/kernelgen, through go
// generate) compiles it from Go SSA to PTX ahead of time.
//
//	//go:generate go run github.com/fuseflow/fuseflow/cmd/kernelgen
//
//	//fuseflow:kernel
//	func Saxpy(t kernel.Thread, a float32, x, y []float32) {
//		i := t.Grid1()
//		if i < len(y) {
//			y[i] = a*x[i] + y[i]
//		}
//	}
//
// go generate writes beside it the PTX, saxpy_Saxpy.ptx, headed by the
// kernel's record (its parameters, cooperation and check sites: see
// Spec.Record), and saxpy_kernels.go, which embeds that PTX and holds a
// handle, var SaxpyKernel = kernel.MustFromFS(kernel.Bind3(Saxpy),
// saxpyPTX, "saxpy_Saxpy.ptx"), which launches it:
//
//	err := SaxpyKernel.Launch(kernel.Launch1D((n+255)/256, 256), a, x, y)
//	err = SaxpyKernel.ForAll(n, a, x, y) // the block size chosen for n tasks
//
// # Launches
//
// A Config gives the grid and the block (1-D, 2-D or 3-D Dim3s), the
// dynamic shared memory of each block (DynShared), a stream (reserved)
// and the device (nil: DefaultDevice). Arguments follow the kernel's
// parameters after the Thread: Go numbers for scalars (converted when the
// value fits the parameter's type), host slices or device Arrays for
// slices. A wrong count, type or value is an error naming the parameter;
// a bad geometry an error naming the dimension. Launch waits for the
// kernel. A kernel that fails while running returns a *LaunchError
// naming the kernel, the block, the thread and the source line: on the
// CPU a panic of a thread (an index out of range, a division by zero)
// never crashes the process.
//
// Device arrays are Numba's: ToDevice (cuda.to_device), NewArray
// (cuda.device_array), ArrayLike (cuda.device_array_like), CopyToHost
// (copy_to_host).
//
// # The CPU device
//
// Without a GPU (and always through CPU()) the kernel's Go function runs:
// blocks spread over a worker per processor. A kernel without barriers,
// warp operations or shared memory runs each block's threads one after
// another (fast); a kernel with them runs the threads of a block as
// goroutines that meet at barriers, warp operations emulated per warp of
// 32 consecutive threads.
// Go checks every index. Barriers and warp operations that cannot
// complete (a barrier some threads skip, a lane of a *Sync mask that has
// returned) are launch errors, as they are on the IR interpreter, rather
// than the hangs or undefined results of a GPU.
//
// # Intrinsics
//
// Indices: ThreadIdx, BlockIdx, BlockDim, GridDim (Dim3 of ints), Grid1,
// Grid2, Grid3 (cuda.grid), GridSize1, GridSize2, GridSize3
// (cuda.gridsize), LaneID, WarpSize.
//
// Memory: Shared[T](t, n) with a constant n (cuda.shared.array: one array
// per call site and block), DynShared[T](t) (the launch's dynamic shared
// memory), local arrays (var a [8]float32: cuda.local.array), and
// package-level arrays of constants (constant memory:
// cuda.const.array_like).
//
// Barriers and fences: SyncThreads, SyncThreadsCount, SyncThreadsAnd,
// SyncThreadsOr, ThreadFence, ThreadFenceBlock, ThreadFenceSystem,
// SyncWarp.
//
// Atomics on an element of a slice (global or shared memory), returning
// the old value: AtomicAdd, AtomicSub and AtomicExch on the 32- and 64-bit
// integers and floats; AtomicMax, AtomicMin, AtomicCAS, AtomicAnd,
// AtomicOr and AtomicXor on the 32- and 64-bit integers; AtomicInc and
// AtomicDec on uint32 with CUDA's wrap-around.
//
// Warps: ShflSync, ShflUpSync, ShflDownSync, ShflXorSync (int, int32,
// int64, uint32, uint64, float32, float64), BallotSync, AllSync, AnySync,
// ActiveMask.
//
// Math: Go's math package for float64 and kernel/math32 for float32:
// Sqrt, Exp, Exp2, Expm1, Log, Log2, Log1p, Sin, Cos, Tan, Tanh, Erf, Pow,
// Atan2, Floor, Ceil, Trunc, RoundToEven, Abs, FMA, IsNaN, IsInf; math
// also Max, Min, Copysign, Signbit, Inf, NaN and the bit conversions
// (Float32bits, Float64frombits, ...), math32 also Sigmoid and Rsqrt. On
// a GPU they are fuseflow's math library (codegen/mathlib), the code the
// lazy arrays' math runs, within 1 or 2 ulps of the CPU's results
// (codegen/mathlib/ULP.md).
//
// # The Go subset
//
// A kernel is a package-level function whose first parameter is a
// Thread, with no results and no type parameters, marked
// //fuseflow:kernel in its doc comment (//fuseflow:nobounds as well turns
// its bounds checks off on the GPU). Its other parameters are scalars
// (bool, int, int32, int64, uint32, uint64, float32, float64, or named
// types of the package over them) and slices of them.
//
// Inside: those scalars, slices, pointers to their elements, arrays of
// them as local variables and kernel.Dim3; every operator with Go's
// semantics (integer division and shifts included); conversions between
// numbers; if, switch, for in every form (three-clause, condition,
// infinite, range over a slice, an array or an int), break and continue
// (labeled too), goto, early returns; calls of the package's own
// functions and methods, generic ones and closures that capture nothing
// included (they are inlined, so they cannot recurse), with any number of
// results; slicing; len, cap, min, max; the intrinsics and math above.
//
// Outside, reported by kernelgen: maps, interfaces, strings, channels,
// structs (but Dim3), pointers as parameters, 8- and 16-bit integers,
// complex numbers, closures that capture variables, function values, go,
// defer, panic, make, new, append, copy, slice literals, variadic calls,
// recursion, calls of other packages' functions (math and math32 apart),
// package-level variables (but arrays of constants nothing writes), and
// a barrier in code only some threads of a block reach.
//
// # Diagnostics
//
// kernelgen reports every occurrence of every construct outside the
// subset at once, one per line, TinyGo style, as
//
//	file:line:col: what is unsupported; what to write instead
//
// for example
//
//	saxpy.go:14:8: maps are not supported in kernels; use a slice indexed by an integer key
//	saxpy.go:17:2: recursive call of fact is not supported in kernels (calls are inlined); write it as a loop
//	saxpy.go:21:3: this barrier is not reached by every thread of the block: it is in a branch or loop that depends on the thread index (or after a return some threads take); move it where all threads arrive (the branch is at saxpy.go:18:5)
//
// and exits with status 1, writing nothing.
//
// # Bounds on the GPU
//
// Go checks indices, slice bounds, integer division and shift counts on
// the CPU. The PTX checks them too: a failed check stores its site in a
// check word (the PTX's last parameter, see Spec.Checks) and traps, and
// the launch fails with a LaunchError naming the kernel and the source
// line. //fuseflow:nobounds leaves the checks out.
//
// # Where the CPU and the GPU differ
//
// Conversions of out-of-range floats to integers (implementation-defined
// in Go: the GPU saturates and maps NaN to 0), the contents of shared
// memory before it is written (zero on the CPU, undefined on a GPU),
// float math (within the ulps above; and Go's math.Log on amd64 is off
// for subnormal arguments), ActiveMask in divergent code (see its doc),
// and the order of atomics (any order on both).
//
// # Devices
//
// A Device runs kernels and holds the memory of device arrays. The CPU
// device is built in; a GPU backend implements Device (Launch with the
// kernel's Spec: its PTX, parameters and check sites; Alloc and copies
// for arrays; exec/cuda's Backend.KernelDevice is one) and Register
// makes a device the default. Every type
// here is safe for concurrent use; a Kernel may be launched from many
// goroutines at once.
package kernel
