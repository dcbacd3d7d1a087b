// This file implements Spec and Param, what kernelgen records about a
// compiled kernel (in its PTX file, see record.go): the Go function and how to call
// it with checked arguments, the parameter list with the slices the
// kernel writes, what block-level cooperation its threads need, and the
// PTX with its target and bounds-check sites.

package kernel

import "fmt"

// Param is one parameter of a kernel after the Thread. In the PTX a
// scalar is one parameter of its type, except a bool, which is a .u32 0
// or 1.
type Param struct {
	Name string
	// Type is the parameter's type, or its element type for a slice.
	Type Type
	// Slice marks a slice parameter. In the PTX it is two parameters: a
	// pointer to global memory (.u64) then the length (.s64).
	Slice bool
	// Written marks a slice the kernel stores into or applies atomics to
	// (kernelgen knows): on a GPU such host slices are copied back after
	// the launch, and as a lazy array call they are the results.
	Written bool
}

// String returns "name T" or "name []T".
func (p Param) String() string {
	if p.Slice {
		return p.Name + " []" + p.Type.String()
	}
	return p.Name + " " + p.Type.String()
}

// Sync says which block-level cooperation a kernel's threads need.
type Sync uint8

// The cooperation flags. A kernel without them runs its threads one after
// another on the CPU (the fast path); with them, the threads of a block
// run as goroutines that meet at barriers and warp operations, and may
// wait for each other through shared memory.
const (
	SyncBarrier Sync = 1 << iota // SyncThreads and its forms
	SyncWarp                     // shuffles, votes, SyncWarp, ActiveMask
	SyncShared                   // Shared or DynShared
)

// Spec describes a compiled kernel. kernelgen writes all of it but Bind
// and PTX as the record heading each kernel's PTX file (Spec.Record),
// which FromPTX reads back; a kernel written by hand is New of a Spec.
// The fields are read-only after New.
type Spec struct {
	// Name is the Go function's name; Entry the PTX entry's (New sets
	// an empty Entry to Name).
	Name, Entry string
	// Params are the parameters after the Thread, in order.
	Params []Param
	// Bind returns the kernel body for one launch: the Go function
	// applied to args, whose values have exactly the Go types of Params
	// (scalars of the parameter's type, slices []T with len == cap).
	// Bind0 to Bind12 make it from the function.
	Bind func(args []any) func(Thread)
	// Sync is the cooperation the threads need (SyncBarrier, SyncWarp).
	Sync Sync
	// SharedBytes is the static shared memory of a block, in bytes.
	SharedBytes int
	// PTX is the PTX module holding the kernel, for Target (sm_80) and
	// PTX ISA PTXVersion (7.8); empty for a kernel that runs on the CPU
	// only. New sets an empty Target and PTXVersion to those of the PTX's
	// .target and .version directives.
	PTX, Target, PTXVersion string
	// Checks are the bounds and division checks of the PTX, one per
	// trap site: "file.go:12:7: index out of range". When there are any,
	// the PTX has one more parameter after those of Params, a pointer to
	// a uint32 in which a failing check stores its site's index plus one
	// (the first failure wins) before trapping; zero means no failure.
	Checks []string
	// NoBounds records //fuseflow:nobounds: the PTX checks nothing.
	NoBounds bool
}

// Convert returns v converted to the Go type of scalar parameter p, as a
// launch converts it (see Kernel.LaunchContext): an integer that fits,
// any number for a float (rounded to float32 for float32), a bool for a
// bool. It is an error for a value that does not fit or a slice
// parameter.
func (p Param) Convert(v any) (any, error) {
	if p.Slice {
		return nil, fmt.Errorf("parameter %s is a slice, not a scalar", p)
	}
	return convertScalar(p.Type, v)
}
