// Package ptxsim is a simulator of NVIDIA PTX written from the PTX ISA
// specification: it parses the PTX that fuseflow's code generator emits
// and executes kernel launches on the CPU, checking what a GPU would not.
// The emulated CUDA device of the exec/cuda tests runs every generated
// module through it, so the emitter's output is executed, not only
// assembled.
//
// # Use
//
//	m, err := ptxsim.Parse(text)            // every kernel decoded up front
//	k, err := m.Kernel("k0_map_exp")
//	st, err := k.Run(ptxsim.Config{
//		Grid: [3]int{64}, Block: [3]int{256},
//		Params: []uint64{0x1000, 0x2000},   // device addresses, scalars' bits
//		Global: []ptxsim.Region{{Name: "x", Addr: 0x1000, Data: x}, ...},
//	})
//
// Parse returns a *ParseError naming the line of anything it does not
// implement - an instruction, a type, a modifier, a directive - which it
// never ignores, and of a register some path may read before writing it.
// Run returns a plain error for a launch the kernel cannot take and an
// *Error for a fault of the kernel, naming the kernel, the PTX line and
// instruction, the block and thread, and the address, as compute-sanitizer
// would, and the source file and line of the instruction when the module
// has .file and .loc directives (Error.Source).
//
// Module-scope .const arrays with initializers live in the module's
// constant bank at ConstBankAddr, each its own read-only region, which
// every launch reads; .extern .shared arrays name the launch's dynamic
// shared memory (Config.DynamicSharedBytes), which starts after the
// static shared memory at Kernel.DynamicSharedOffset.
//
// # Semantics
//
// Each instruction family follows its section of the PTX ISA; the tests
// cite them. Section numbers are those of PTX ISA 7.6 (CUDA 11.6), whose
// text the simulator was written from; the instructions fuseflow emits
// (ISA 7.8 by default) behave the same. Integer results wrap at the type's
// width unless .sat clamps them; shift amounts at or past the width clamp;
// division truncates and the remainder takes the dividend's sign; float
// results are correctly rounded in the mode given (.rn, .rz, .rm, .rp),
// .ftz flushes subnormal inputs and results to zeros of their sign, .sat
// clamps to [0, 1] and NaN to +0; min and max return the non-NaN operand;
// setp's ordered comparisons are false on NaN and the u forms true; cvt
// saturates float-to-integer results and converts NaN to 0, or to
// 1 << (width-1) for an .f64 source or a 64-bit result (the rule of PTX
// ISA 9.1). The .approx instructions are computed to nearly full precision
// with the special values of the ISA's tables, within the error bounds it
// documents (the tests check the bounds, not the values).
//
// # Execution
//
// The blocks of a grid run in parallel goroutines, each block on one;
// global atomics are atomic between them. A block's threads form warps of
// 32 lanes, each lane with its own program counter (the independent
// thread scheduling of PTX ISA 3.2): a warp runs the lanes at its lowest
// counter in lockstep and lets lanes that diverged meet again at the first
// label they share. shfl.sync, vote.sync and bar.warp.sync wait until
// every non-exited lane of their member mask is at the same instruction;
// bar.sync waits for every non-exited thread of the block at the same
// bar.sync (its .aligned rule); bar.red does too, and gives each thread
// the reduction of a predicate over the block. Registers hold their values in 64-bit
// slots per lane; predicates are one bit per lane. Instructions are
// decoded once into operand slots and semantic functions, so a launch
// does no string handling.
//
// # Checks
//
// Every access is checked against its state space: global and const
// memory against the launch's regions, shared memory against the block's
// declared arrays, local memory per thread, parameters against the
// parameter space; and for alignment to its size. Shared and local bytes
// read before any write of the block (thread) are faults, and so is
// shared memory two warps touch between the same two barriers with at
// least one writing (a data race). After a launch, memory read through
// ld.global.nc that the kernel also wrote is reported (PTX ISA 9.7.8.9
// defines the non-coherent path only for read-only data). Integer division
// by zero, shuffles reading a lane that did not take part, divergent or
// deadlocked barriers and warp operations, trap (FaultTrap), and a launch exceeding
// its step budget are faults too.
//
// # Not simulated
//
// Timing, occupancy and scheduling order on real hardware; the driver's
// JIT (ptxas) and what it assumes; the relaxed memory model (memory here
// is sequentially consistent, fences order nothing, caches do not exist);
// half-precision instructions other than cvt to and from .f32, add, sub,
// mul, fma.rn and setp on scalar .f16 and .bf16 (halfops.go); texture,
// tensor-core, cluster and asynchronous-copy instructions; device functions; generic addressing of shared and local
// memory. Module-scope variables other than .const arrays and .extern
// .shared arrays are not supported.
//
// A Module and its Kernels are immutable and safe for concurrent use;
// concurrent launches that write the same memory race as kernels would.
package ptxsim
