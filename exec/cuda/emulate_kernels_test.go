// Test support: explicit kernels (package kernel) on the emulated device.
// A test files each kernel's module with the emulator (emuExplicit)
// before launching it through Backend.KernelDevice; the fake then hands
// its launches to launchExplicit, which runs the kernel's PTX on the PTX
// simulator. Each slice parameter's pointer maps the whole live fake
// allocation holding it as global memory, and the check word (mapped
// pinned host memory, whose host address is its device address) its 4
// bytes, so any other access is a simulator fault.

package cuda

import (
	"errors"
	"fmt"
	"hash/fnv"
	"unsafe"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
	"github.com/fuseflow/fuseflow/kernel"
)

// emuTrap is the fault code of a trap (CUDA reports an unspecified
// launch failure).
const emuTrap = emuLaunchFailed

// explicitKernel is an explicit kernel filed with the emulator.
type explicitKernel struct {
	k *kernel.Kernel
	// ptrs marks the PTX parameters that are slice pointers; word is the
	// index of the check word's parameter, or -1.
	ptrs []bool
	word int
}

// emuExplicit files k's module with the emulator so that launches of it
// run on the simulator.
func (e *emulator) emuExplicit(k *kernel.Kernel) error {
	s := k.Spec()
	h := fnv.New64a()
	h.Write([]byte(s.PTX))
	mod := h.Sum64()
	if err := loadSimModule(mod, s.PTX, false); err != nil {
		return fmt.Errorf("kernel %s: %w", s.Name, err)
	}
	ek := &explicitKernel{k: k, word: -1}
	for _, p := range s.Params {
		if p.Slice {
			ek.ptrs = append(ek.ptrs, true, false)
		} else {
			ek.ptrs = append(ek.ptrs, false)
		}
	}
	if len(s.Checks) > 0 && !s.NoBounds {
		ek.word = len(ek.ptrs)
		ek.ptrs = append(ek.ptrs, false)
	}
	e.mu.Lock()
	e.explicit[emuKey{mod, s.Entry}] = ek
	e.mu.Unlock()
	return nil
}

// launchExplicit runs a launch of explicit kernel ek on the simulator and
// returns 0 or the fault code.
func (e *emulator) launchExplicit(ek *explicitKernel, entry string, mod uint64, dims *[7]uint32, params []uint64) int32 {
	name := ek.k.Name()
	if len(params) != len(ek.ptrs) {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s: launched with %d parameters, its PTX has %d", name, len(params), len(ek.ptrs)))
	}
	v, ok := simModules.Load(mod)
	if !ok {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s: the simulator has no module %#x", name, mod))
	}
	sk, err := v.(*simModule).m.Kernel(entry)
	if err != nil {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s: %w", name, err))
	}
	var regions []ptxsim.Region
	seen := map[uintptr]bool{}
	for i, isPtr := range ek.ptrs {
		if !isPtr {
			continue
		}
		var base unsafe.Pointer
		var size uint64
		if e.allocOf(params[i], &base, &size) == 0 {
			return e.fault(emuIllegalAddress, fmt.Errorf("kernel %s: parameter %d: address %#x is in no live device allocation", name, i, params[i]))
		}
		if !seen[uintptr(base)] {
			seen[uintptr(base)] = true
			regions = append(regions, ptxsim.Region{Name: fmt.Sprintf("the allocation of parameter %d", i),
				Addr: uint64(uintptr(base)), Data: unsafe.Slice((*byte)(base), size)})
		}
	}
	if ek.word >= 0 {
		p := params[ek.word]
		host := *(*unsafe.Pointer)(unsafe.Pointer(&p)) // mapped host memory: its host address
		regions = append(regions, ptxsim.Region{Name: "the check word", Addr: p, Data: unsafe.Slice((*byte)(host), 4)})
	}
	e.runs.Add(1)
	_, err = sk.Run(ptxsim.Config{
		Grid:  [3]int{int(dims[0]), int(dims[1]), int(dims[2])},
		Block: [3]int{int(dims[3]), int(dims[4]), int(dims[5])}, DynamicSharedBytes: int(dims[6]),
		Params: params, Global: regions,
	})
	if err == nil {
		return 0
	}
	var se *ptxsim.Error
	if errors.As(err, &se) {
		switch se.Kind {
		case ptxsim.FaultAddress:
			return e.fault(emuIllegalAddress, fmt.Errorf("kernel %s: %w", name, err))
		case ptxsim.FaultMisaligned:
			return e.fault(emuMisalignedAddress, fmt.Errorf("kernel %s: %w", name, err))
		case ptxsim.FaultTrap:
			// A failed bounds check traps on purpose: the test reads
			// the check word, not the emulator's fault list.
			return emuTrap
		}
	}
	return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s: %w", name, err))
}
