// This file implements the choice of the code path at start-up: the
// widest vector code the CPU supports (cpuPath, per architecture), or
// the portable code when the switch FUSEFLOW_NOASM is on (read through
// internal/config); and SetASM, which switches between the two
// afterwards.

package vecmath

import "github.com/fuseflow/fuseflow/internal/config"

// atInit is the path init chose, for tests.
var atInit path

func init() {
	active = cpuPath()
	if config.Enabled(config.NoASM) {
		active = pathPORTABLE
	}
	atInit = active
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
