// Package ir is fuseflow's typed SSA kernel IR for GPU kernels: the form
// every kernel takes between its producers (codegen's Map, Reduce and
// MatMul templates for the lazy arrays, codegen/gokernel's compiler of
// explicit kernels written in Go, the math library's expansions) and the
// PTX emitter (codegen/ptx). It has a builder with structured control
// flow, a verifier, a text dump, and an interpreter that runs a kernel on
// the CPU and is the test oracle for generated code. Instructions carry
// the source position they were built from (Instr.Pos, set with
// Builder.SetPos): the PTX emitter writes them as .loc line info and the
// interpreter names them in its run errors.
//
// # Types and values
//
// A Type is a scalar (pred, b8..b64, s8..s64, u8..u64, f32, f64; f16 is
// reserved) or a pointer with an address space and an element type
// (PtrTo(SpaceGlobal, F32)). Values are typed SSA values: kernel
// parameters, constants (uniqued per function, printed inline as 3:s32),
// base pointers of static shared and local allocations, block parameters,
// and instruction results.
//
// # Memory
//
// Besides kernel parameters, a function declares static shared arrays
// (one per block of threads), local arrays (one per thread), views of the
// block's dynamic shared memory (AddDynShared: all start at one address;
// the launch gives the size, which the dynamic_smem_size register reads)
// and constant arrays with their contents (AddConstArray: the const
// space, read-only).
//
// # Source positions
//
// Every instruction may carry a Pos (file, line, column) set through
// Builder.SetPos: the Go kernel compiler records the line each
// instruction comes from. The dump prints it, the verifier's Problems and
// the interpreter's RunErrors report it, and the PTX emitter writes it as
// .loc line information when asked.
//
// # Control flow: block parameters
//
// Join values are block parameters, not phi nodes: a branch passes
// arguments for its target's parameters (br loop(%i1, %acc1)). Both edges
// of a conditional branch may carry arguments; the structured helpers
// never put arguments on a conditional branch, so their CFGs have no
// critical edges that carry values. Terminators are br, condbr and ret.
//
// # Addresses
//
// Pointers are typed values. PtrAdd adds a byte offset; Index adds an
// element index (p + i*sizeof(elem)); PtrCast changes the element type.
// Offsets and indices may be s32, u32, s64 or u64 (sign- or zero-extended).
// Vector loads and stores (width 2 or 4) need an address aligned to the
// whole vector.
//
// # Building
//
// A Builder appends typed instructions to a current block and offers If,
// IfElse, IfElseValues, For, ForCarry, While and grid-stride loops
// (GridStride, GridStrideCarry). Blocks lay out in the order they are
// filled, so structured code reads top to bottom. The builder never
// panics: ill-typed code is reported by Verify with the function, block and
// instruction of every problem.
//
// # Interpreting
//
// Run (or Compile and Program.Run) executes a kernel for a grid of blocks,
// one block of threads at a time, in linear order. Each thread has a
// program counter; the scheduler runs the ready threads with the earliest
// counter (in layout order) in lockstep, one instruction over the whole
// group, so a divergent branch splits the group and the halves meet again
// at the merge block, and threads that leave a loop early wait at its exit.
// bar.sync (and bar.red, which also reduces a predicate over the block)
// waits for every thread of the block at the same barrier; shfl, vote and
// bar.warp.sync wait for every lane named in their member mask (lanes are
// 32-wide warps of consecutive threads); activemask reads the lanes of the
// warp in the group running it. Atomics apply in thread order, so runs are
// deterministic. trap stops the run with a RunError naming the thread and
// the source position.
//
// Global buffers are Mem objects; shared memory is separate per block and
// local memory per thread. Out-of-bounds and misaligned accesses (naming
// the parameter or array, offset and size), reads of uninitialized shared
// or local memory, stores through read-only parameters, barriers reached
// by part of a block, warp operations whose lanes do not all arrive, and
// runaway loops (a step budget) are returned as *RunError, never panics.
//
// Arithmetic follows PTX: integers wrap; shifts by the width or more give
// 0 (or the sign); integer division by zero gives all ones and remainder
// the dividend; float min and max return the non-NaN operand; f32 results
// are rounded to float32 after every operation, and f32 fma is rounded
// once, exactly (computed in float64 with an exact error term and rounded
// to odd, which makes the final rounding to float32 exact). Float to integer
// conversions saturate and map NaN to 0. The 16-bit float ops (hadd,
// hsub, hmul, hcmp on float16 or bfloat16 patterns) are the f32 op of
// the widened operands, narrowed (half.go). Math calls evaluate with Go's
// math package in float64 and round once to the operand type; this is the
// reference the math library's expansions are measured against, and the
// approx flag does not change it.
package ir
