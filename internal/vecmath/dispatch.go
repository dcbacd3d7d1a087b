// This file implements the choice of the code path at start-up: the
// widest vector code the CPU supports (cpuPath, per architecture), or
// the portable code when FUSEFLOW_NOASM is set to anything but "" or
// "0"; and SetASM, which switches between the two afterwards.

package vecmath

import "os"

// noASM reports whether the environment asks for the portable code.
func noASM(v string) bool { return v != "" && v != "0" }

func init() {
	active = cpuPath()
	if noASM(os.Getenv("FUSEFLOW_NOASM")) {
		active = pathPORTABLE
	}
}

// Path returns the name of the code path in use: "avx512", "avx2" or
// "portable".
func Path() string { return active.String() }

// SetASM selects the widest vector code the CPU supports (on; the
// portable code where it supports none) or the portable code, whatever
// FUSEFLOW_NOASM says, and reports whether vector code was in use
// before. It is meant for tests and for executors that switch their own
// vector loops with it: it must not run while any function of the
// package runs, as the choice is read without synchronization.
func SetASM(on bool) (was bool) {
	was = active != pathPORTABLE
	active = pathPORTABLE
	if on {
		active = cpuPath()
	}
	return was
}
